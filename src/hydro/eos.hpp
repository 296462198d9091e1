// Ideal-gas equation of state and the conserved <-> primitive conversion.
// Inline device functions, included by every solver so the math exists once.
#pragma once

#include "backend/kokkos_compat.hpp"
#include "backend/types.hpp"

namespace ax {

struct IdealGas {
  Real gamma;
  Real gm1;      // gamma - 1, kept to avoid recomputing it in every cell
  Real inv_gm1;  // 1 / (gamma - 1): a product where a kernel cannot afford a division

  explicit IdealGas(Real g = Real(5) / Real(3)) : gamma(g), gm1(g - Real(1)), inv_gm1(Real(1) / (g - Real(1))) {}

  KOKKOS_INLINE_FUNCTION Real sound_speed(Real rho, Real p) const {
    return math::sqrt(gamma * p / rho);
  }
  // The same from 1 / rho, for callers that have it (one division fewer).
  KOKKOS_INLINE_FUNCTION Real sound_speed_inv_rho(Real inv_rho, Real p) const {
    return math::sqrt(gamma * p * inv_rho);
  }
};

// |v|^2 of three velocity components (in any frame), the fused
// multiply-adds of math::mul_add (backend/kokkos_compat.hpp): on CPUs
// exactly (v1 v1 + v2 v2) + v3 v3. A mirror changes the sign of a
// component, and fma(-a, -a, c) = fma(a, a, c): mirror images stay bitwise.
KOKKOS_FORCEINLINE_FUNCTION Real speed_squared(Real v1, Real v2, Real v3) {
  return math::mul_add(v3, v3, math::mul_add(v2, v2, v1 * v1));
}

// Total energy density of a primitive state (in any frame: only |v| counts).
// p / (gamma - 1) as a product, as Athena++ writes it: the Riemann solvers
// call this twice a face, and a double division costs a GPU about twenty
// instructions.
KOKKOS_INLINE_FUNCTION Real total_energy(const IdealGas& eos, const Real w[NHYDRO]) {
  return math::mul_add(Real(0.5) * w[IDN], speed_squared(w[1], w[2], w[3]), w[IPR] * eos.inv_gm1);
}

// Primitive state (rho, vx, vy, vz, p) from conserved (rho, mx, my, mz, E).
KOKKOS_INLINE_FUNCTION void cons_to_prim(const IdealGas& eos, const Real u[NHYDRO],
                                         Real w[NHYDRO]) {
  const Real rho = u[IDN];
  const Real inv_rho = Real(1) / rho;
  w[IDN] = rho;
  w[IVX] = u[IM1] * inv_rho;
  w[IVY] = u[IM2] * inv_rho;
  w[IVZ] = u[IM3] * inv_rho;
  const Real ke = Real(0.5) * math::mul_add(u[IM3], w[IVZ], math::mul_add(u[IM2], w[IVY], u[IM1] * w[IVX]));
  w[IPR] = eos.gm1 * (u[IEN] - ke);
}

KOKKOS_INLINE_FUNCTION void prim_to_cons(const IdealGas& eos, const Real w[NHYDRO],
                                         Real u[NHYDRO]) {
  const Real rho = w[IDN];
  u[IDN] = rho;
  u[IM1] = rho * w[IVX];
  u[IM2] = rho * w[IVY];
  u[IM3] = rho * w[IVZ];
  u[IEN] = total_energy(eos, w);
}

// Physical flux along the normal of a state in the face frame, where slot 1
// holds the normal velocity and slots 2, 3 the transverse ones.
KOKKOS_INLINE_FUNCTION void normal_flux(const IdealGas& eos, const Real w[NHYDRO],
                                        Real f[NHYDRO], Real u[NHYDRO]) {
  prim_to_cons(eos, w, u);
  const Real vn = w[1];
  f[0] = u[0] * vn;
  f[1] = math::mul_add(u[1], vn, w[IPR]);
  f[2] = u[2] * vn;
  f[3] = u[3] * vn;
  f[4] = (u[4] + w[IPR]) * vn;
}

}  // namespace ax
