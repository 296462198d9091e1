#!/usr/bin/env bash
# Same workload, same machine: astronomix and Athena++ run the same problem,
# grid, scheme and number of steps, alternating, and one CSV row per run
# goes to standard output and to $CSV (default scaling/compare_athena.csv).
#
#   scaling/compare_athena.sh PROBLEM ATHENA_BIN [cells] [steps] [ranks] [repeats]
#
# PROBLEM is orszag_tang3d (MHD: PLM + HLLD + VL2 + CT, CFL 0.3) or blast3d
# (hydro: PLM + HLLC + VL2, CFL 0.3). ATHENA_BIN is an Athena++ executable
# you built yourself from its public source, outside this repository, for
# the same problem: for orszag_tang3d its Orszag-Tang problem generator with
# magnetic fields and the HLLD solver, for blast3d its blast generator with
# HLLC; both with MPI, and with the compiler flags astronomix has (its CPU
# builds use -march=native) for a like-for-like comparison.
# Both reconstruct primitives with PLM and a van Leer-type limiter (each its
# own form: the same order and stencil, not the same bits), on a periodic
# cube [-0.5, 0.5]^3, gamma 5/3.
# Output is off in both; the rate is cells x steps / time of the main loop
# as each code reports it: astronomix's run summary (wall time), Athena++'s
# zone-cycles/cpu_second (rank 0's CPU time: its wall time with one thread
# a rank).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
usage() { awk 'NR > 1 && !/^#/ {exit} NR > 1' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }  # the header, whole
[ $# -ge 2 ] || usage
problem=$1 athena=$2 n=${3:-64} steps=${4:-20} ranks=${5:-1} repeats=${6:-2}
lo=-0.5 hi=0.5
# Counts are positive integers (else bash's arithmetic fails with its own
# words, or mpirun -n 0 takes every slot).
for v in "cells=$n" "steps=$steps" "ranks=$ranks" "repeats=$repeats"; do
  [[ ${v#*=} =~ ^[1-9][0-9]*$ ]] ||
    { echo "compare_athena.sh: ${v%%=*} must be a positive integer, got '${v#*=}'" >&2; exit 2; }
done
case $problem in
  orszag_tang3d|blast3d) ;;
  *) echo "compare_athena.sh: unknown PROBLEM '$problem' (orszag_tang3d or blast3d)" >&2; exit 2 ;;
esac
astronomix=${ASTRONOMIX:-$here/build/astronomix}
[ -x "$athena" ] || { echo "compare_athena.sh: $athena is not an executable" >&2; exit 2; }
[ -x "$astronomix" ] || { echo "compare_athena.sh: $astronomix not built (scripts/build.sh)" >&2; exit 2; }
(( n % ranks == 0 )) || { echo "compare_athena.sh: cells ($n) must divide by ranks ($ranks)" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Athena++'s input, written here: the mesh split into `ranks` blocks along z.
case $problem in
  orszag_tang3d)
    config=$here/configs/orszag_tang3d.yaml
    problem_block="" ;;
  blast3d)
    config=$here/configs/blast3d.yaml
    problem_block=$'<problem>\nradius = 0.1\npamb = 0.1\nprat = 100\nb0 = 0\nangle = 0' ;;
  *) usage ;;
esac
cat > "$work/athinput" <<EOF
<job>
problem_id = cmp
<time>
cfl_number = 0.3
nlim = $steps
tlim = 1e10
integrator = vl2
xorder = 2
ncycle_out = 1000000
<mesh>
nx1 = $n
x1min = $lo
x1max = $hi
ix1_bc = periodic
ox1_bc = periodic
nx2 = $n
x2min = $lo
x2max = $hi
ix2_bc = periodic
ox2_bc = periodic
nx3 = $n
x3min = $lo
x3max = $hi
ix3_bc = periodic
ox3_bc = periodic
<meshblock>
nx1 = $n
nx2 = $n
nx3 = $((n / ranks))
<hydro>
gamma = 1.666666666666667
$problem_block
EOF

export OMP_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpi=(mpirun --allow-run-as-root --oversubscribe -n "$ranks")
csv=${CSV:-$here/scaling/compare_athena.csv}
{
  echo "code,problem,cells,steps,ranks,repeat,cell_updates_per_s"
  for r in $(seq 1 "$repeats"); do
    # astronomix: the run summary's "done: ... = R cell-updates/s".
    out=$("${mpi[@]}" "$astronomix" run "$config" --set mesh.cells="[$n,$n,$n]" \
          --set mesh.lower="[$lo,$lo,$lo]" --set mesh.upper="[$hi,$hi,$hi]" --set time.max_steps="$steps" \
          --set time.end=1e10 --set output.enabled=false 2>&1) || { echo "$out" >&2; exit 1; }
    rate=$(echo "$out" | sed -n 's/^done: .* = \([0-9.e+]*\) cell-updates\/s.*/\1/p')
    echo "astronomix,$problem,${n}^3,$steps,$ranks,$r,$rate"
    (cd "$work" && "${mpi[@]}" "$athena" -i athinput > athena.log 2>&1) || { cat "$work/athena.log" >&2; exit 1; }
    rate=$(sed -n 's/^zone-cycles\/cpu_second = \(.*\)/\1/p' "$work/athena.log")
    echo "athena++,$problem,${n}^3,$steps,$ranks,$r,$rate"
  done
} | tee "$csv"  # the header too: the file is read on its own
