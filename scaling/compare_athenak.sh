#!/usr/bin/env bash
# Same workload, same GPU: astronomix and AthenaK run the 3D oblique linear
# sound wave (the box 3 x 1.5 x 1.5 of configs/linear_wave3d.yaml, N^3
# cells, PLM with the van Leer limiter + HLLC + RK2, CFL 0.3, double,
# output off) for the same number of steps, alternating; one CSV row per
# run goes to standard output and to $CSV (default
# scaling/compare_athenak.csv).
#
#   scaling/compare_athenak.sh ATHENAK_BIN [cells] [steps] [repeats]
#
# ATHENAK_BIN is an AthenaK executable you built yourself from its public
# source, outside this repository, against a CUDA Kokkos for your GPU (its
# built-in problem generators include linear_wave). ASTRONOMIX (default
# build/astronomix) must be built against a CUDA Kokkos too. AthenaK takes
# the mesh as one MeshBlock (MESHBLOCK=M splits it into M^3 blocks).
# Rates as each code reports them: astronomix's run summary (cells x steps
# / wall time of the step loop), AthenaK's zone-cycles/cpu_second (its
# wall time of the main loop).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
usage() { awk 'NR > 1 && !/^#/ {exit} NR > 1' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }  # the header, whole
[ $# -ge 1 ] || usage
athenak=$1 n=${2:-256} steps=${3:-60} repeats=${4:-2}
mb=${MESHBLOCK:-$n}
# Counts are positive integers (else bash's arithmetic fails with its own words).
for v in "cells=$n" "steps=$steps" "repeats=$repeats" "MESHBLOCK=$mb"; do
  [[ ${v#*=} =~ ^[1-9][0-9]*$ ]] ||
    { echo "compare_athenak.sh: ${v%%=*} must be a positive integer, got '${v#*=}'" >&2; exit 2; }
done
astronomix=${ASTRONOMIX:-$here/build/astronomix}
[ -x "$athenak" ] || { echo "compare_athenak.sh: $athenak is not an executable" >&2; exit 2; }
[ -x "$astronomix" ] || { echo "compare_athenak.sh: $astronomix not built (scripts/build.sh)" >&2; exit 2; }
(( n % mb == 0 )) || { echo "compare_athenak.sh: MESHBLOCK ($mb) must divide cells ($n)" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# AthenaK's input: wave_flag 4 is the right-going sound wave (astronomix's
# `direction: right`), amplitude as configs/linear_wave3d.yaml.
cat > "$work/athinput" <<EOF
<job>
basename = cmp
<mesh>
nghost = 2
nx1 = $n
x1min = 0.0
x1max = 3.0
ix1_bc = periodic
ox1_bc = periodic
nx2 = $n
x2min = 0.0
x2max = 1.5
ix2_bc = periodic
ox2_bc = periodic
nx3 = $n
x3min = 0.0
x3max = 1.5
ix3_bc = periodic
ox3_bc = periodic
<meshblock>
nx1 = $mb
nx2 = $mb
nx3 = $mb
<time>
evolution = dynamic
integrator = rk2
cfl_number = 0.3
nlim = $steps
tlim = 1.0e10
ndiag = 1000000
<hydro>
eos = ideal
reconstruct = plm
rsolver = hllc
gamma = 1.666666666666667
<problem>
pgen_name = linear_wave
wave_flag = 4
amp = 1.0e-6
dens = 1.0
pgas = 0.6
vx0 = 0.0
along_x1 = false
along_x2 = false
along_x3 = false
EOF

csv=${CSV:-$here/scaling/compare_athenak.csv}
{
  echo "code,problem,cells,steps,repeat,cell_updates_per_s"
  for r in $(seq 1 "$repeats"); do
    # astronomix: the run summary's "done: ... = R cell-updates/s".
    out=$("$astronomix" run "$here/configs/linear_wave3d.yaml" --set mesh.cells="[$n,$n,$n]" \
          --set time.integrator=rk2 --set time.cfl=0.3 --set solver.limiter=van_leer --set solver.riemann=hllc \
          --set time.max_steps="$steps" --set time.end=1e10 --set output.enabled=false 2>&1) ||
      { echo "$out" >&2; exit 1; }
    rate=$(echo "$out" | sed -n 's/^done: .* = \([0-9.e+]*\) cell-updates\/s.*/\1/p')
    echo "astronomix,linear_wave3d,${n}^3,$steps,$r,$rate"
    (cd "$work" && "$athenak" -i athinput > athenak.log 2>&1) || { cat "$work/athenak.log" >&2; exit 1; }
    rate=$(sed -n 's/^zone-cycles\/cpu_second = \(.*\)/\1/p' "$work/athenak.log")
    echo "athenak,linear_wave3d,${n}^3,$steps,$r,$rate"
  done
} | tee "$csv"  # the header too: the file is read on its own
