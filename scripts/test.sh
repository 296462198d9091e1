#!/usr/bin/env bash
# Set up, build, and run the whole test suite (what CI runs).
#   bash scripts/test.sh                 # everything
#   CTEST_ARGS="-LE slow" bash scripts/test.sh
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bash "$here/scripts/build.sh"
cd "$here/${BUILD_DIR:-build}"
ctest --output-on-failure -j"$(nproc)" ${CTEST_ARGS:-}
