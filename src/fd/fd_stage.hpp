// Pointwise pieces of an FD stage shared by the native and fused kernels:
// the flux difference of one axis, and the end of the stage at one cell.
#pragma once

#include "time/stage_combination.hpp"
#include "hydro/floors.hpp"

namespace ax {

// dt/dx (F(i-1/2) - F(i+1/2)): one axis' part of K = dt L.
KOKKOS_FORCEINLINE_FUNCTION Real flux_difference(Real dtdx, Real f_lower, Real f_upper) {
  return dtdx * (f_lower - f_upper);
}

// The stage's combination at one cell of N variables whose increment K is
// `kv`: updates R, fills v with the new state. `u0`/`r` are read only when
// the stage needs them (`read_u0`, `read_r`).
template <int N>
KOKKOS_INLINE_FUNCTION void stage_cell_values(const Stage& st, bool read_u0, bool read_r, const Array4& u0,
                                              const Array4& in, const Array4& r, const Real kv[N], int k, int j,
                                              int i, Real v[N]) {
  for (int n = 0; n < N; ++n) {
    const Real x = in(n, k, j, i);
    Real rv = read_r ? r(n, k, j, i) : Real(0);
    if (st.set_r) {
      rv = stage_register(st, rv, x, kv[n]);
      r(n, k, j, i) = rv;
    }
    v[n] = stage_output(st, read_u0 ? u0(n, k, j, i) : Real(0), x, kv[n], rv);
  }
}

// Completes the stage at one hydro cell: R, out, the floors. Returns
// whether a floor was needed.
KOKKOS_INLINE_FUNCTION bool finish_stage_cell(const Stage& st, bool read_u0, bool read_r, const IdealGas& eos,
                                              const Floors& floors, const Array4& u0, const Array4& in,
                                              const Array4& r, const Array4& out, const Real kv[NHYDRO], int k,
                                              int j, int i) {
  Real v[NHYDRO];
  stage_cell_values<NHYDRO>(st, read_u0, read_r, u0, in, r, kv, k, j, i, v);
  const bool hit = apply_floors(eos, floors, v);
  for (int n = 0; n < NHYDRO; ++n) out(n, k, j, i) = v[n];
  return hit;
}

}  // namespace ax
