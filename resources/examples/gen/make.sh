#!/usr/bin/env bash
# Makes the bundled example pair (resources/examples/baseline.cpu.pb.gz, optimized.cpu.pb.gz) from main.go, then
# the go tool pprof oracles the tests compare them with (tests/data/regen-example-oracle.sh).
# Needs Go 1.19 or later (Debian: golang-1.19-go, /usr/lib/go-1.19/bin/go). Profiles are timing-dependent: every
# run gives other sample counts, so the tests' oracles must be made again with them.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
GO="${GO:-$(command -v go || echo /usr/lib/go-1.19/bin/go)}"
# Built and run from a neutral folder, with -trimpath: the profiles record the executable's path (mappings) and,
# without -trimpath, the source paths.
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
(cd "$here" && GOFLAGS= GOCACHE="$tmp/cache" "$GO" build -trimpath -o "$tmp/examplegen" .)
(cd "$tmp" && ./examplegen -version=baseline -cpu=baseline.cpu.pb.gz && ./examplegen -version=optimized -cpu=optimized.cpu.pb.gz)
cp "$tmp/baseline.cpu.pb.gz" "$tmp/optimized.cpu.pb.gz" "$here/.."
bash "$here/../../../tests/data/regen-example-oracle.sh"
ls -l "$here"/../*.pb.gz
