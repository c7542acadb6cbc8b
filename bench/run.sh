#!/usr/bin/env bash
# Builds qflame and the benchmarks, makes the generated profiles, times qflame against go tool pprof and bare
# decompression, runs the in-process benchmarks, and writes docs/benchmarks.md (with docs/benchmarks-time.png).
#
#   bash bench/run.sh                 everything (about an hour on 2 cores, most of it go tool pprof)
#   QFLAME_BENCH_QUICK=1 bash bench/run.sh   no 500 MB profile, fewer runs: a smoke test of the script
#   QFLAME_BENCH_INPROCESS_ONLY=1 bash bench/run.sh   only the in-process benchmarks and the report (reuses the
#                                     whole-process results of the last full run)
#   QFLAME_BENCH_WINDOW=0 bash bench/run.sh   without bench/window.sh (the window's first paint, memory, reopening)
#   QFLAME_BENCH_FLOOR=0 bash bench/run.sh    without bench/floor.sh (reading against zcat, igzip and zstd: issue #31)
#
# Settings (environment): QFLAME_BENCH_BUILD (build dir, default build-bench), QFLAME_BENCH_DATA (generated
# profiles and raw results, default $QFLAME_BENCH_BUILD/bench-data), QFLAME_CORPUS (default ../shared/corpus),
# QFLAME_BENCH_RUNS (runs of each fast command, default 5), QFLAME_BENCH_GO_RUNS (runs of go tool pprof,
# default 3), QFLAME_BENCH_GO_TIMEOUT (seconds, default 600), QFLAME_BENCH_GO_MEM_GB (address-space limit of
# go tool pprof, default 16), GO (default /usr/lib/go-1.19/bin/go).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${QFLAME_BENCH_BUILD:-$ROOT/build-bench}
DATA=${QFLAME_BENCH_DATA:-$BUILD/bench-data}
CORPUS=${QFLAME_CORPUS:-$ROOT/../shared/corpus}
QUICK=${QFLAME_BENCH_QUICK:-0}
RUNS=${QFLAME_BENCH_RUNS:-$([ "$QUICK" = 1 ] && echo 2 || echo 5)}
GO_RUNS=${QFLAME_BENCH_GO_RUNS:-$([ "$QUICK" = 1 ] && echo 1 || echo 3)}
GO_TIMEOUT=${QFLAME_BENCH_GO_TIMEOUT:-600}
GO_MEM_GB=${QFLAME_BENCH_GO_MEM_GB:-16}
GO=${GO:-/usr/lib/go-1.19/bin/go}
OUT_MD=$ROOT/docs/benchmarks.md
OUT_PNG=$ROOT/docs/benchmarks-time.png

