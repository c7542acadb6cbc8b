#!/usr/bin/env bash
# Rewrites the oracles of the filter tests: for every case of cases.tsv, NAME.top is exactly what
#
#   go tool pprof -symbolize=none -top -nodecount=1000000 -nodefraction=0 -edgefraction=0 \
#       -unit=UNIT -sample_index=N [options of the case] FILE...
#
# printed (UNIT: the unit of sample type N, so that values print as exact integers), with Debian's
# golang-1.19-go (go1.19.8, as the corpus oracles). Options starting with "--" are qflame's and not passed.
# First it rewrites the hand-made profiles (made-*.pb) from their description in tests/model/tst_filters.cpp, so run
# it with a built tst_filters: TST_FILTERS=/path/to/build/tests/model/tst_filters tests/data/oracle-filters/regen.sh
# Last, it writes NAME.peek for tst_sandwich: go tool pprof -peek '.' with the same options (see the end).
set -euo pipefail
cd "$(dirname "$0")"
GO="${GO:-/usr/lib/go-1.19/bin/go}"
TST_FILTERS="${TST_FILTERS:-../../../build/tests/model/tst_filters}"
CORPUS="${CORPUS:-../../../../shared/corpus}"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
export TZ=UTC HOME="$tmp" PPROF_TMPDIR="$tmp" PPROF_BINARY_PATH="$tmp/none" PPROF_TOOLS="$tmp/none"

# initTestCase writes them; any one test function makes it run.
QFLAME_WRITE_FILTER_PROFILES="$PWD" "$TST_FILTERS" collapseRecursionFoldsDirectSelfCalls >/dev/null

while IFS=$'\t' read -r -a cols; do
  [[ ${#cols[@]} -eq 0 || ${cols[0]} == \#* ]] && continue
  name="${cols[0]}"
  files=()
  IFS=',' read -r -a listed <<< "${cols[1]}"
  for f in "${listed[@]}"; do
    case "$f" in
      data/*) files+=("../${f#data/}") ;;
      corpus/*) files+=("$CORPUS/${f#corpus/}") ;;
      *) files+=("$f") ;;
    esac
  done
  if [[ ! -e "${files[0]}" ]]; then
    echo "skip $name: ${files[0]} not found" >&2
    continue
  fi
  opts=()
  index=""
  for o in "${cols[@]:2}"; do
    [[ $o == --* ]] && continue
    [[ $o == -sample_index=* ]] && index="${o#-sample_index=}"
    opts+=("$o")
  done
  # The unit of the chosen sample type, from the "Samples:" header of -raw.
  types=($("$GO" tool pprof -symbolize=none -raw "${files[@]}" 2>/dev/null | awk '!found && /^Samples:/ {getline; print; found = 1}' | sed 's/\[dflt\]//g'))
  unit="${types[$index]#*/}"
  "$GO" tool pprof -symbolize=none -top -nodecount=1000000 -nodefraction=0 -edgefraction=0 -unit="$unit" \
    "${opts[@]}" "${files[@]}" > "$name.top" 2> "$tmp/stderr" || { cat "$tmp/stderr" >&2; exit 1; }
done < cases.tsv

# The sandwich oracles of tst_sandwich: every function's callers and callees edges, as -peek '.' prints them.
peek() {
  "$GO" tool pprof -symbolize=none -peek '.' -nodecount=1000000 -nodefraction=0 -edgefraction=0 -unit="$3" \
    -sample_index="$2" "$4" > "$1.peek" 2> "$tmp/stderr" || { cat "$tmp/stderr" >&2; exit 1; }
}
peek baseline-cpu 1 nanoseconds ../gen__baseline.cpu.pb.gz
peek sample-cpu 1 nanoseconds ../pprof__sample.cpu
peek heap-alloc-space 1 bytes ../gen__heap.pb.gz
peek node-samples 0 count ../parca__node-profile.pb.gz
