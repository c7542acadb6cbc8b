#!/usr/bin/env bash
# The flame chart at the size issue #35 names (one hour at 1,000 Hz on 8 threads, about 29 M samples, built in
# memory by qflame-bench-flamechart): its build, its memory, and the query and paint of one frame (1600 x 900,
# offscreen) at views from the whole hour to 1 ms, each panned to 30 places. Target: 16 ms per frame at every
# level. Writes docs/benchmarks-flamechart.md (docs/benchmarks.md's "Flame chart" section points there).
#
#   bash bench/flamechart.sh     QFLAME_BENCH_BUILD (default build-bench, Release), FRAMES (30), PNG_DIR (unset)
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${QFLAME_BENCH_BUILD:-$ROOT/build-bench}
FRAMES=${FRAMES:-30}
OUT=$ROOT/docs/benchmarks-flamechart.md

if [ ! -f "$BUILD/CMakeCache.txt" ]; then
    cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF -DQFLAME_BUILD_BENCH=ON > /dev/null
fi
# The shared machine's rule: one build at a time, through the lock when there is one.
if [ -e /tmp/qflame-build.lock ]; then
    flock /tmp/qflame-build.lock cmake --build "$BUILD" -j2 --target qflame-bench-flamechart > /dev/null
else
    cmake --build "$BUILD" -j"$(nproc)" --target qflame-bench-flamechart > /dev/null
fi

load=$(cut -d' ' -f1-3 /proc/loadavg)
args=(--frames "$FRAMES")
[ -n "${PNG_DIR:-}" ] && args+=(--png "$PNG_DIR")
{
    echo "# Flame chart (issue #35)"
    echo
    echo "Written by \`bash bench/flamechart.sh\` on $(date -u +%Y-%m-%d), commit \`$(git -C "$ROOT" rev-parse --short HEAD)\`,"
    echo "$(nproc) cores, load $load before the run. One hour at 1,000 Hz on 8 threads generated in memory"
    echo "(bench/flamechart_main.cpp), the chart built once, then each view painted at $FRAMES places across the hour"
    echo "(1600 x 900 px, offscreen). Target: 16 ms per frame at every zoom level."
    echo
    /usr/bin/time -f "Peak RSS of the whole run (profile, timeline, chart, image): %M KB." \
        "$BUILD/bench/qflame-bench-flamechart" "${args[@]}" 2>&1 | grep -v XDG_RUNTIME_DIR
} > "$OUT"
cat "$OUT"
