#!/usr/bin/env bash
# Bitwise rank invariance with nothing but astronomix and mpirun (for a GPU
# machine without h5py, where tests/test_mpi_invariance.py cannot run): the
# config runs for STEPS steps on 1 rank and on each rank count given, and
# the final checkpoints' data checksums (`astronomix check --restart`,
# io/checksum.hpp: the same for the same data whatever the rank count)
# must be equal. Exit 0 when all are, 1 when one differs or a run fails.
#
#   scaling/rank_invariance.sh CONFIG [steps] [ranks ...] [-- --set KEY=VALUE ...]
#
# e.g. scaling/rank_invariance.sh configs/orszag_tang.yaml 20 2 4 -- --set 'mesh.cells=[128,128,1]'
# ASTRONOMIX (default build/astronomix) and MPIEXEC (default mpirun) name
# the programs; MPIFLAGS adds launcher options (--oversubscribe to run more
# ranks than cores or several ranks on one GPU).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
usage() { sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
[ $# -ge 1 ] || usage
case $1 in -h|--help) usage ;; esac
config=$1
shift
steps=20
if [ $# -ge 1 ] && [ "$1" != "--" ]; then steps=$1; shift; fi
ranks=()
while [ $# -ge 1 ] && [ "$1" != "--" ]; do ranks+=("$1"); shift; done
[ $# -ge 1 ] && shift  # the --
[ ${#ranks[@]} -gt 0 ] || ranks=(2)
# Counts are positive integers (mpirun -n 0 takes every slot).
for v in "$steps" "${ranks[@]}"; do
  [[ $v =~ ^[1-9][0-9]*$ ]] || { echo "rank_invariance.sh: steps and ranks must be positive integers, got '$v'" >&2; exit 2; }
done
astronomix=${ASTRONOMIX:-$here/build/astronomix}
mpiexec=${MPIEXEC:-mpirun}
[ -x "$astronomix" ] || { echo "rank_invariance.sh: $astronomix not built" >&2; exit 2; }
[ -f "$config" ] || { echo "rank_invariance.sh: $config: no such config file" >&2; exit 2; }

# Open MPI refuses root without these (containers, CI).
export OMPI_ALLOW_RUN_AS_ROOT=${OMPI_ALLOW_RUN_AS_ROOT:-1} OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=${OMPI_ALLOW_RUN_AS_ROOT_CONFIRM:-1}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
checksum() {  # ranks -> the final checkpoint's checksum, or "failed"
  local n=$1 d=$work/n$1
  shift
  # shellcheck disable=SC2086
  if ! $mpiexec ${MPIFLAGS:-} -n "$n" "$astronomix" run -q "$config" "$@" --set time.max_steps="$steps" \
       --set output.directory="$d" --set output.basename=r --set output.dt=0 --set output.every_steps=0 \
       > "$d.log" 2>&1; then
    echo failed
    return
  fi
  "$astronomix" check --restart "$d/r.final.rst" --set time.max_steps=$((steps + 1)) 2>&1 |
    sed -n 's/.*its data match its checksum, \([0-9a-f]*\)).*/\1/p'
}
why_failed() {  # the run's own error lines (Open MPI's epilogue would hide them), else its last lines
  local log=$work/n$1.log
  grep -E "^astronomix: error" "$log" >&2 || tail -n 5 "$log" >&2 || true
}
shift_args=("$@")
ref=$(checksum 1 "${shift_args[@]}")
status=0
if [ "$ref" = failed ] || [ -z "$ref" ]; then
  echo "1 rank: the run failed"
  why_failed 1
  exit 1
fi
echo "1 rank: $ref"
for n in "${ranks[@]}"; do
  sum=$(checksum "$n" "${shift_args[@]}")
  if [ "$sum" = "$ref" ]; then
    echo "$n ranks: $sum (same)"
  elif [ "$sum" = failed ]; then
    echo "$n ranks: the run failed"
    why_failed "$n"
    status=1
  else
    echo "$n ranks: $sum (differs from 1 rank)"
    status=1
  fi
done
exit $status
