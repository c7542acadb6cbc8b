#!/usr/bin/env bash
# Reading against the floor (issue #31): in one session, for each profile, interleaved, `zcat`, `igzip -dc`
# (ISA-L's gzip), `zstd -dc` (zstd files), `qflame top` and `qflame --time-to-paint` (offscreen), RUNS times each;
# `go tool pprof -top` once on the largest files (and the largest one's bottom-up first paint, issue #36). Prints the medians and ratios, with the machine, its load
# and the build, and writes docs/benchmarks-floor.md, which bench/report.py puts at the top of
# docs/benchmarks.md (this script also puts it there itself, between the floor markers, so that it can be run
# on its own, in minutes, without the hour of bench/run.sh).
#
#   bash bench/floor.sh       (bench/run.sh runs it too)
#
# Files: every corpus profile over 1 MB, the corpus's zstd profile, and the largest one recompressed with zstd
# (zstd -3, in the data folder): a zstd profile large enough that reading it is not only starting a process.
# Settings (environment): QFLAME_BENCH_BUILD (default build-bench), QFLAME_BENCH_DATA, QFLAME_CORPUS,
# QFLAME_BENCH_RUNS (default 9), QFLAME_BENCH_GO (1: go tool pprof -top once per large file, default 1),
# GO (default /usr/lib/go-1.19/bin/go). Needs: gzip, isal (igzip), zstd, python3.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${QFLAME_BENCH_BUILD:-$ROOT/build-bench}
DATA=${QFLAME_BENCH_DATA:-$BUILD/bench-data}
CORPUS=${QFLAME_CORPUS:-$ROOT/../shared/corpus}
RUNS=${QFLAME_BENCH_RUNS:-9}
WITH_GO=${QFLAME_BENCH_GO:-1}
GO=${GO:-/usr/lib/go-1.19/bin/go}
OUT=$ROOT/docs/benchmarks-floor.md

