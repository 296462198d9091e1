#!/usr/bin/env bash
# Set up, build, and run the 3D Sedov blast (configs/sedov3d.yaml); the
# snapshots land in output/sedov3d/. Extra arguments go to astronomix run.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bash "$here/scripts/build.sh"
cd "$here"
export OMP_PROC_BIND=${OMP_PROC_BIND:-false}
"${BUILD_DIR:-build}/astronomix" run configs/sedov3d.yaml "$@"
