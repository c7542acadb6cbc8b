#!/usr/bin/env bash
# The window at scale (issue #23): in one run, interleaved, on the largest corpus profile (and the largest CPU
# profile), `qflame top FILE` against `qflame --time-to-paint FILE` (offscreen, and under Xvfb when xvfb-run is
# there; the largest also bottom-up, `--inverted --time-to-paint`) and against `go tool pprof -http` until its /ui/flamegraph page answers; the same for a comparison
# (`qflame diff` / `--time-to-paint BASE NEW` / `pprof -http -diff_base`); the peak memory of the window against
# the CLI's for the same work (the largest profile, and a diff of two generated 1M-node trees); 50 opens and
# closes of the largest profile in one window; the qryn explorer on a 400,000-node answer. Writes
# docs/benchmarks-window.md, which bench/report.py puts into docs/benchmarks.md.
#
#   bash bench/window.sh      (bench/run.sh runs it too, after its own measurements)
#
# Settings (environment): QFLAME_BENCH_BUILD (default build-bench, Release: the build packaging/setup.sh makes),
# QFLAME_CORPUS (default ../shared/corpus), QFLAME_BENCH_RUNS (runs of each qflame command, default 7),
# QFLAME_BENCH_GO_RUNS (runs of pprof -http, default 1: minutes each), QFLAME_BENCH_GO_TIMEOUT (seconds, 900),
# QFLAME_BENCH_REOPEN (opens and closes, default 50), GO (default /usr/lib/go-1.19/bin/go).
# Needs: cmake ninja-build python3 golang-1.19-go; xvfb (xvfb-run) for the Xvfb column.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${QFLAME_BENCH_BUILD:-$ROOT/build-bench}
DATA=${QFLAME_BENCH_DATA:-$BUILD/bench-data}
CORPUS=${QFLAME_CORPUS:-$ROOT/../shared/corpus}
RUNS=${QFLAME_BENCH_RUNS:-7}
GO_RUNS=${QFLAME_BENCH_GO_RUNS:-1}
GO_TIMEOUT=${QFLAME_BENCH_GO_TIMEOUT:-900}
REOPEN=${QFLAME_BENCH_REOPEN:-50}
GO=${GO:-/usr/lib/go-1.19/bin/go}
OUT=$ROOT/docs/benchmarks-window.md

