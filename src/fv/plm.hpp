// Piecewise-linear reconstruction of one face from the primitive states of
// the four cells around it, shared by the native and fused paths.
#pragma once

#include "fv/limiters.hpp"

namespace ax {

// Value at the upper (lower) face of a cell with centre value c and limited
// slope s: the one PLM formula, used by the native and fused paths alike.
KOKKOS_INLINE_FUNCTION Real plm_upper(Real c, Real s) { return c + Real(0.5) * s; }
KOKKOS_INLINE_FUNCTION Real plm_lower(Real c, Real s) { return c - Real(0.5) * s; }

// Both face values of cell c (neighbours cm below, cp above) from its one
// limited slope: for kernels that keep a cell's upper value for the next
// face (the GPU tiles' z-columns).
template <Limiter L>
KOKKOS_INLINE_FUNCTION void plm_cell_faces(Real cm, Real c, Real cp, Real& lower, Real& upper) {
  const Real s = limited_slope<L>(c - cm, cp - c);
  lower = plm_lower(c, s);
  upper = plm_upper(c, s);
}

// Left and right states at the face between cells c1 and c2, from cells
// c0 c1 | c2 c3 (one variable). ORDER 1 is donor cell.
template <int ORDER, Limiter L>
KOKKOS_INLINE_FUNCTION void face_states(Real c0, Real c1, Real c2, Real c3, Real& left, Real& right) {
  if constexpr (ORDER == 2) {
    Real unused;  // the cells' other face values
    plm_cell_faces<L>(c0, c1, c2, unused, left);
    plm_cell_faces<L>(c1, c2, c3, right, unused);
  } else {
    left = c1;
    right = c2;
  }
}

}  // namespace ax
