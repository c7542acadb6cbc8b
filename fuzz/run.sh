#!/usr/bin/env bash
# Builds the sanitizer build (clang-14, ASan + UBSan, libFuzzer instrumentation) in its own directory, runs the
# corruption test, then each libFuzzer target for SECONDS (or RUNS executions), and prints executions, exec/s,
# coverage and crashes per target. Fails when the corruption test fails or any target finds something (crash,
# sanitizer report, leak, timeout, out-of-memory); the reproducer's path is printed.
#
#   fuzz/run.sh [SECONDS] [TARGET...]     SECONDS defaults to 60; targets default to all of them
#   QFLAME_FUZZ_BUILD_DIR   build directory (default build-fuzz)
#   QFLAME_FUZZ_NO_CORRUPTION=1   skip the corruption test (long local fuzz runs)
#   QFLAME_FUZZ_RUNS=N      run each target for N executions instead of SECONDS (the long run: an execution count,
#                           unlike a time limit, is not distorted when the process is paused with SIGSTOP)
#   QFLAME_FUZZ_NO_BUILD=1  fuzz the targets as they are built in the build directory (a long run that must not
#                           pick up a half-edited working tree)
#   QFLAME_FUZZ_KEEP_CORPUS=1   start from, and grow, the corpus of the previous run (<build>/corpus/TARGET);
#                           by default every run starts from the seeds alone, so CI reuses nothing of a local run
set -euo pipefail
cd "$(dirname "$0")/.."
src="$PWD"
secs="${1:-60}"
shift || true
BUILD="${QFLAME_FUZZ_BUILD_DIR:-build-fuzz}"
targets=("$@")
[ "${#targets[@]}" -gt 0 ] || targets=(fuzz_pprof fuzz_folded fuzz_flamebearer fuzz_perfscript fuzz_speedscope fuzz_cpuprofile
  fuzz_legacypprof
  fuzz_qryn_protobuf)

# -O1 keeps the sanitizers' stack traces readable and runs near -O2 speed for parsers; asserts stay on.
# Line tables only: enough for symbolised reports, and much quicker to compile than full -g.
# -fno-sanitize-recover makes every UBSan finding fatal, so it counts as a crash, not a line in a log.
flags="-O1 -gline-tables-only -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all"
if [ "${QFLAME_FUZZ_NO_BUILD:-}" != 1 ]; then
  cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=None \
    -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 \
    -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
    -DQFLAME_FUZZ=ON -DBUILD_TESTING=OFF -DQFLAME_BUILD_BENCH=OFF >/dev/null
  cmake --build "$BUILD" --target qflame_fuzz -j"$(nproc)"
fi

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

# ---- LeakSanitizer on the GUI tests (issue #23) ----------------------------------------------------------
# The window's tests in the same ASan + UBSan build, offscreen, leaks fatal: what a closed tab, a replaced view
# or a cancelled job leaves behind shows here. No suppressions are needed (Qt's offscreen platform, fontconfig
# and the rest of the system leak nothing these tests reach). About 3.5 minutes of CPU per core pair to compile
# ui/ and the four tests, 10 s to run them. QFLAME_FUZZ_NO_GUI_LEAKS=1 skips it.
if [ "${QFLAME_FUZZ_NO_GUI_LEAKS:-}" != 1 ]; then
  gui_tests=(tst_mainwindow tst_profilepane tst_diffview tst_flamegraphwidget)
  if [ "${QFLAME_FUZZ_NO_BUILD:-}" != 1 ]; then
    cmake -S . -B "$BUILD" -DBUILD_TESTING=ON >/dev/null
    cmake --build "$BUILD" --target "${gui_tests[@]}" -j"$(nproc)"
  fi
  echo "fuzz: GUI tests under LeakSanitizer (offscreen)"
  for t in "${gui_tests[@]}"; do
    log="$(cd "$BUILD" && pwd)/$t.lsan.log"   # absolute: the test runs in its own folder (tests/ui/)
    if (cd "$BUILD/tests/ui" && QT_QPA_PLATFORM=offscreen ASAN_OPTIONS="detect_leaks=1" "./$t" > "$log" 2>&1); then
      echo "fuzz: $t: no leaks, all passed"
    else
      status=1
      echo "fuzz: $t FAILED or leaked; its log: $BUILD/$t.lsan.log"
      grep -E 'ERROR: |SUMMARY|^FAIL|Totals' "$BUILD/$t.lsan.log" | head -5 || true
    fi
  done
fi
# ---- end of LeakSanitizer on the GUI tests --------------------------------------------------------------

# Largest input each target is given. Every execution parses its whole input, so the limit sets the cost of an
# execution: with the 15-130 KB examples as seeds (and libFuzzer then growing inputs up to the largest seed) the
# text targets ran at 55-230 executions/s. A few KB still hold dozens of stacks or a complete small profile.
max_len() {
  case "$1" in
    fuzz_pprof) echo 16384 ;;          # gzip/zstd-compressed or raw protobuf: the small real profiles fit whole
    fuzz_folded) echo 4096 ;;          # one stack per line
    fuzz_perfscript) echo 4096 ;;      # a header and a frame per line: dozens of records
    fuzz_flamebearer) echo 8192 ;;     # JSON
    fuzz_speedscope) echo 8192 ;;      # JSON
    fuzz_cpuprofile) echo 8192 ;;      # JSON
    fuzz_legacypprof) echo 4096 ;;     # pprof's legacy text (a sample per line) and binary CPU profiles
    fuzz_qryn_protobuf) echo 4096 ;;   # protobuf answers, plus the selector byte
  esac
}

