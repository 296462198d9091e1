// Pointwise pieces of an FD stage shared by the native and fused kernels:
// the flux difference of one axis, and the end of the stage at one cell.
#pragma once

#include "backend/grid.hpp"
#include "mhd/mhd_floors.hpp"
#include "time/stage_combination.hpp"

namespace ax {

// dt/dx (F(i-1/2) - F(i+1/2)): one axis' part of K = dt L.
KOKKOS_FORCEINLINE_FUNCTION Real flux_difference(Real dtdx, Real f_lower, Real f_upper) {
  return dtdx * (f_lower - f_upper);
}

// The stage's combination for variable n at one cell, whose input state is
// x and increment K kn: updates R, returns the new state. `u0`/`r` are read
// only when the stage needs them (`read_u0`, `read_r`).
KOKKOS_FORCEINLINE_FUNCTION Real stage_cell_value(const Stage& st, bool read_u0, bool read_r, const Array4& u0,
                                                  Real x, const Array4& r, Real kn, int n, int k, int j, int i) {
  Real rv = read_r ? r(n, k, j, i) : Real(0);
  if (st.set_r) {
    rv = stage_register(st, rv, x, kn);
    r(n, k, j, i) = rv;
  }
  return stage_output(st, read_u0 ? u0(n, k, j, i) : Real(0), x, kn, rv);
}

// The same for the N variables of a cell whose input state is in_at(n);
// fills v with the new state.
template <int N, class InAt>
KOKKOS_INLINE_FUNCTION void stage_cell_values(const Stage& st, bool read_u0, bool read_r, const Array4& u0,
                                              const InAt& in_at, const Array4& r, const Real kv[N], int k, int j,
                                              int i, Real v[N]) {
  for (int n = 0; n < N; ++n) v[n] = stage_cell_value(st, read_u0, read_r, u0, in_at(n), r, kv[n], n, k, j, i);
}

// The floors of an N-variable state (5: hydro, 8: MHD, whose pressure
// floor keeps the magnetic energy).
template <int N>
KOKKOS_INLINE_FUNCTION bool apply_state_floors(const IdealGas& eos, const Floors& floors, Real v[N]) {
  if constexpr (N == NMHD) return apply_mhd_floors(eos, floors, v);
  else return apply_floors(eos, floors, v);
}

// Completes the stage at one cell of N variables: R, out, the floors; the
// input state in_at(n) (a kernel may hold it in scratch). Returns whether a
// floor was needed. Native and fused kernels call this.
template <int N, class InAt>
KOKKOS_INLINE_FUNCTION bool finish_stage_cell_at(const Stage& st, bool read_u0, bool read_r, const IdealGas& eos,
                                                 const Floors& floors, const Array4& u0, const InAt& in_at,
                                                 const Array4& r, const Array4& out, const Real kv[N], int k, int j,
                                                 int i) {
  Real v[N];
  stage_cell_values<N>(st, read_u0, read_r, u0, in_at, r, kv, k, j, i, v);
  const bool hit = apply_state_floors<N>(eos, floors, v);
  for (int n = 0; n < N; ++n) out(n, k, j, i) = v[n];
  return hit;
}

// The same with the input state read from `in`.
template <int N>
KOKKOS_INLINE_FUNCTION bool finish_stage_cell(const Stage& st, bool read_u0, bool read_r, const IdealGas& eos,
                                              const Floors& floors, const Array4& u0, const Array4& in,
                                              const Array4& r, const Array4& out, const Real kv[N], int k, int j,
                                              int i) {
  return finish_stage_cell_at<N>(st, read_u0, read_r, eos, floors, u0, [&](int n) { return in(n, k, j, i); }, r,
                                 out, kv, k, j, i);
}

// The end of the stage over the interior as its own kernel, from K.
template <int N>
long long finish_stage(const Grid& g, const Stage& st, const IdealGas& eos, const Floors& floors, const Array4& u0,
                       const Array4& in, const Array4& r, const Array4& out, const Array4& k) {
  const bool read_u0 = stage_reads_u0(st), read_r = stage_reads_r(st);
  return par_count("fd_finish", g.interior(), KOKKOS_LAMBDA(int kk, int j, int i) {
    Real kv[N];
    for (int n = 0; n < N; ++n) kv[n] = k(n, kk, j, i);
    return finish_stage_cell<N>(st, read_u0, read_r, eos, floors, u0, in, r, out, kv, kk, j, i);
  });
}

}  // namespace ax
