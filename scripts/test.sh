#!/usr/bin/env bash
# Set up, build, and run the whole test suite (what CI runs), then the
# fast tests again under AddressSanitizer and UndefinedBehaviorSanitizer.
# Installs the output checks' tools too (ParaView, Xvfb), and a check that
# cannot find them fails instead of skipping.
#   bash scripts/test.sh                       # everything
#   ASTRONOMIX_SANITIZE_TESTS=0 bash scripts/test.sh   # skip the sanitizer pass
#   CTEST_ARGS="-LE slow" bash scripts/test.sh
#   ASTRONOMIX_FUZZ_SECONDS=0 bash scripts/test.sh      # skip fuzzing the config loader
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export ASTRONOMIX_TEST_TOOLS=1
# ASTRONOMIX_REQUIRE_TOOLS=0: a missing tool skips its check (the build's
# ctest entries carry the choice).
require=ON
[ "${ASTRONOMIX_REQUIRE_TOOLS:-1}" = 1 ] || require=OFF
ASTRONOMIX_CMAKE_ARGS="-DASTRONOMIX_REQUIRE_TOOLS=$require ${ASTRONOMIX_CMAKE_ARGS:-}" bash "$here/scripts/build.sh"
(cd "$here/${BUILD_DIR:-build}" && ctest --output-on-failure -j"$(nproc)" ${CTEST_ARGS:-})

if [ "${ASTRONOMIX_SANITIZE_TESTS:-1}" = 1 ]; then
  echo "[test] sanitizer build (address, undefined)"
  # -O1 with line tables only (-g1): on the 2-core VM the build took 307 s
  # and the tests 528 s, against 674 s and 471 s with RelWithDebInfo's -O2
  # -g (the fused FV kernels' templates took half the build); ASan's
  # reports keep file and line.
  BUILD_DIR=build-sanitize ASTRONOMIX_CMAKE_ARGS="-DASTRONOMIX_REQUIRE_TOOLS=$require -DASTRONOMIX_SANITIZE=address,undefined -DASTRONOMIX_SANITIZE_FLAGS=-O1;-g1 -DASTRONOMIX_BENCHMARKS=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo" \
    bash "$here/scripts/build.sh"
  # Open MPI's own allocations are not ours to report.
  export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
  (cd "$here/build-sanitize" && ctest --output-on-failure -j"$(nproc)" -LE "slow|sanitize_skip")
fi

# The config loader and --set parser under libFuzzer (clang, ASan + UBSan),
# seeded with the shipped configs, for a bounded time: any crash, sanitizer
# report or rejection that is not a config error naming its place fails.
fuzz_seconds=${ASTRONOMIX_FUZZ_SECONDS:-45}
if [ "$fuzz_seconds" -gt 0 ]; then
  echo "[test] fuzzing the config loader for $fuzz_seconds s (libFuzzer, clang, address + undefined)"
  # clang's vectorisation remarks on loops GCC vectorises are not errors of ours.
  CC=clang CXX=clang++ BUILD_DIR=build-fuzz ASTRONOMIX_SKIP_APT=1 ASTRONOMIX_BUILD_TARGET=astronomix_fuzz_config \
  ASTRONOMIX_CMAKE_ARGS="-DASTRONOMIX_FUZZ=ON \
-DASTRONOMIX_SANITIZE=address,undefined -DASTRONOMIX_TESTS=OFF -DASTRONOMIX_BENCHMARKS=OFF \
-DASTRONOMIX_WERROR=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo" bash "$here/scripts/build.sh"
  corpus=$(mktemp -d /tmp/astronomix-fuzz-corpus.XXXXXX)
  fuzz_log=$(mktemp /tmp/astronomix-fuzz.XXXXXX.log)
  status=0
  (cd "$corpus" && ASAN_OPTIONS=detect_leaks=0 "$here/build-fuzz/astronomix_fuzz_config" \
     -max_total_time="$fuzz_seconds" -rss_limit_mb=4096 -print_final_stats=1 "$corpus" "$here/configs") \
     > "$fuzz_log" 2>&1 || status=$?
  grep -E "^(Done|stat::number_of_executed_units|stat::new_units_added)" "$fuzz_log" || true
  if [ "$status" -ne 0 ]; then
    tail -n 60 "$fuzz_log"
    echo "[test] fuzzing found a failure (input saved in $corpus)"
    exit 1
  fi
  echo "[test] fuzzing: no crash"
  rm -rf "$corpus" "$fuzz_log"
fi
