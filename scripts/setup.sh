#!/usr/bin/env bash
# Set up the build dependencies of astronomix on Debian 12 (bookworm).
#   1. apt packages (compiler, MPI, parallel HDF5, test/bench libs, python tools)
#   2. Kokkos 3.4.01 (OpenMP+Serial, static, PIC), built from Debian's trilinos
#      source package unless Kokkos_ROOT/KOKKOS_ROOT already points at an install
#   3. prints KOKKOS_ROOT=<path> and writes $DEPS/env.sh
# Idempotent: a second run does no apt and no build.
# Env: ASTRONOMIX_DEPS (default /opt/astronomix-deps), ASTRONOMIX_SKIP_APT=1,
#   ASTRONOMIX_FORCE_APT_UPDATE=1 (step 1 updates first, as on a fresh
#   machine; CI uses it with a fresh ASTRONOMIX_DEPS as a regression test),
#   ASTRONOMIX_TEST_TOOLS=1 (also ParaView and Xvfb for the output checks).
set -euo pipefail

log() { echo "[setup] $*"; }
die() { echo "[setup] ERROR: $*" >&2; exit 1; }

DEPS="${ASTRONOMIX_DEPS:-/opt/astronomix-deps}"
KOKKOS_VERSION=3.4.01
PREFIX="$DEPS/kokkos-$KOKKOS_VERSION"
IS_ROOT=0; [ "$(id -u)" -eq 0 ] && IS_ROOT=1
export DEBIAN_FRONTEND=noninteractive

APT_PKGS=(cmake g++ make libopenmpi-dev openmpi-bin libhdf5-openmpi-dev
  libyaml-cpp-dev libgtest-dev libbenchmark-dev libcli11-dev nlohmann-json3-dev
  python3-h5py python3-yt python3-numpy python3-matplotlib python3-yaml dpkg-dev xz-utils
  ca-certificates)
# What the output test's ParaView and yt checks need, installed by the test
# command (scripts/test.sh) so they run rather than skip on a fresh machine.
TEST_TOOL_PKGS=(paraview python3-paraview xvfb clang)
[ "${ASTRONOMIX_TEST_TOOLS:-0}" = 1 ] && APT_PKGS+=("${TEST_TOOL_PKGS[@]}")

APT_UPDATED=0
apt_update() {  # once per run: the package lists of the system's sources
  [ "$APT_UPDATED" -eq 1 ] && return
  log "apt-get update"
  apt-get update -qq
  APT_UPDATED=1
}

# The trilinos source comes through an apt configuration of our own (its own
# sources list with one bookworm deb-src line, its own index under $DEPS/apt)
# that is always updated right before `apt-get source`. The system's sources
# stay as they are, and no earlier update or missing deb-src entry can leave
# the source index stale (a fresh machine used to fail here: its one update
# ran before a deb-src line was added).
fetch_trilinos_source() {
  local apt_dir="$DEPS/apt"
  mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" "$apt_dir/sources.list.d"
  echo 'deb-src http://deb.debian.org/debian bookworm main' > "$apt_dir/sources.list"
  local opts=(-o Dir::Etc::SourceList="$apt_dir/sources.list" -o Dir::Etc::SourceParts="$apt_dir/sources.list.d"
    -o Dir::State::Lists="$apt_dir/lists" -o Dir::Cache="$apt_dir/cache"
    -o APT::Sandbox::User=root)
  log "apt-get update (bookworm source index, in $apt_dir)"
  apt-get "${opts[@]}" update -qq
  log "downloading trilinos source package (~166 MB)"
  apt-get "${opts[@]}" source --download-only trilinos
}

# logged LOGFILE CMD...: run CMD quietly, show the log tail if it fails
logged() {
  local logf=$1; shift
  "$@" >"$logf" 2>&1 || { tail -n 40 "$logf" >&2; die "failed: $* (full log: $logf)"; }
}

# has_kokkos DIR: true if DIR is a Kokkos install (lib/ or lib64/ layout)
has_kokkos() { compgen -G "$1/lib*/cmake/Kokkos/KokkosConfig.cmake" >/dev/null; }

# ---------------------------------------------------------------- 1. apt
if [ "${ASTRONOMIX_SKIP_APT:-0}" = 1 ]; then
  log "ASTRONOMIX_SKIP_APT=1: skipping apt packages"