# Seeds: the examples of each format and the regression inputs no larger than the target's max_len (a bigger file
# would be cut at max_len, which for gzip or JSON leaves only an error path), plus the small valid seeds cut down
# from the big examples in fuzz/seeds/ (fuzz/seeds/README.md).
seed_dir() {   # target -> prints a fresh directory of seeds
  local d="$BUILD/seeds/$1" limit
  limit="$(max_len "$1")"
  rm -rf "$d"; mkdir -p "$d"
  local from=()
  case "$1" in
    fuzz_pprof) from=("$src"/tests/data/* "$src"/fuzz/seeds/pprof/* "$src"/tests/data/regressions/* "$src"/../shared/corpus/*) ;;
    fuzz_folded) from=("$src"/fuzz/seeds/folded/* "$src"/tests/data/formats/*.folded "$src"/tests/data/regressions/*) ;;
    fuzz_perfscript) from=("$src"/fuzz/seeds/perf/* "$src"/tests/data/regressions/*) ;;
    fuzz_flamebearer) from=("$src"/fuzz/seeds/json/* "$src"/tests/data/formats/*.json "$src"/tests/data/regressions/*) ;;
    fuzz_speedscope) from=("$src"/fuzz/seeds/speedscope/* "$src"/tests/data/regressions/*) ;;
    fuzz_cpuprofile) from=("$src"/fuzz/seeds/cpuprofile/* "$src"/tests/data/formats/*.cpuprofile "$src"/tests/data/regressions/*) ;;
    fuzz_qryn_protobuf) from=("$src"/tests/data/regressions/*) ;;
    fuzz_legacypprof) from=("$src"/tests/data/legacy/* "$src"/fuzz/seeds/legacy/*) ;;
  esac
  for f in "${from[@]}"; do
    case "$f" in *.md|*.tsv|*.sh|*.awk) continue ;; esac
    [ -f "$f" ] && [ "$(stat -c %s "$f")" -le "$limit" ] && cp "$f" "$d/" 2>/dev/null || true
  done
  echo "$d"
}

summary="$BUILD/fuzz-summary.txt"
printf '%-20s %12s %8s %8s %6s %7s %6s %8s\n' target executions seconds exec/s cov ft corpus crashes > "$summary"
artifacts="$(realpath -m "$BUILD/artifacts")"
rm -rf "$artifacts"; mkdir -p "$artifacts"   # only this run's findings
for t in "${targets[@]}"; do
  seeds="$(seed_dir "$t")"
  corpus="$BUILD/corpus/$t"
  [ "${QFLAME_FUZZ_KEEP_CORPUS:-}" = 1 ] || rm -rf "$corpus"
  mkdir -p "$corpus"
  log="$BUILD/$t.log"
  if [ -n "${QFLAME_FUZZ_RUNS:-}" ]; then
    budget=(-runs="$QFLAME_FUZZ_RUNS"); echo "fuzz: $t for $QFLAME_FUZZ_RUNS executions (max_len $(max_len "$t"))"
  else
    budget=(-max_total_time="$secs"); echo "fuzz: $t for ${secs}s (max_len $(max_len "$t"))"
  fi
  start=$SECONDS
  set +e
  dict=()   # a target's dictionary of tokens, when it has one (fuzz/TARGET.dict)
  [ -f "$src/fuzz/$t.dict" ] && dict=(-dict="$src/fuzz/$t.dict")
  "$BUILD/fuzz/$t" "${budget[@]}" "${dict[@]}" -max_len="$(max_len "$t")" -timeout=20 -rss_limit_mb=2560 -print_final_stats=1 \
    -artifact_prefix="$artifacts/$t-" "$corpus" "$seeds" > "$log" 2>&1
  rc=$?
  set -e
  wall=$((SECONDS - start))
  runs="$(grep -oP 'stat::number_of_executed_units:\s*\K[0-9]+' "$log" || echo 0)"
  rate="$(grep -oP 'stat::average_exec_per_sec:\s*\K[0-9]+' "$log" || echo 0)"
  last="$(grep -E '^#[0-9]+' "$log" | tail -1 || true)"
  cov="$(grep -oP ' cov: \K[0-9]+' <<< "$last" || echo -)"
  ft="$(grep -oP ' ft: \K[0-9]+' <<< "$last" || echo -)"
  units="$(grep -oP ' corp: \K[0-9]+' <<< "$last" || echo -)"
  crashes=0
  if [ "$rc" -eq 72 ] && grep -q 'libFuzzer: run interrupted' "$log"; then   # SIGINT: stopped, found nothing
    crashes=stopped; status=1
    echo "fuzz: $t was interrupted after $runs executions"
  elif [ "$rc" -ne 0 ]; then
    crashes=1; status=1
    echo "fuzz: $t FOUND SOMETHING (exit code $rc); its log: $log"
    grep -E 'ERROR: |runtime error|SUMMARY|invariant broken' "$log" | head -5 || true
    for a in $(grep -oP 'Test unit written to \K\S+' "$log" || true); do
      echo "fuzz: reproducer: $a    (run: $(realpath "$BUILD/fuzz/$t") $a)"
    done
  fi
  printf '%-20s %12s %8s %8s %6s %7s %6s %8s\n' "$t" "$runs" "$wall" "$rate" "$cov" "$ft" "$units" "$crashes" | tee -a "$summary"
done
cat "$summary"
if [ "$status" -eq 0 ]; then
  echo "fuzz: PASS (corruption test and ${#targets[@]} targets x ${QFLAME_FUZZ_RUNS:-${secs}s}${QFLAME_FUZZ_RUNS:+ executions})"
else
  echo "fuzz: FAIL"
fi
exit "$status"