say() { printf '[bench %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }

for tool in cmake ninja zcat gnuplot python3 "$GO"; do
    command -v "$tool" > /dev/null || {
        echo "bench/run.sh: $tool is missing (Debian: apt-get install cmake ninja-build gzip gnuplot-nox python3 golang-1.19-go; xvfb for the window's Xvfb column)" >&2
        exit 1
    }
done

# ---- build ----------------------------------------------------------------------------------------------
if [ ! -f "$BUILD/CMakeCache.txt" ]; then
    say "configuring $BUILD (Release, no tests)"
    cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF > /dev/null
fi
say "building qflame, qflame-bench-gen, qflame-bench"
cmake --build "$BUILD" -j"$(nproc)" --target qflame qflame-bench-gen qflame-bench qflame-bench-measure qflame-bench-parse-floor > "$BUILD/bench-build.log" 2>&1 || {
    tail -30 "$BUILD/bench-build.log" >&2
    exit 1
}
QFLAME=$BUILD/app/qflame
GEN=$BUILD/bench/qflame-bench-gen
MEASURE=$BUILD/bench/qflame-bench-measure
FLOOR=$BUILD/bench/qflame-bench-parse-floor
BENCH=$BUILD/bench/qflame-bench

INPROCESS_ONLY=${QFLAME_BENCH_INPROCESS_ONLY:-0}
if [ "$INPROCESS_ONLY" != 1 ]; then
# ---- generated profiles -----------------------------------------------------------------------------------
mkdir -p "$DATA"
SIZES="10 100 500"
[ "$QUICK" = 1 ] && SIZES="10 100"
generate() {   # generate NAME SIZE_MB SEED: program seed 1, so two seeds are two runs of one program
    local name=$1 size=$2 seed=$3
    if [ ! -s "$DATA/$name.pb.gz" ] || [ ! -s "$DATA/$name.stats" ] || [ "$GEN" -nt "$DATA/$name.stats" ]; then
        say "generating $name ($size MiB, seed $seed)"
        "$GEN" --size-mb "$size" --seed "$seed" --program-seed 1 "$DATA/$name.pb.gz" > "$DATA/$name.stats"
    fi
}
for s in $SIZES; do generate "gen-$s" "$s" 1; done
generate gen-10-b 10 2
generate gen-100-b 100 2

# ---- whole-process timings ----------------------------------------------------------------------------------
RESULTS=$DATA/process.tsv
: > "$RESULTS"
PPROF_HOME=$(mktemp -d)
trap 'rm -rf "$PPROF_HOME"' EXIT

# measure FILEKEY TOOL RUN LIMIT_S MEM_KB COMMAND...: one run under qflame-bench-measure (bench/measure_main.cpp:
# wall time to the microsecond, user and system time, peak RSS), appended to $RESULTS.
measure() {
    local key=$1 tool=$2 run=$3 limit=$4 memkb=$5
    shift 5
    local tf rc=0 status=ok
    tf=$(mktemp)
    (
        ulimit -v "$memkb"
        export HOME=$PPROF_HOME PPROF_TMPDIR=$PPROF_HOME
        exec "$MEASURE" "$limit" "$@"
    ) > /dev/null 2> "$tf.err" || rc=$?
    local wall user sys rss
    read -r wall user sys rss < <(grep -E '^[0-9.]+ [0-9.]+ [0-9.]+ [0-9]+$' "$tf.err" | tail -1 || echo "0 0 0 0")
    if [ "$rc" -ne 0 ]; then
        if python3 -c "import sys; sys.exit(0 if float('$wall') >= $limit - 1 else 1)"; then
            status="timeout"
        elif grep -qi 'out of memory\|cannot allocate' "$tf.err"; then
            status="oom"   # the address-space limit (go: "fatal error: runtime: out of memory")
        elif [ "$rc" -eq 137 ]; then
            status="killed"   # SIGKILL before the time limit: the kernel's OOM killer
        else
            status="failed($rc)"
        fi
        sed -n 1,3p "$tf.err" >&2
    fi
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$key" "$tool" "$run" "$wall" "$user" "$sys" "$rss" "$status" >> "$RESULTS"
    say "  $key $tool #$run: ${wall}s ${rss}KB $status"
    rm -f "$tf" "$tf.err"
}

NOLIMIT=unlimited
GOMEM=$((GO_MEM_GB * 1024 * 1024))

# top FILEKEY PATH: qflame top, zcat and the protobuf library's bare parse (qflame-bench-parse-floor) RUNS times,
# interleaved; go tool pprof -top GO_RUNS times (once when it did not finish: more runs would only wait for the
# same limit).
top_compare() {
    local key=$1 path=$2
    cat "$path" > /dev/null   # page cache: every tool reads the file from memory
    printf '%s\t%s\t%s\t%s\n' "$key" "$path" "$(stat -c %s "$path")" "$(zcat "$path" | wc -c)" >> "$DATA/sizes.tsv"
    for run in $(seq 1 "$RUNS"); do
        measure "$key" zcat "$run" 600 "$NOLIMIT" zcat "$path"
        measure "$key" qflame "$run" 600 "$NOLIMIT" "$QFLAME" top "$path"
        measure "$key" parse-floor "$run" 600 "$NOLIMIT" "$FLOOR" "$path"
    done
    for run in $(seq 1 "$GO_RUNS"); do
        measure "$key" pprof "$run" "$GO_TIMEOUT" "$GOMEM" "$GO" tool pprof -top -symbolize=none "$path"
        tail -1 "$RESULTS" | grep -q 'ok$' || break
    done
}

# diff_compare KEY BASE NEW
diff_compare() {
    local key=$1 base=$2 new=$3
    for run in $(seq 1 "$RUNS"); do
        measure "$key" qflame-diff "$run" 600 "$NOLIMIT" "$QFLAME" diff "$base" "$new"
    done
    for run in $(seq 1 "$GO_RUNS"); do
        measure "$key" pprof-diff "$run" "$GO_TIMEOUT" "$GOMEM" "$GO" tool pprof -top -symbolize=none -diff_base "$base" "$new"
        tail -1 "$RESULTS" | grep -q 'ok$' || break
    done
}

uptime > "$DATA/load-before.txt"
echo "$(git -C "$ROOT" rev-parse --short HEAD) $(date -u '+%Y-%m-%d %H:%M UTC')" > "$DATA/process-run.txt"
: > "$DATA/sizes.tsv"
say "whole-process runs ($RUNS per fast command, $GO_RUNS of go tool pprof, limit ${GO_TIMEOUT}s / ${GO_MEM_GB} GiB)"
for f in gen__gotypes-stdlib.allocs-r2048.pb.gz pprof__large.cpu gen__gotypes-stdlib.allocs-r64.pb.gz; do
    if [ -f "$CORPUS/$f" ]; then top_compare "$f" "$CORPUS/$f"; else say "corpus file $CORPUS/$f missing: skipped"; fi
done
for s in $SIZES; do top_compare "gen-$s" "$DATA/gen-$s.pb.gz"; done
if [ -f "$CORPUS/gen__gotypes-stdlib.allocs-r64.pb.gz" ]; then
    diff_compare "r2048 -> r64" "$CORPUS/gen__gotypes-stdlib.allocs-r2048.pb.gz" "$CORPUS/gen__gotypes-stdlib.allocs-r64.pb.gz"
fi
diff_compare "gen-10 -> gen-10-b" "$DATA/gen-10.pb.gz" "$DATA/gen-10-b.pb.gz"
diff_compare "gen-100 -> gen-100-b" "$DATA/gen-100.pb.gz" "$DATA/gen-100-b.pb.gz"

fi   # INPROCESS_ONLY
RESULTS=$DATA/process.tsv

# ---- in-process benchmarks ----------------------------------------------------------------------------------
say "in-process benchmarks (Google Benchmark, 5 repetitions, 15 for the paint group, medians)"
# One process per group: the decode benchmarks leave gigabytes of freed heap behind, which made the paint and
# diff figures that followed them in the same process up to 2.5x slower than alone.
REPS=$([ "$QUICK" = 1 ] && echo 2 || echo 5)
: > "$DATA/inprocess.txt"
group=0
# The paint group goes first and every group starts after a pause: right after a group that freed gigabytes (the
# decode benchmarks of the 500 MB profile) the kernel is still reclaiming that memory, and the 4K repaints, bound
# by memory bandwidth, measured 10.5 ms there against 5.0 ms a minute later in the same build.
for filter in 'BM_(Fill4K|Blit4K|Layout|VisibleRects|Paint4K|Repaint4K|ZoomRepaint4K)' \
              'BM_(Inflate|Decode|BuildTree|FlatTable)' 'BM_Diff' 'BM_Qryn' 'BM_File_'; do
    group=$((group + 1))
    sleep 10
    # The repaints take milliseconds and this machine's memory bandwidth moves with its neighbours' load (a
    # coefficient of variation of 16-18% over 5 repetitions): 15 repetitions give their medians a firmer footing.
    reps=$REPS
    case "$filter" in *Repaint4K*) reps=$((REPS * 3)) ;; esac
    # BM_File_*: where the time of one real file goes, stage by stage (the largest corpus profile).
    QFLAME_BENCH_FILE=$([ "$filter" = BM_File_ ] && echo "$CORPUS/gen__gotypes-stdlib.allocs-r64.pb.gz" || true) \
    QT_QPA_PLATFORM=offscreen "$BENCH" --benchmark_filter="$filter" --benchmark_repetitions="$reps" \
        --benchmark_report_aggregates_only=true --benchmark_out="$DATA/inprocess-$group.json" \
        --benchmark_out_format=json >> "$DATA/inprocess.txt" 2>&1
