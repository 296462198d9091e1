#!/usr/bin/env bash
# Install what is missing (scripts/setup.sh), then configure and build
# astronomix with the tests and benchmarks into ./build (or $BUILD_DIR).
#   bash scripts/build.sh            # Release, warnings as errors
# Env: Kokkos_ROOT (use your own Kokkos), BUILD_DIR, ASTRONOMIX_CMAKE_ARGS,
# ASTRONOMIX_BUILD_TARGET (one target instead of all).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$here"

# setup.sh reports the Kokkos it found or built on its last line.
setup_log=$(mktemp)
bash scripts/setup.sh | tee "$setup_log"
kokkos_line=$(grep '^KOKKOS_ROOT=' "$setup_log")
rm -f "$setup_log"
export Kokkos_ROOT="${kokkos_line#KOKKOS_ROOT=}"

build="${BUILD_DIR:-build}"
echo "[build] configuring $build against Kokkos in $Kokkos_ROOT"
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DKokkos_ROOT="$Kokkos_ROOT" \
  -DASTRONOMIX_WERROR=ON ${ASTRONOMIX_CMAKE_ARGS:-} > "$build.configure.log" 2>&1 ||
  { cat "$build.configure.log"; exit 1; }
echo "[build] compiling with $(nproc) jobs"
if [ -n "${ASTRONOMIX_BUILD_TARGET:-}" ]; then
  cmake --build "$build" -j"$(nproc)" --target "$ASTRONOMIX_BUILD_TARGET"
  echo "[build] done: $build/$ASTRONOMIX_BUILD_TARGET"
else
  cmake --build "$build" -j"$(nproc)"
  echo "[build] done: $build/astronomix"
fi
