// The Runge-Kutta stage combination of one value, shared by the native
// stage kernels and the fused kernels: the same expression in the same
// order is what keeps the paths bitwise equal.
#pragma once

#include "backend/kokkos_compat.hpp"
#include "backend/types.hpp"
#include "time/stages.hpp"

namespace ax {

// Two-register form of the FV solver: a U0 + b in + (c dt) L, through
// math::mul_add (exactly (a U0 + b in) + c dt L on CPUs).
KOKKOS_FORCEINLINE_FUNCTION Real stage_combination(Real a, Real u0, Real b, Real in, Real c_dt, Real du) {
  return math::mul_add(c_dt, du, math::mul_add(b, in, a * u0));
}

// General form (time/stages.hpp), with K = dt L accumulated axis by axis:
// the first axis starts K from A K_previous, the others add to it.
KOKKOS_FORCEINLINE_FUNCTION Real start_increment(Real A, Real k_previous, Real d) {
  return A != Real(0) ? A * k_previous + d : d;
}
KOKKOS_FORCEINLINE_FUNCTION Real stage_register(const Stage& st, Real r_previous, Real in, Real k) {
  const Real v = st.rb * in + st.rc * k;
  return st.ra != Real(0) ? st.ra * r_previous + v : v;
}
// Difference form (time/stages.hpp): the small terms first, then `in`.
KOKKOS_FORCEINLINE_FUNCTION Real stage_output(const Stage& st, Real u0, Real in, Real k, Real r) {
  Real d = st.c * k;
  if (st.a != Real(0)) d += st.a * (u0 - in);
  if (st.e != Real(0)) d += st.e * (r - st.rw * in);
  return in + d;
}
// Whether a stage reads U0, or R, at all (so kernels skip the loads).
inline bool stage_reads_u0(const Stage& st) { return st.a != Real(0); }
inline bool stage_reads_r(const Stage& st) { return st.e != Real(0) || (st.set_r && st.ra != Real(0)); }
// Whether start_increment uses K_previous: not where A is 0 (every stage of
// ssprk5_4 and rk3, the first of lsrk4), so kernels skip that load too.
inline bool stage_reads_k(const Stage& st) { return st.A != Real(0); }

}  // namespace ax
