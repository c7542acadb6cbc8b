#!/usr/bin/env bash
# Writes oracle/example__*.topall: what go tool pprof -top prints for the bundled example pair
# (resources/examples, made by resources/examples/gen/make.sh): each side's cpu table and the comparison's
# (-diff_base). tst_firstminute compares the window's numbers and noise classes with them.
set -euo pipefail
cd "$(dirname "$0")"
GO="${GO:-/usr/lib/go-1.19/bin/go}"
ex=../../resources/examples
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
export TZ=UTC HOME="$tmp" PPROF_TMPDIR="$tmp" PPROF_BINARY_PATH="$tmp/none" PPROF_TOOLS="$tmp/none"
top=(tool pprof -symbolize=none -top -nodecount=1000000 -nodefraction=0 -edgefraction=0 -sample_index=cpu -unit=ns)
for side in baseline optimized; do
  "$GO" "${top[@]}" "$ex/$side.cpu.pb.gz" > "oracle/example__$side.cpu.pb.gz.cpu.topall" 2>/dev/null
done
"$GO" "${top[@]}" -diff_base="$ex/baseline.cpu.pb.gz" "$ex/optimized.cpu.pb.gz" \
  > oracle/example__optimized.cpu.pb.gz.diff_base.topall 2>/dev/null