say() { printf '[window %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }

if [ ! -f "$BUILD/CMakeCache.txt" ]; then
    say "configuring $BUILD (Release, no tests)"
    cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF > /dev/null
fi
say "building"
cmake --build "$BUILD" -j"$(nproc)" --target qflame qflame-cli qflame-gui qflame-window qflame-bench-measure qflame-bench-gen \
    qflame-bench-reopen qflame-bench-explorer > "$BUILD/window-build.log" 2>&1 || {
    tail -30 "$BUILD/window-build.log" >&2
    exit 1
}
QFLAME=$BUILD/app/qflame
MEASURE=$BUILD/bench/qflame-bench-measure
BUILD_TYPE=$(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$BUILD/CMakeCache.txt")

LARGEST=$CORPUS/gen__gotypes-stdlib.allocs-r64.pb.gz   # the largest by MANIFEST.tsv: 10 MB, 1.9M nodes
LARGE_CPU=$CORPUS/pprof__large.cpu                      # the largest CPU profile: 23,000 functions
BASE=$CORPUS/gen__gotypes-stdlib.allocs-r2048.pb.gz     # the diff pair of bench/run.sh
for f in "$LARGEST" "$LARGE_CPU" "$BASE"; do
    [ -f "$f" ] || { echo "bench/window.sh: $f is missing (set QFLAME_CORPUS)" >&2; exit 1; }
done
mkdir -p "$DATA"
# Two 1M-node trees of one program (bench/ProfileGenerator.h), the pair of the 4K repaint and diff benchmarks.
for seed in 1 2; do
    f=$DATA/nodes-1m-$seed.pb.gz
    if [ ! -s "$f" ] || [ "$BUILD/bench/qflame-bench-gen" -nt "$f" ]; then
        say "generating $f"
        "$BUILD/bench/qflame-bench-gen" --nodes 1000000 --seed "$seed" --program-seed 1 "$f" > "$f.stats"
    fi
done

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
export HOME=$TMP PPROF_TMPDIR=$TMP XDG_CONFIG_HOME=$TMP/config XDG_RUNTIME_DIR=$TMP/run   # no one's settings
mkdir -p "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
RESULTS=$DATA/window.tsv
: > "$RESULTS"

# run KEY TOOL COMMAND...: one run under qflame-bench-measure (wall from fork to exit, peak RSS); the command's
# own "first paint: N ms" when it prints one. Appends KEY TOOL WALL_S RSS_KB PAINT_MS.
run() {
    local key=$1 tool=$2
    shift 2
    local err paint wall rss
    err=$("$MEASURE" 900 sh -c 'exec "$@" > "'"$TMP"'/out" 2> /dev/null' sh "$@" 2>&1 >/dev/null) || true
    read -r wall _ _ rss < <(grep -E '^[0-9.]+ [0-9.]+ [0-9.]+ [0-9]+$' <<< "$err" | tail -1 || echo "0 0 0 0")
    paint=$(sed -n 's/^first paint: \([0-9]*\) ms$/\1/p' "$TMP/out" | tail -1)
    printf '%s\t%s\t%s\t%s\t%s\n' "$key" "$tool" "$wall" "$rss" "${paint:--}" >> "$RESULTS"
    say "  $key $tool: ${wall}s ${rss}KB paint ${paint:--}ms"
}
# Under Xvfb: xvfb-run starts the server first; the window's time counts from its own process start (its peak
# memory is taken from the offscreen runs: here the measured process is xvfb-run).
XVFB=$(command -v xvfb-run || true)
XRUN=("$XVFB" -a -s "-screen 0 1920x1080x24")

pprof_http() {   # KEY ARGS...: seconds until pprof -http serves /ui/flamegraph
    local key=$1
    shift
    for r in $(seq 1 "$GO_RUNS"); do
        local s
        s=$(python3 "$ROOT/bench/pprof_http.py" "$GO" "$GO_TIMEOUT" "$@")
        printf '%s\tpprof-http\t%s\t-\t-\n' "$key" "$s" >> "$RESULTS"
        say "  $key pprof -http: $s s"
        [[ "$s" =~ ^[0-9] ]] || break
    done
}

uptime > "$DATA/window-load-before.txt"
for f in "$LARGEST" "$LARGE_CPU" "$BASE" "$DATA"/nodes-1m-*.pb.gz; do cat "$f" > /dev/null; done
say "profiles: $RUNS interleaved runs of each qflame command"
for r in $(seq 1 "$RUNS"); do
    for f in "$LARGEST" "$LARGE_CPU"; do
        key=$(basename "$f")
        run "$key" top "$QFLAME" top "$f"
        QT_QPA_PLATFORM=offscreen run "$key" paint-offscreen "$QFLAME" --time-to-paint "$f"
        if [ -n "$XVFB" ]; then QT_QPA_PLATFORM=xcb run "$key" paint-xvfb "${XRUN[@]}" "$QFLAME" --time-to-paint "$f"; fi
        # Bottom-up (View > Bottom-up at open, issue #36): the largest profile's inverted first paint.
        if [ "$f" = "$LARGEST" ]; then
            QT_QPA_PLATFORM=offscreen run "$key" paint-inverted "$QFLAME" --inverted --time-to-paint "$f"
        fi
    done
    run "r2048 -> r64" diff "$QFLAME" diff "$BASE" "$LARGEST"
    QT_QPA_PLATFORM=offscreen run "r2048 -> r64" paint-offscreen "$QFLAME" --time-to-paint "$BASE" "$LARGEST"
    if [ -n "$XVFB" ]; then QT_QPA_PLATFORM=xcb run "r2048 -> r64" paint-xvfb "${XRUN[@]}" "$QFLAME" --time-to-paint "$BASE" "$LARGEST"; fi
    run "1M -> 1M nodes" diff "$QFLAME" diff "$DATA/nodes-1m-1.pb.gz" "$DATA/nodes-1m-2.pb.gz"
    QT_QPA_PLATFORM=offscreen run "1M -> 1M nodes" paint-offscreen "$QFLAME" --time-to-paint \
        "$DATA/nodes-1m-1.pb.gz" "$DATA/nodes-1m-2.pb.gz"
done

say "go tool pprof -http ($GO_RUNS run(s) each, limit ${GO_TIMEOUT}s)"
pprof_http "$(basename "$LARGEST")" "$LARGEST"
pprof_http "$(basename "$LARGE_CPU")" "$LARGE_CPU"
pprof_http "r2048 -> r64" -diff_base "$BASE" "$LARGEST"

say "$REOPEN opens and closes of $(basename "$LARGEST") in one window"
QT_QPA_PLATFORM=offscreen "$BUILD/bench/qflame-bench-reopen" "$LARGEST" "$REOPEN" > "$DATA/window-reopen.txt" 2>/dev/null || true
cat "$DATA/window-reopen.txt" >&2

say "a 1M -> 1M node comparison's options changed in the window (the GUI thread's longest stall, bound 50 ms)"
QT_QPA_PLATFORM=offscreen "$BUILD/bench/qflame-bench-diffstall" "$DATA/nodes-1m-1.pb.gz" "$DATA/nodes-1m-2.pb.gz" \
    > "$DATA/window-diffstall.txt" 2>/dev/null || true
cat "$DATA/window-diffstall.txt" >&2

say "the qryn explorer on a 400,000-node answer"
QT_QPA_PLATFORM=offscreen "$BUILD/bench/qflame-bench-explorer" "$RUNS" > "$DATA/window-explorer.txt" 2>/dev/null || true
cat "$DATA/window-explorer.txt" >&2
uptime > "$DATA/window-load-after.txt"

python3 "$ROOT/bench/window_report.py" --data "$DATA" --out "$OUT" --build-type "$BUILD_TYPE" --runs "$RUNS" \
    --commit "$(git -C "$ROOT" rev-parse --short HEAD)" --xvfb "$([ -n "$XVFB" ] && echo 1 || echo 0)"
say "wrote $OUT"
