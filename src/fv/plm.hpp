// Piecewise-linear reconstruction of one face from the primitive states of
// the four cells around it, shared by the native and fused paths.
#pragma once

#include "fv/limiters.hpp"

namespace ax {

// Value at the upper (lower) face of a cell with centre value c and limited
// slope s: the one PLM formula, used by the native and fused paths alike.
KOKKOS_INLINE_FUNCTION Real plm_upper(Real c, Real s) { return c + Real(0.5) * s; }
KOKKOS_INLINE_FUNCTION Real plm_lower(Real c, Real s) { return c - Real(0.5) * s; }

// Left and right states at the face between cells c1 and c2, from cells
// c0 c1 | c2 c3 (one variable). ORDER 1 is donor cell.
template <int ORDER, Limiter L>
KOKKOS_INLINE_FUNCTION void face_states(Real c0, Real c1, Real c2, Real c3, Real& left, Real& right) {
  if constexpr (ORDER == 2) {
    left = plm_upper(c1, limited_slope<L>(c1 - c0, c2 - c1));
    right = plm_lower(c2, limited_slope<L>(c2 - c1, c3 - c2));
  } else {
    left = c1;
    right = c2;
  }
}

}  // namespace ax
