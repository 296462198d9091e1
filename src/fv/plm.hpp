// Piecewise-linear reconstruction of one face from the primitive states of
// the four cells around it, shared by the native and fused paths.
#pragma once

#include "fv/limiters.hpp"

namespace ax {

// Value at the upper (lower) face of a cell with centre value c and limited
// slope s: the one PLM formula, used by the native and fused paths alike.
// One fused multiply-add on GPUs (math::mul_add); a mirror image's lower
// value is fma(-0.5, -s, c) or fma(-0.5, s, -c), bitwise the upper one or
// its negative.
KOKKOS_INLINE_FUNCTION Real plm_upper(Real c, Real s) { return math::mul_add(Real(0.5), s, c); }
KOKKOS_INLINE_FUNCTION Real plm_lower(Real c, Real s) { return math::mul_add(Real(-0.5), s, c); }

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

// The same for the N variables of one cell (cm, c, cp: below, the cell,
// above), the slopes through limited_slopes.
template <Limiter L, int N>
KOKKOS_INLINE_FUNCTION void plm_cell_faces(const Real cm[N], const Real c[N], const Real cp[N], Real lower[N],
                                           Real upper[N]) {
  Real dl[N], dr[N], s[N];
  for (int v = 0; v < N; ++v) {
    dl[v] = c[v] - cm[v];
    dr[v] = cp[v] - c[v];
  }
  limited_slopes<L, N>(dl, dr, s);
  for (int v = 0; v < N; ++v) {
    lower[v] = plm_lower(c[v], s[v]);
    upper[v] = plm_upper(c[v], s[v]);
  }
}

// Left and right states of N variables at the face between cells c1 and c2
// (c0 c1 | c2 c3), each cell's slopes through limited_slopes.
template <int ORDER, Limiter L, int N>
KOKKOS_INLINE_FUNCTION void face_states(const Real c0[N], const Real c1[N], const Real c2[N], const Real c3[N],
                                        Real left[N], Real right[N]) {
  if constexpr (ORDER == 2) {
    Real unused[N];
    plm_cell_faces<L, N>(c0, c1, c2, unused, left);
    plm_cell_faces<L, N>(c1, c2, c3, right, unused);
  } else {
    for (int v = 0; v < N; ++v) {
      left[v] = c1[v];
      right[v] = c2[v];
    }
  }
}

}  // namespace ax
