#!/usr/bin/env bash
# FP64 instructions of one face in the PTX of the FD face kernels, counted
# on any machine with nvcc (no GPU, no CUDA Kokkos: kokkos_stub/ stands in).
#   bash benchmarks/ptx_count/count.sh [js|z] [SM] [near_cells|speeds_first|stencil]  (default: js 90 speeds_first)
# Prints, per kernel, the count of each FP64 PTX opcode and their total.
# Built as the project builds device code: no contraction (--fmad=false),
# the fused multiply-adds being those math::mul_add asks for. In SASS a
# reciprocal (rcp) is a seed and about five FP64 instructions, a root about
# seven, a division about nine; neg and abs are operand modifiers.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
weights=${1:-js}
sm=${2:-90}
order=${3:-speeds_first}  # the hydro face's order, fd/weno_face.hpp (the build's default)
usage() { sed -n '2,4p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
case $weights in js|z) ;; *) echo "count.sh: weights '$weights': expected js or z" >&2; usage ;; esac
case $sm in *[!0-9]*|'') echo "count.sh: SM '$sm': expected a number such as 90" >&2; usage ;; esac
case $order in near_cells|speeds_first|stencil) ;;
  *) echo "count.sh: order '$order': expected near_cells, speeds_first or stencil" >&2; usage ;; esac
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for kernel in fd_face fd_mhd_face; do
  nvcc -std=c++17 -arch=sm_$sm --fmad=false -O3 -DWEIGHTS=$weights -DASTRONOMIX_FD_FACE_ORDER=$order -I "$here/kokkos_stub" -I "$here/../../src" \
    --ptx "$here/$kernel.cu" -o "$out/$kernel.ptx" 2> "$out/$kernel.log" || { cat "$out/$kernel.log"; exit 1; }
  echo "$kernel ($weights weights, sm_$sm):"
  grep -oE '^\s+(add|sub|mul|fma|max|min|neg|abs|rcp|sqrt|div)(\.[a-z0-9]+)*\.f64' "$out/$kernel.ptx" |
    awk '{print $1}' | sort | uniq -c | sort -rn |
    awk '{printf "  %6d %s\n", $1, $2; split($2, op, ".")}
         op[1] ~ /^(add|sub|mul|fma|max|min)$/ {alu += $1}
         op[1] ~ /^(rcp|sqrt|div)$/ {sfu += $1}
         END {printf "  %6d adds, multiplies, FMAs, max and min; %d reciprocals, roots and divisions\n", alu, sfu}'
done
