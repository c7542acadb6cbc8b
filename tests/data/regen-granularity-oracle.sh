#!/usr/bin/env bash
# Writes oracle/FILE.TYPE.lines.topall and oracle/FILE.TYPE.addresses.topall for the profiles here: what
# go tool pprof -top prints at -lines and -addresses granularity (the corpus oracle covers -functions only).
# Needs Debian's golang-1.19-go (the corpus oracle was made with go1.19.8) and zstd.
set -euo pipefail
cd "$(dirname "$0")"
GO="${GO:-/usr/lib/go-1.19/bin/go}"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
export TZ=UTC HOME="$tmp" PPROF_TMPDIR="$tmp" PPROF_BINARY_PATH="$tmp/none" PPROF_TOOLS="$tmp/none"
for f in gen__baseline.cpu.pb.gz gen__heap.pb.gz pprof__sample.cpu parca__normal-cpu.stripped.pprof; do
  types="$("$GO" tool pprof -symbolize=none -raw "$f" 2>/dev/null | awk '/^Samples:/{getline; print; exit}' | sed "s/\[dflt\]//g" || true)"
  i=0
  for t in $types; do
    name="${t%%/*}"; unit="${t#*/}"
    for g in lines addresses; do
      "$GO" tool pprof -symbolize=none -top -$g -nodecount=1000000 -nodefraction=0 -edgefraction=0 \
        -sample_index=$i -unit="$unit" "$f" > "oracle/$f.$name.$g.topall" 2>/dev/null
    done
    i=$((i+1))
  done
done
