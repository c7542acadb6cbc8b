#!/usr/bin/env bash
# The rounds table at the size the rounds issue (#17) names: 3 rounds x 120 CPU profiles of the size of the
# corpus' Go CPU profiles (gen__baseline/gen__optimized.cpu.pb.gz: 17 KB, ~970 samples, 10 s each), read,
# merged per round and compared per function by `qflame rounds --tsv`. Target: within 1 s on this machine.
# Writes docs/benchmarks-rounds.md.
#
#   bash bench/rounds.sh            QFLAME_BENCH_BUILD (default build-bench, Release), QFLAME_CORPUS, RUNS (7)
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${QFLAME_BENCH_BUILD:-$ROOT/build-bench}
CORPUS=${QFLAME_CORPUS:-$ROOT/../shared/corpus}
RUNS=${RUNS:-7}
OUT=$ROOT/docs/benchmarks-rounds.md
[ -f "$CORPUS/gen__baseline.cpu.pb.gz" ] || CORPUS=$ROOT/tests/data

if [ ! -f "$BUILD/CMakeCache.txt" ]; then
    cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF > /dev/null
fi
cmake --build "$BUILD" -j"$(nproc)" --target qflame > /dev/null

DATA=$(mktemp -d)
trap 'rm -rf "$DATA"' EXIT
# Round a: the baseline's profile; round b: the optimized program's; round c: the two alternating (a spread).
args=()
for round in a b c; do
    args+=(-r "$round")
    for i in $(seq -w 1 120); do
        case "$round" in
            a) src=gen__baseline ;;
            b) src=gen__optimized ;;
            c) src=$([ $((10#$i % 2)) -eq 0 ] && echo gen__baseline || echo gen__optimized) ;;
        esac
        cp "$CORPUS/$src.cpu.pb.gz" "$DATA/$round$i.pb.gz"
        args+=("$DATA/$round$i.pb.gz")
    done
done
cat "$DATA"/*.pb.gz > /dev/null   # from the page cache, like the other whole-process timings

load=$(cut -d' ' -f1-3 /proc/loadavg)
buildtype=$(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$BUILD/CMakeCache.txt")
times=()
TIMEFORMAT=%R
for run in $(seq 1 "$RUNS"); do
    t=$( { time "$BUILD/app/qflame" rounds "${args[@]}" --tsv > "$DATA/out.tsv"; } 2>&1 )
    times+=("$t")
done
median=$(printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
rows=$(grep -c '^function' "$DATA/out.tsv")
met=$(awk -v m="$median" 'BEGIN {print (m <= 1.0) ? "met" : "NOT met"}')
{
    echo "# Benchmark: the rounds table"
    echo
    echo "Written by \`bench/rounds.sh\` on $(date -u +%Y-%m-%d), commit $(git -C "$ROOT" rev-parse --short HEAD),"
    echo "$(nproc) cores, load average $load when it started, the $buildtype build ($BUILD)."
    echo
    echo "\`qflame rounds --tsv\` on 3 rounds x 120 CPU profiles (copies of the corpus' gen__baseline and"
    echo "gen__optimized.cpu.pb.gz, 17 KB and ~970 samples each; the third round alternates them): all 360 files"
    echo "read, each round merged, $rows functions compared, each with its per-file spread."
    echo
    echo "| runs | wall times (s) | median | target (1 s) |"
    echo "|---|---|---|---|"
    echo "| $RUNS | ${times[*]} | **$median s** | $met |"
} > "$OUT"
cat "$OUT"
