#!/usr/bin/env bash
# The one-hour benchmark of issue #35: a perf script of one hour at 1,000 Hz on 8 threads (28.8 million records,
# bench/perfgen_main.cpp), written with and without its time field, then measured once each (the files are ~10 GB,
# each run minutes; run it when the machine is quiet):
#   - `qflame top` of each (wall time and peak RSS from qflame-bench-measure): times kept against not;
#   - qflame-bench-timeline in one process: the read, the heatmap after it, one thread's, a minute's profile.
# Prints a Markdown table for docs/benchmarks.md. The generated files go under $TMPDIR (default /tmp) and are
# deleted at the end.
#
#   bench/timeline.sh [BUILD_DIR]      (default: build; needs qflame, qflame-bench-perfgen, -timeline, -measure)
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build}"
qflame="$build/app/qflame"
gen="$build/bench/qflame-bench-perfgen"
measure="$build/bench/qflame-bench-measure"
inproc="$build/bench/qflame-bench-timeline"
for b in "$qflame" "$gen" "$measure" "$inproc"; do
  [ -x "$b" ] || { echo "timeline.sh: no $b: build it first" >&2; exit 2; }
done
dir="$(mktemp -d "${TMPDIR:-/tmp}/qflame-hour.XXXXXX")"
trap 'rm -rf "$dir"' EXIT
secs="${QFLAME_HOUR_SECONDS:-3600}"

echo "load before: $(uptime)" >&2
echo "generating $secs s at 1000 Hz on 8 threads..." >&2
gen_timed=$( { /usr/bin/time -f '%e' "$gen" --seconds "$secs" "$dir/timed.perf" >/dev/null; } 2>&1 )
"$gen" --seconds "$secs" --no-time "$dir/untimed.perf" >/dev/null
sizes="$(stat -c %s "$dir/timed.perf") $(stat -c %s "$dir/untimed.perf")"
maxsize=$(( ($(stat -c %s "$dir/timed.perf") >> 20) + 64 ))

cat "$dir/timed.perf" > /dev/null   # into the page cache, as far as it fits
top_timed=$( { "$measure" 1800 "$qflame" top --max-size "$maxsize" "$dir/timed.perf"; } 2>&1 >/dev/null | tee -a /dev/stderr | tail -1 )
cat "$dir/untimed.perf" > /dev/null
top_untimed=$( { "$measure" 1800 "$qflame" top --max-size "$maxsize" "$dir/untimed.perf"; } 2>&1 >/dev/null | tee -a /dev/stderr | tail -1 )
inproc_out="$("$inproc" "$dir/timed.perf")"
echo "load after: $(uptime)" >&2

echo "generator: ${gen_timed} s; sizes (timed, untimed): $sizes bytes"
echo "top timed (wall user sys maxrss_kb): $top_timed"
echo "top untimed: $top_untimed"
echo "in process:"
echo "$inproc_out"
