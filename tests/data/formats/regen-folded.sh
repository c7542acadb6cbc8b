#!/usr/bin/env bash
# Regenerates the folded-stack fixtures from the real profiles in tests/data with go tool pprof (Debian
# golang-1.19-go) and pprof-traces-to-folded.awk. See README.md beside this file.
set -euo pipefail
cd "$(dirname "$0")"
export PATH="/usr/lib/go-1.19/bin:$PATH"
fold() {   # fold PROFILE SAMPLE_INDEX UNIT OUT
  go tool pprof -traces -sample_index="$2" -unit="$3" "../$1" 2>/dev/null |
    awk -f pprof-traces-to-folded.awk | LC_ALL=C sort > "$4"
}
fold gen__baseline.cpu.pb.gz cpu ns gen__baseline.cpu.folded
fold gen__heap.pb.gz alloc_space B gen__heap.alloc_space.folded
