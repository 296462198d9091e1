// Ideal-MHD cell state on top of the ideal-gas EOS: index constants of the
// 8-variable state, total energy, the conserved <-> primitive conversion and
// the fast magnetosonic speed. Units as Athena++/AthenaK (Heaviside-Lorentz
// with mu0 = 1): magnetic pressure B^2/2, magnetic energy density B^2/2.
#pragma once

#include "backend/kokkos_compat.hpp"
#include "backend/types.hpp"
#include "hydro/eos.hpp"

namespace ax {

// The first five slots are the hydro ones (IDN, IM1..IM3 / IVX..IVZ, IEN /
// IPR from backend/types.hpp); the cell-centred field follows in both the
// conserved and the primitive state, where it is the same variable.

// Total energy density of a primitive MHD state: gas + kinetic + magnetic.
KOKKOS_INLINE_FUNCTION Real mhd_total_energy(const IdealGas& eos, const Real w[NMHD]) {
  return w[IPR] * eos.inv_gm1 + Real(0.5) * w[IDN] * (w[IVX] * w[IVX] + w[IVY] * w[IVY] + w[IVZ] * w[IVZ]) +
         Real(0.5) * (w[IB1] * w[IB1] + w[IB2] * w[IB2] + w[IB3] * w[IB3]);
}

// Primitive (rho, v, p_gas, B) from conserved (rho, m, E, B).
KOKKOS_INLINE_FUNCTION void mhd_cons_to_prim(const IdealGas& eos, const Real u[NMHD], Real w[NMHD]) {
  const Real rho = u[IDN];
  const Real inv_rho = Real(1) / rho;
  w[IDN] = rho;
  w[IVX] = u[IM1] * inv_rho;
  w[IVY] = u[IM2] * inv_rho;
  w[IVZ] = u[IM3] * inv_rho;
  w[IB1] = u[IB1];
  w[IB2] = u[IB2];
  w[IB3] = u[IB3];
  const Real ke = Real(0.5) * (u[IM1] * w[IVX] + u[IM2] * w[IVY] + u[IM3] * w[IVZ]);
  const Real me = Real(0.5) * (u[IB1] * u[IB1] + u[IB2] * u[IB2] + u[IB3] * u[IB3]);
  w[IPR] = eos.gm1 * (u[IEN] - ke - me);
}

KOKKOS_INLINE_FUNCTION void mhd_prim_to_cons(const IdealGas& eos, const Real w[NMHD], Real u[NMHD]) {
  const Real rho = w[IDN];
  u[IDN] = rho;
  u[IM1] = rho * w[IVX];
  u[IM2] = rho * w[IVY];
  u[IM3] = rho * w[IVZ];
  u[IEN] = mhd_total_energy(eos, w);
  u[IB1] = w[IB1];
  u[IB2] = w[IB2];
  u[IB3] = w[IB3];
}

// Fast magnetosonic speed along the normal, with a^2 = gamma p / rho and
// b^2 = B^2 / rho:  cf^2 = [(a^2 + b^2) + sqrt((a^2 + b^2)^2 - 4 a^2 bn^2 / rho)] / 2.
// The discriminant is evaluated as (a^2 - b^2)^2 + 4 a^2 bt^2 / rho (the same
// number, as in Athena++/AthenaK), a sum of two non-negative terms: no
// cancellation, never negative, and exact in the limits bt = 0 (cf = max(a,
// ca)) and bn = 0. Everything is scaled by rho so there is one division.
// Only squares of the field enter, so the result is independent of the sign
// of any component (needed for the mirror symmetry of the solvers).
// rho cf^2, the part before the division.
KOKKOS_FORCEINLINE_FUNCTION Real fast_speed_sq_rho(const IdealGas& eos, Real p, Real bn, Real bt1, Real bt2) {
  const Real asq = eos.gamma * p;           // rho a^2
  const Real btsq = bt1 * bt1 + bt2 * bt2;  // rho bt^2
  const Real bsq = math::mul_add(bn, bn, btsq);  // rho b^2
  const Real sum = asq + bsq;
  const Real diff = asq - bsq;
  return Real(0.5) * (sum + math::sqrt(math::mul_add(diff, diff, Real(4) * asq * btsq)));
}
KOKKOS_FORCEINLINE_FUNCTION Real fast_speed(const IdealGas& eos, Real rho, Real p, Real bn, Real bt1, Real bt2) {
  return math::sqrt(fast_speed_sq_rho(eos, p, bn, bt1, bt2) / rho);
}

// The fast speeds of the two sides of a face (rho, p, bn, bt1, bt2 each)
// with one division (kBatchedReciprocals): 1 / rho_l and 1 / rho_r from
// 1 / (rho_l rho_r), each formed the same way with the sides swapped, so a
// mirror swaps the two bitwise. Within a few roundings of fast_speed's
// (densities between about 1e-150 and 1e150, where the product is a normal
// number). The Riemann solvers take these.
template <bool Batched = kBatchedReciprocals>
KOKKOS_FORCEINLINE_FUNCTION void fast_speed_pair(const IdealGas& eos, Real rho_l, Real p_l, Real bt1_l, Real bt2_l,
                                                 Real rho_r, Real p_r, Real bt1_r, Real bt2_r, Real bn, Real& cf_l,
                                                 Real& cf_r) {
  const Real ql = fast_speed_sq_rho(eos, p_l, bn, bt1_l, bt2_l), qr = fast_speed_sq_rho(eos, p_r, bn, bt1_r, bt2_r);
  if constexpr (Batched) {
    const Real rcp = Real(1) / (rho_l * rho_r);
    cf_l = math::sqrt(ql * (rho_r * rcp));
    cf_r = math::sqrt(qr * (rho_l * rcp));
  } else {
    cf_l = math::sqrt(ql / rho_l);
    cf_r = math::sqrt(qr / rho_r);
  }
}

}  // namespace ax