done
python3 - "$DATA" "$group" <<'PY'
import json, sys
data, groups = sys.argv[1], int(sys.argv[2])
merged = None
for g in range(1, groups + 1):
    with open(f"{data}/inprocess-{g}.json") as f:
        part = json.load(f)
    if merged is None:
        merged = part
    else:
        merged["benchmarks"] += part["benchmarks"]
with open(f"{data}/inprocess.json", "w") as f:
    json.dump(merged, f)
PY
uptime > "$DATA/load-after.txt"
# The commit the in-process tables were measured at: the report may be written again later, after commits that
# only change bench/analysis.md.
echo "$(git -C "$ROOT" rev-parse --short HEAD) $(date -u '+%Y-%m-%d %H:%M UTC')" > "$DATA/inprocess-run.txt"

# ---- the window (issue #23): time to the first painted flamegraph, its memory, reopening, the explorer ----------
if [ "${QFLAME_BENCH_WINDOW:-1}" = 1 ]; then
    say "the window: bench/window.sh"
    QFLAME_BENCH_BUILD=$BUILD QFLAME_BENCH_DATA=$DATA QFLAME_CORPUS=$CORPUS bash "$ROOT/bench/window.sh"
fi

# ---- reading against the floor (issue #31): zcat, igzip, zstd, qflame top and first paint, interleaved ----------
if [ "${QFLAME_BENCH_FLOOR:-1}" = 1 ]; then
    say "reading against the floor: bench/floor.sh"
    QFLAME_BENCH_BUILD=$BUILD QFLAME_BENCH_DATA=$DATA QFLAME_CORPUS=$CORPUS bash "$ROOT/bench/floor.sh"
fi

# ---- report ------------------------------------------------------------------------------------------------
say "writing $OUT_MD and $OUT_PNG"
python3 "$ROOT/bench/report.py" --data "$DATA" --results "$RESULTS" --inprocess "$DATA/inprocess.json" \
    --analysis "$ROOT/bench/analysis.md" --out "$OUT_MD" --plot-data "$DATA/plot.tsv" \
    --go-timeout "$GO_TIMEOUT" --go-mem-gb "$GO_MEM_GB" --runs "$RUNS" --go-runs "$GO_RUNS" --qflame "$QFLAME" --go "$GO"
gnuplot -e "datafile='$DATA/plot.tsv'; outfile='$OUT_PNG'" "$ROOT/bench/plot.gp"
say "done"