else
  [ "${ASTRONOMIX_FORCE_APT_UPDATE:-0}" = 1 ] && [ "$IS_ROOT" -eq 1 ] && apt_update
  missing=()
  for p in "${APT_PKGS[@]}"; do
    [ "$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)" = installed ] \
      || missing+=("$p")
  done
  if [ ${#missing[@]} -eq 0 ]; then
    log "all apt packages present"
  elif [ "$IS_ROOT" -eq 0 ]; then
    die "missing packages (re-run as root, or install them): ${missing[*]}"
  else
    log "installing: ${missing[*]}"
    apt_update
    apt-get install -y --no-install-recommends "${missing[@]}"
  fi
fi

# The fuzz test's runtime (libFuzzer) ships apart from clang, in the
# compiler-rt package of clang's own version (libclang-rt-14-dev on
# Debian 12, -18- on Ubuntu 24.04).
if [ "${ASTRONOMIX_TEST_TOOLS:-0}" = 1 ] && [ "${ASTRONOMIX_SKIP_APT:-0}" != 1 ] && command -v clang >/dev/null; then
  fuzzer_lib=$(clang -print-file-name=libclang_rt.fuzzer-x86_64.a)
  if [ ! -f "$fuzzer_lib" ]; then
    [ "$IS_ROOT" -eq 1 ] || die "libFuzzer is missing (install clang's compiler-rt package as root)"
    clang_major=$(clang -dumpversion | cut -d. -f1)
    log "installing libclang-rt-$clang_major-dev (libFuzzer)"
    apt_update
    apt-get install -y --no-install-recommends "libclang-rt-$clang_major-dev"
  fi
fi

# ---------------------------------------------------------------- 2. Kokkos
USER_KOKKOS="${Kokkos_ROOT:-${KOKKOS_ROOT:-}}"
if [ -n "$USER_KOKKOS" ] && has_kokkos "$USER_KOKKOS"; then
  log "using Kokkos from environment: $USER_KOKKOS"
  PREFIX="$USER_KOKKOS"
elif has_kokkos "$PREFIX"; then
  [ -n "$USER_KOKKOS" ] && log "WARNING: Kokkos_ROOT=$USER_KOKKOS has no KokkosConfig.cmake, ignoring"
  log "Kokkos $KOKKOS_VERSION already installed in $PREFIX"
else
  [ -n "$USER_KOKKOS" ] && log "WARNING: Kokkos_ROOT=$USER_KOKKOS has no KokkosConfig.cmake, ignoring"
  [ "$IS_ROOT" -eq 1 ] || die "Kokkos not found; run as root (needs apt) or set Kokkos_ROOT"
  t0=$SECONDS
  # Debian ships Kokkos 3.4.01 only inside trilinos 13.2 (bookworm); its
  # binary package is a Trilinos-flavoured build, so build standalone from source.
  WORK="$DEPS/src"
  mkdir -p "$WORK"
  cd "$WORK"
  if ! compgen -G "trilinos_*.orig.tar.*" >/dev/null; then
    fetch_trilinos_source
  fi
  ORIG=$(ls trilinos_*.orig.tar.* | head -n1)

  # Only packages/kokkos is needed: extracting just it is far faster than all of trilinos.
  log "extracting packages/kokkos from $ORIG"
  rm -rf kokkos kokkos-build tmp-extract
  mkdir tmp-extract
  tar -xf "$ORIG" -C tmp-extract --wildcards '*/packages/kokkos/*'
  mv tmp-extract/*/packages/kokkos kokkos
  rm -rf tmp-extract
  grep -q 'set(Kokkos_VERSION_PATCH 01)' kokkos/CMakeLists.txt \
    || die "trilinos source does not contain Kokkos $KOKKOS_VERSION"

  # Debian's only Kokkos patch (fix_kokkos_test_declarations.patch) removes
  # TriBITS test declarations; it matters only for in-Trilinos builds with tests,
  # so the standalone build (tests OFF) needs no Debian patches.

  # Kokkos 3.4.01 builds cleanly with gcc 12.2 / cmake 3.25 (checked): no source fix-ups needed.
  log "configuring Kokkos $KOKKOS_VERSION -> $PREFIX"
  # No Kokkos_ARCH_* / native flags: the install must run on any x86-64 CI machine.
  logged "$WORK/kokkos-configure.log" cmake -S kokkos -B kokkos-build \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CXX_COMPILER=g++ \
    -DKokkos_ENABLE_OPENMP=ON -DKokkos_ENABLE_SERIAL=ON \
    -DCMAKE_CXX_STANDARD=17 -DKokkos_CXX_STANDARD=17 \
    -DBUILD_SHARED_LIBS=OFF -DCMAKE_POSITION_INDEPENDENT_CODE=ON \
    -DKokkos_ENABLE_TESTS=OFF \
    -DCMAKE_INSTALL_PREFIX="$PREFIX"
  log "building Kokkos with -j$(nproc)"
  logged "$WORK/kokkos-build.log" cmake --build kokkos-build -j"$(nproc)"
  logged "$WORK/kokkos-install.log" cmake --install kokkos-build
  has_kokkos "$PREFIX" || die "Kokkos install failed (no KokkosConfig.cmake in $PREFIX)"
  rm -rf kokkos-build  # keep the downloaded sources for re-builds
  log "Kokkos built and installed in $((SECONDS - t0)) s"
fi

# ---------------------------------------------------------------- 3. report
mkdir -p "$DEPS" 2>/dev/null || true
if [ -w "$DEPS" ]; then
  echo "export Kokkos_ROOT=$PREFIX" > "$DEPS/env.sh"
  log "wrote $DEPS/env.sh"
fi
echo "KOKKOS_ROOT=$PREFIX"
