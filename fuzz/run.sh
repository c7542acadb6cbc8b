#!/usr/bin/env bash
# Builds the sanitizer build (clang-14, ASan + UBSan, libFuzzer instrumentation) in its own directory, runs the
# corruption test, then each libFuzzer target for SECONDS, and prints executions and crashes per target. Fails
# when the corruption test fails or any target crashes; a crash's input is kept in <build>/artifacts/.
#
#   fuzz/run.sh [SECONDS] [TARGET...]     SECONDS defaults to 60; targets default to all of them
#   QFLAME_FUZZ_BUILD_DIR   build directory (default build-fuzz)
#   QFLAME_FUZZ_NO_CORRUPTION=1   skip the corruption test (long local fuzz runs)
set -euo pipefail
cd "$(dirname "$0")/.."
src="$PWD"
secs="${1:-60}"
shift || true
BUILD="${QFLAME_FUZZ_BUILD_DIR:-build-fuzz}"
targets=("$@")
[ "${#targets[@]}" -gt 0 ] || targets=(fuzz_pprof fuzz_folded fuzz_flamebearer fuzz_qryn_protobuf fuzz_qryn_render)

# -O1 keeps the sanitizers' stack traces readable and runs near -O2 speed for parsers; asserts stay on.
# Line tables only: enough for symbolised reports, and much quicker to compile than full -g.
# -fno-sanitize-recover makes every UBSan finding fatal, so it counts as a crash, not a line in a log.
flags="-O1 -gline-tables-only -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all"
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=None \
  -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 \
  -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
  -DQFLAME_FUZZ=ON -DBUILD_TESTING=OFF -DQFLAME_BUILD_BENCH=OFF >/dev/null
cmake --build "$BUILD" --target qflame_fuzz -j"$(nproc)"

export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
status=0
if [ "${QFLAME_FUZZ_NO_CORRUPTION:-}" != 1 ]; then
  echo "fuzz: corruption and limits tests (ASan + UBSan)"
  if ctest --test-dir "$BUILD/fuzz" --output-on-failure -V -R '^(corruption|limits)$' > "$BUILD/corruption.log" 2>&1; then
    grep -E '^[0-9]+: (corruption:|skip|note|limits:|ok )' "$BUILD/corruption.log" | sed 's/^[0-9]*: //'
  else
    tail -40 "$BUILD/corruption.log"; echo "fuzz: corruption or limits test FAILED"; status=1
  fi
fi

# Seeds: the examples of each format, small enough not to slow every execution (bigger files are truncated to
# max_len by libFuzzer anyway). The corpus each run grows lives in the build dir, so runs build on each other.
seed_dir() {   # target -> prints a fresh directory of seeds
  local d="$BUILD/seeds/$1"
  rm -rf "$d"; mkdir -p "$d"
  local from=()
  case "$1" in
    fuzz_pprof) from=("$src"/tests/data/* "$src"/tests/data/regressions/* "$src"/../shared/corpus/*) ;;
    fuzz_folded) from=("$src"/tests/data/formats/*.folded "$src"/tests/data/regressions/*) ;;
    fuzz_flamebearer) from=("$src"/tests/data/formats/*.json "$src"/tests/data/regressions/*) ;;
    fuzz_qryn_render) from=("$src"/tests/data/formats/*.json) ;;
    fuzz_qryn_protobuf) from=("$src"/tests/data/regressions/*) ;;
  esac
  for f in "${from[@]}"; do
    [ -f "$f" ] && [ "$(stat -c %s "$f")" -le 1048576 ] && cp "$f" "$d/" 2>/dev/null || true
  done
  # The render target's first byte picks render (even) or render-diff (odd): prefix the JSON seeds.
  if [ "$1" = fuzz_qryn_render ]; then
    for f in "$d"/*.json; do [ -f "$f" ] || continue; { printf '\0'; cat "$f"; } > "$f.r0"; { printf '\1'; cat "$f"; } > "$f.r1"; rm "$f"; done
  fi
  echo "$d"
}

printf '%-20s %12s %10s %8s\n' target executions exec/s crashes > "$BUILD/fuzz-summary.txt"
for t in "${targets[@]}"; do
  seeds="$(seed_dir "$t")"
  corpus="$BUILD/corpus/$t"; artifacts="$BUILD/artifacts"
  mkdir -p "$corpus" "$artifacts"
  log="$BUILD/$t.log"
  echo "fuzz: $t for ${secs}s"
  set +e
  "$BUILD/fuzz/$t" -max_total_time="$secs" -timeout=20 -rss_limit_mb=2560 -max_len=131072 -print_final_stats=1 \
    -artifact_prefix="$artifacts/$t-" "$corpus" "$seeds" > "$log" 2>&1
  rc=$?
  set -e
  runs="$(grep -oP 'stat::number_of_executed_units:\s*\K[0-9]+' "$log" || echo 0)"
  rate="$(grep -oP 'stat::average_exec_per_sec:\s*\K[0-9]+' "$log" || echo 0)"
  crashes=0
  if [ "$rc" -ne 0 ]; then
    crashes=1; status=1
    grep -E 'ERROR: |runtime error|SUMMARY|Test unit written' "$log" | head -5
  fi
  printf '%-20s %12s %10s %8s\n' "$t" "$runs" "$rate" "$crashes" | tee -a "$BUILD/fuzz-summary.txt"
done
cat "$BUILD/fuzz-summary.txt"
[ "$status" -eq 0 ] && echo "fuzz: PASS (corruption test and ${#targets[@]} targets x ${secs}s)" || echo "fuzz: FAIL"
exit "$status"
