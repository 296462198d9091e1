// Eigen-structure of the 1D Euler equations of an ideal gas, in the frame
// of a face: vectors are (rho, m_n, m_t1, m_t2, E) with n the face normal.
// Projections onto and back from the characteristic fields are written out
// with the sparsity of the eigenvectors (a few dozen flops instead of two
// dense 5x5 products); the native and fused WENO paths both call these.
//
// Right eigenvectors (columns), eigenvalues u_n - c, u_n (x3), u_n + c:
//   r0 = (1, u_n - c, u_t1, u_t2, h - u_n c)    r1 = (1, u_n, u_t1, u_t2, q^2/2)
//   r2 = (0, 0, 1, 0, u_t1)   r3 = (0, 0, 0, 1, u_t2)
//   r4 = (1, u_n + c, u_t1, u_t2, h + u_n c)
// with h the specific enthalpy; the left eigenvectors are their inverse,
// using b1 = (gamma - 1) / c^2 and b2 = b1 q^2 / 2. The projection needs
// b1, b2 and 1/c only halved (its two acoustic rows end in a factor 1/2):
// the system keeps the halves, which are exact, and the projection saves
// two multiplies (twenty of a face's ten projections).
#pragma once

#include <limits>

#include "hydro/eos.hpp"

namespace ax {

struct EigenSystem {
  Real un, ut1, ut2;  // velocity in the face frame
  Real c, inv_2c;     // sound speed, 1 / (2c)
  Real h;             // specific total enthalpy
  Real q2h;           // |v|^2 / 2
  Real hb1, hb2;      // b1 / 2, b2 / 2
};

KOKKOS_INLINE_FUNCTION EigenSystem eigensystem_of(const IdealGas& eos, Real un, Real ut1, Real ut2,
                                                  Real c2, Real h) {
  EigenSystem e;
  e.un = un;
  e.ut1 = ut1;
  e.ut2 = ut2;
  e.q2h = Real(0.5) * (un * un + ut1 * ut1 + ut2 * ut2);
  e.h = h;
  e.c = math::sqrt(c2);
  const Real inv_c = Real(1) / e.c;
  e.inv_2c = Real(0.5) * inv_c;
  e.hb1 = eos.gm1 * (inv_c * e.inv_2c);
  e.hb2 = e.hb1 * e.q2h;
  return e;
}

// Arithmetic average of the primitive states (face frame) on both sides.
KOKKOS_INLINE_FUNCTION EigenSystem eigensystem_arithmetic(const IdealGas& eos, const Real wl[NHYDRO],
                                                          const Real wr[NHYDRO]) {
  const Real rho = Real(0.5) * (wl[0] + wr[0]);
  const Real un = Real(0.5) * (wl[1] + wr[1]);
  const Real ut1 = Real(0.5) * (wl[2] + wr[2]);
  const Real ut2 = Real(0.5) * (wl[3] + wr[3]);
  const Real p = Real(0.5) * (wl[4] + wr[4]);
  const Real c2 = eos.gamma * p / rho;
  const Real h = c2 * eos.inv_gm1 + Real(0.5) * (un * un + ut1 * ut1 + ut2 * ut2);
  return eigensystem_of(eos, un, ut1, ut2, c2, h);
}

// The smallest normal Real, a constant device code may read (numeric_limits'
// functions are host functions to nvcc without --expt-relaxed-constexpr).
constexpr Real kSmallestNormal = std::numeric_limits<Real>::min();

// Roe average (density-weighted velocity and enthalpy).
KOKKOS_INLINE_FUNCTION EigenSystem eigensystem_roe(const IdealGas& eos, const Real wl[NHYDRO],
                                                   const Real wr[NHYDRO]) {
  const Real sl = math::sqrt(wl[0]), sr = math::sqrt(wr[0]);
  const Real inv = Real(1) / (sl + sr);
  const Real un = (sl * wl[1] + sr * wr[1]) * inv;
  const Real ut1 = (sl * wl[2] + sr * wr[2]) * inv;
  const Real ut2 = (sl * wl[3] + sr * wr[3]) * inv;
  const Real g = eos.gamma * eos.inv_gm1;
  const Real hl = g * wl[4] / wl[0] + Real(0.5) * (wl[1] * wl[1] + wl[2] * wl[2] + wl[3] * wl[3]);
  const Real hr = g * wr[4] / wr[0] + Real(0.5) * (wr[1] * wr[1] + wr[2] * wr[2] + wr[3] * wr[3]);
  const Real h = (sl * hl + sr * hr) * inv;
  // Positive for any two physical states; the bound only guards rounding.
  const Real c2 = math::fmax(eos.gm1 * (h - Real(0.5) * (un * un + ut1 * ut1 + ut2 * ut2)),
                             kSmallestNormal);
  return eigensystem_of(eos, un, ut1, ut2, c2, h);
}

// w = L x: characteristic components of a conserved-variable vector.
// p, s and base are half those of the textbook rows (exactly: halved
// factors); w[1] = x0 - 2 base in one rounding, as x0 - base was.
KOKKOS_FORCEINLINE_FUNCTION void to_characteristic(const EigenSystem& e, const Real x[NHYDRO],
                                                   Real w[NHYDRO]) {
  const Real p = e.hb1 * (math::mul_add(e.ut2, x[3], math::mul_add(e.un, x[1], e.ut1 * x[2])) - x[4]);
  const Real s = math::mul_add(e.un, x[0], -x[1]) * e.inv_2c;
  const Real base = math::mul_add(e.hb2, x[0], -p);
  w[0] = base + s;
  w[1] = math::mul_add(Real(-2), base, x[0]);
  w[2] = math::mul_add(-e.ut1, x[0], x[2]);
  w[3] = math::mul_add(-e.ut2, x[0], x[3]);
  w[4] = base - s;
}

// x = R w: back from characteristic components.
KOKKOS_FORCEINLINE_FUNCTION void from_characteristic(const EigenSystem& e, const Real w[NHYDRO],
                                                     Real x[NHYDRO]) {
  const Real rho = w[0] + w[1] + w[4];
  const Real d = w[4] - w[0];
  x[0] = rho;
  x[1] = math::mul_add(e.un, rho, e.c * d);
  x[2] = math::mul_add(e.ut1, rho, w[2]);
  x[3] = math::mul_add(e.ut2, rho, w[3]);
  Real x4 = math::mul_add(e.un * e.c, d, e.h * (w[0] + w[4]));
  x4 = math::mul_add(e.q2h, w[1], x4);
  x4 = math::mul_add(e.ut1, w[2], x4);
  x[4] = math::mul_add(e.ut2, w[3], x4);
}

}  // namespace ax
