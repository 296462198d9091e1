// The Runge-Kutta stage combination of one value, shared by the native
// stage kernel and the fused kernels: the same expression in the same order
// is what keeps the paths bitwise equal.
#pragma once

#include "backend/types.hpp"

namespace ax {

KOKKOS_FORCEINLINE_FUNCTION Real stage_combination(Real a, Real u0, Real b, Real in, Real c_dt, Real du) {
  return a * u0 + b * in + c_dt * du;
}

}  // namespace ax