say() { printf '[floor %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
for tool in cmake ninja zcat igzip zstd python3; do
    command -v "$tool" > /dev/null || {
        echo "bench/floor.sh: $tool is missing (Debian: apt-get install cmake ninja-build gzip isal zstd python3)" >&2
        exit 1
    }
done

if [ ! -f "$BUILD/CMakeCache.txt" ]; then
    say "configuring $BUILD (Release, no tests)"
    cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF > /dev/null
fi
say "building"
# On a shared machine builds take turns through a lock (/tmp/qflame-build.lock, when it exists) with at most two jobs.
LOCK=()
[ -e /tmp/qflame-build.lock ] && command -v flock > /dev/null && LOCK=(flock /tmp/qflame-build.lock)
JOBS=$(nproc)
[ "$JOBS" -gt 2 ] && [ ${#LOCK[@]} -gt 0 ] && JOBS=2
"${LOCK[@]}" cmake --build "$BUILD" -j"$JOBS" --target qflame qflame-cli qflame-gui qflame-window qflame-bench-measure \
    qflame-bench-thread-start qflame-bench-page-cost qflame-bench-bound > "$BUILD/floor-build.log" 2>&1 || {
    tail -30 "$BUILD/floor-build.log" >&2
    exit 1
}
QFLAME=$BUILD/app/qflame
MEASURE=$BUILD/bench/qflame-bench-measure
mkdir -p "$DATA"

LARGEST=$CORPUS/gen__gotypes-stdlib.allocs-r64.pb.gz
FILES=()
while IFS= read -r f; do FILES+=("$f"); done < <(find "$CORPUS" -maxdepth 1 -type f -size +1000k ! -name '*.tsv' | sort)
ZST_LARGE=$DATA/gen__gotypes-stdlib.allocs-r64.pb.zst
if [ ! -s "$ZST_LARGE" ] || [ "$LARGEST" -nt "$ZST_LARGE" ]; then
    zcat "$LARGEST" | zstd -q -3 -o "$ZST_LARGE" -f
fi
FILES+=("$ZST_LARGE")
for f in "$CORPUS"/*.zst; do [ -f "$f" ] && FILES+=("$f"); done

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
export HOME=$TMP PPROF_TMPDIR=$TMP XDG_CONFIG_HOME=$TMP/config XDG_RUNTIME_DIR=$TMP/run
mkdir -p "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
RESULTS=$DATA/floor.tsv
: > "$RESULTS"

# run KEY TOOL COMMAND...: one run under qflame-bench-measure; appends KEY TOOL WALL_S RSS_KB PAINT_MS SELF_MS.
# PAINT_MS (the paints only) is the time from just before fork to the line "first paint: N ms" on the window's
# standard output (qflame-bench-measure --line): the clock `qflame top` is timed on. SELF_MS is the N the window
# printed, from its start time in /proc, which the kernel keeps in 10 ms ticks rounded down (0-10 ms more).
run() {
    local key=$1 tool=$2
    shift 2
    local err paint self wall rss at rc=0
    # Standard output to /dev/null, as the report says, except the paints', which qflame-bench-measure reads.
    # Into a file on disk, the 43 MB of r64 that zcat and igzip wrote were flushed while the next command ran:
    # qflame top on r64 took 133-589 ms there (2026-12-05, 21 runs), 125-146 ms beside /dev/null.
    : > "$TMP/out"
    if [ "$tool" = paint ] || [ "$tool" = paint-inverted ]; then
        err=$("$MEASURE" --line "first paint:" 900 sh -c 'exec "$@" 2> /dev/null' sh "$@" 2>&1 >"$TMP/out") || rc=$?
        read -r wall _ _ rss at < <(grep -E '^[0-9.]+ [0-9.]+ [0-9.]+ [0-9]+ -?[0-9.]+$' <<< "$err" | tail -1 ||
                                    echo "0 0 0 0 -1")
    else
        err=$("$MEASURE" 900 sh -c 'exec "$@" > /dev/null 2> /dev/null' sh "$@" 2>&1 >/dev/null) || rc=$?
        read -r wall _ _ rss < <(grep -E '^[0-9.]+ [0-9.]+ [0-9.]+ [0-9]+$' <<< "$err" | tail -1 || echo "0 0 0 0")
        at=-1
    fi
    if [ "$rc" -ne 0 ]; then say "  $key $tool failed (exit $rc): not counted"; return; fi
    self=$(sed -n 's/^first paint: \([0-9]*\) ms$/\1/p' "$TMP/out" | tail -1)
    paint=-
    [ "$at" != -1 ] && paint=$(awk -v s="$at" 'BEGIN { printf "%.1f", s * 1000 }')
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$key" "$tool" "$wall" "$rss" "$paint" "${self:--}" >> "$RESULTS"
}

uptime > "$DATA/floor-load-before.txt"
say "load: $(cat "$DATA/floor-load-before.txt")"
: > "$DATA/floor-sizes.tsv"
for f in "${FILES[@]}"; do
    cat "$f" > /dev/null
    printf '%s\t%s\n' "$(basename "$f")" "$(stat -c %s "$f")" >> "$DATA/floor-sizes.tsv"
done
say "${#FILES[@]} profiles, $RUNS interleaved runs of each command"
for r in $(seq 1 "$RUNS"); do
    for f in "${FILES[@]}"; do
        key=$(basename "$f")
        case "$f" in
        *.zst) run "$key" "zstd -dc" zstd -dc "$f" ;;
        *)
            run "$key" zcat zcat "$f"
            run "$key" "igzip -dc" igzip -dc "$f"
            ;;
        esac
        run "$key" "qflame top" "$QFLAME" top "$f"
        QT_QPA_PLATFORM=offscreen run "$key" paint "$QFLAME" --time-to-paint "$f"
        # The largest bottom-up too (View > Bottom-up at open, issue #36).
        if [ "$f" = "$LARGEST" ]; then
            QT_QPA_PLATFORM=offscreen run "$key" paint-inverted "$QFLAME" --inverted --time-to-paint "$f"
        fi
    done
    say "  run $r of $RUNS done"
done
uptime > "$DATA/floor-load-after.txt"
say "helper threads' start beside a busy creator (qflame-bench-thread-start)"
"$BUILD/bench/qflame-bench-thread-start" 50 > "$DATA/floor-thread-start.txt"
say "what fresh memory costs, right after the runs and after 5 s idle (qflame-bench-page-cost)"
"$BUILD/bench/qflame-bench-page-cost" 16 9 > "$DATA/floor-page-cost.txt"
# As much as `qflame top` on r64 uses: after a pause the host keeps backing only the last few MB freed.
sleep 5
"$BUILD/bench/qflame-bench-page-cost" 64 1 > "$DATA/floor-page-cost-idle.txt"
say "the least \`qflame top\` could take on r64.pb.zst, from its parts alone (qflame-bench-bound)"
"$BUILD/bench/qflame-bench-bound" "$ZST_LARGE" 11 > "$DATA/floor-bound.txt"
if [ "$WITH_GO" = 1 ]; then
    say "go tool pprof -top, once per file over 2 MB"
    for f in "${FILES[@]}"; do
        [ "$(stat -c %s "$f")" -gt 2000000 ] || continue
        run "$(basename "$f")" "pprof -top" "$GO" tool pprof -top -symbolize=none "$f"
    done
fi

python3 "$ROOT/bench/floor_report.py" --results "$RESULTS" --data "$DATA" --out "$OUT" --runs "$RUNS" \
    --build "$BUILD" --commit "$(git -C "$ROOT" rev-parse --short HEAD)$(git -C "$ROOT" diff --quiet HEAD -- model app || echo '+changes')" \
    --benchmarks "$ROOT/docs/benchmarks.md" --notes "$ROOT/bench/floor-notes.md"
