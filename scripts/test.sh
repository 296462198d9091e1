#!/usr/bin/env bash
# Set up, build, and run the whole test suite (what CI runs), then the
# fast tests again under AddressSanitizer and UndefinedBehaviorSanitizer.
# Installs the output checks' tools too (ParaView, Xvfb), and a check that
# cannot find them fails instead of skipping.
#   bash scripts/test.sh                       # everything
#   ASTRONOMIX_SANITIZE_TESTS=0 bash scripts/test.sh   # skip the sanitizer pass
#   CTEST_ARGS="-LE slow" bash scripts/test.sh
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export ASTRONOMIX_TEST_TOOLS=1 ASTRONOMIX_REQUIRE_TOOLS=${ASTRONOMIX_REQUIRE_TOOLS:-1}
bash "$here/scripts/build.sh"
(cd "$here/${BUILD_DIR:-build}" && ctest --output-on-failure -j"$(nproc)" ${CTEST_ARGS:-})

if [ "${ASTRONOMIX_SANITIZE_TESTS:-1}" = 1 ]; then
  echo "[test] sanitizer build (address, undefined)"
  BUILD_DIR=build-sanitize ASTRONOMIX_CMAKE_ARGS="-DASTRONOMIX_SANITIZE=address,undefined -DASTRONOMIX_BENCHMARKS=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo" \
    bash "$here/scripts/build.sh"
  # Open MPI's own allocations are not ours to report.
  export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
  (cd "$here/build-sanitize" && ctest --output-on-failure -j"$(nproc)" -LE slow)
fi
