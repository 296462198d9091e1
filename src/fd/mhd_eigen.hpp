// Eigen-structure of 1D ideal MHD in the frame of a face, for the
// characteristic projection of the FD WENO5 MHD scheme. Seven waves, in
// order u_n - c_f, u_n - c_a, u_n - c_s, u_n, u_n + c_s, u_n + c_a, u_n + c_f;
// the normal field is a parameter of the 1D system, so its slot (5) of the
// 8-variable face-frame vector (rho, m_n, m_t1, m_t2, E, B_n, B_t1, B_t2)
// carries no wave.
//
// The eigenvectors are those of the primitive system (rho, v_n, v_t1, v_t2,
// p, B_t1, B_t2) with Roe & Balsara's (1996) normalisation alpha_f, alpha_s
// (Stone et al. 2008, ApJS 178, eqs. A12 and A18), composed with the
// Jacobians dW/dU and dU/dW at the same state: L_U = L_W dW/dU and
// R_U = dU/dW R_W are then exactly the conserved eigenvectors, in a few
// dozen flops each instead of dense 7x7 products. Where the transverse
// field vanishes any unit vector keeps L R = I; this takes one the data
// single out (degenerate_direction), so that a planar problem stays
// planar, and (1, 1)/sqrt 2 (Brio & Wu 1988, eq. 45) only where they
// single out none. The sign conventions of the
// eigenvectors do not enter the WENO flux: a wave's left row and right
// column flip together and the weights see only squares.
#pragma once

#include "hydro/eos.hpp"

namespace ax {

// Face-frame slots of the 8-variable vectors (conserved and primitive).
constexpr int kMhdN = 5, kMhdT1 = 6, kMhdT2 = 7;
constexpr int NMHD_WAVES = 7;

struct MhdEigenSystem {
  Real rho, vn, vt1, vt2, bt1, bt2;  // the face state (primitives)
  Real gm1, inv_gm1, v2h;            // gamma - 1, 1 / (gamma - 1), |v|^2 / 2
  Real inv_rho, sqrt_rho, inv_sqrt_rho;
  Real a, asq, cf, cs;               // sound, fast and slow speeds
  Real bet2, bet3;                   // direction of the transverse field
  Real alpha_f, alpha_s, s;          // normalisation, sign of B_n
  // Factors of the left eigenvectors (mhd_to_characteristic), once per
  // face rather than once per projected vector: ten projections share them,
  // and on GPUs the divisions would dominate a projection.
  Real nf, qf, qs, afp, asp, inv_asq;
};

// The transverse direction of the eigenvectors where the face's mean
// transverse field vanishes: the transverse field of the side that has the
// larger one (a field reversal: Brio & Wu's B_y through 0), else the mean
// transverse velocity (no field: outside the field loop), else none (0, 0).
// With (1, 1)/sqrt 2 there the WENO weights, taken per wave, mixed the two
// transverse components: FD Brio & Wu grew B_z to 4.7e-4 and the 2D field
// loop's B_z to 2% of B_x, where they stay 0.
KOKKOS_INLINE_FUNCTION void degenerate_direction(const Real wl[8], const Real wr[8], Real d[2]) {
  const Real l2 = math::mul_add(wl[kMhdT1], wl[kMhdT1], wl[kMhdT2] * wl[kMhdT2]);
  const Real r2 = math::mul_add(wr[kMhdT1], wr[kMhdT1], wr[kMhdT2] * wr[kMhdT2]);
  const Real* side = r2 > l2 ? wr : wl;
  if (l2 > Real(0) || r2 > Real(0)) {
    d[0] = side[kMhdT1];
    d[1] = side[kMhdT2];
  } else {
    d[0] = wl[2] + wr[2];
    d[1] = wl[3] + wr[3];
  }
}

// The eigen-system at the primitive face-frame state w (rho, v_n, v_t1,
// v_t2, p, B_n, B_t1, B_t2); `degenerate` is the transverse direction used
// where w's transverse field vanishes (degenerate_direction; (0, 0): none,
// (1, 1)/sqrt 2 then). Its length does not matter.
KOKKOS_INLINE_FUNCTION MhdEigenSystem mhd_eigensystem_at(const IdealGas& eos, const Real w[8],
                                                        const Real degenerate[2]) {
  MhdEigenSystem e;
  e.rho = w[0];
  e.vn = w[1];
  e.vt1 = w[2];
  e.vt2 = w[3];
  e.bt1 = w[kMhdT1];
  e.bt2 = w[kMhdT2];
  e.gm1 = eos.gm1;
  e.inv_gm1 = eos.inv_gm1;
  e.v2h = Real(0.5) * math::mul_add(e.vt2, e.vt2, math::mul_add(e.vn, e.vn, e.vt1 * e.vt1));
  // Four square roots and two divisions give every speed: sqrt(rho),
  // sqrt(gamma p) = a sqrt(rho), the discriminant's root and sqrt(rho) c_f,
  // with c_s from c_f c_s = a |B_n| / sqrt(rho). On GPUs a root or a
  // division is a subroutine of a dozen FP64 instructions.
  e.inv_rho = Real(1) / e.rho;
  e.sqrt_rho = math::sqrt(e.rho);
  e.inv_sqrt_rho = e.sqrt_rho * e.inv_rho;
  const Real bn = w[kMhdN];
  const Real btsq = math::mul_add(e.bt1, e.bt1, e.bt2 * e.bt2), bnsq = bn * bn;
  const Real gamp = eos.gamma * w[4];
  const Real sqrt_gamp = math::sqrt(gamp);
  // Athena++'s form: the discriminant as a sum of squares, c_s from c_f.
  const Real tdif = bnsq + btsq - gamp;
  const Real root = math::sqrt(math::mul_add(tdif, tdif, Real(4) * gamp * btsq));
  const Real rcfsq = Real(0.5) * (bnsq + btsq + gamp + root);
  const Real rcf = math::sqrt(rcfsq);  // sqrt(rho) c_f
  const Real cfsq = rcfsq * e.inv_rho;
  e.cf = rcf * e.inv_sqrt_rho;
  e.cs = math::fabs(bn) * sqrt_gamp / rcf * e.inv_sqrt_rho;
  const Real cssq = e.cs * e.cs;
  e.asq = gamp * e.inv_rho;
  e.a = sqrt_gamp * e.inv_sqrt_rho;
  // 1e-12 of the field energy: below it the direction is rounding noise.
  if (btsq > Real(1e-12) * (btsq + bnsq + gamp)) {
    const Real inv_bt = Real(1) / math::sqrt(btsq);
    e.bet2 = e.bt1 * inv_bt;
    e.bet3 = e.bt2 * inv_bt;
  } else {
    const Real dsq = math::mul_add(degenerate[0], degenerate[0], degenerate[1] * degenerate[1]);
    if (dsq > Real(0)) {
      const Real inv_d = Real(1) / math::sqrt(dsq);
      e.bet2 = degenerate[0] * inv_d;
      e.bet3 = degenerate[1] * inv_d;
    } else {
      e.bet2 = e.bet3 = Real(0.70710678118654752440);
    }
  }
  // Roe & Balsara's cases: triple umbilic, low and high beta.
  if (cfsq - cssq <= Real(0)) {
    e.alpha_f = 1;
    e.alpha_s = 0;
  } else if (e.asq - cssq <= Real(0)) {
    e.alpha_f = 0;
    e.alpha_s = 1;
  } else if (cfsq - e.asq <= Real(0)) {
    e.alpha_f = 1;
    e.alpha_s = 0;
  } else {
    const Real inv = Real(1) / (cfsq - cssq);
    e.alpha_f = math::sqrt((e.asq - cssq) * inv);
    e.alpha_s = math::sqrt((cfsq - e.asq) * inv);
  }
  e.s = bn >= Real(0) ? Real(1) : Real(-1);
  // Stone et al. (2008) eq. A18.
  // a sqrt(rho) = sqrt(gamma p): one reciprocal serves 1 / a^2 and both
  // normalisations.
  const Real inv_sqrt_gamp = Real(1) / sqrt_gamp;
  e.inv_asq = e.rho * (inv_sqrt_gamp * inv_sqrt_gamp);
  e.nf = Real(0.5) * e.inv_asq;  // halving is exact: inv_asq / 2 to the bit
  e.qf = e.nf * e.cf * e.alpha_f * e.s;
  e.qs = e.nf * e.cs * e.alpha_s * e.s;
  e.afp = Real(0.5) * e.alpha_f * inv_sqrt_gamp;
  e.asp = Real(0.5) * e.alpha_s * inv_sqrt_gamp;
  return e;
}

// The eigen-system of one state, where no face singles out a direction:
// its own transverse velocity does (a cell's speeds do not depend on it).
KOKKOS_INLINE_FUNCTION MhdEigenSystem mhd_eigensystem_at(const IdealGas& eos, const Real w[8]) {
  const Real d[2] = {w[2], w[3]};
  return mhd_eigensystem_at(eos, w, d);
}

// At the arithmetic mean of the two cells' primitive face-frame states.
KOKKOS_INLINE_FUNCTION MhdEigenSystem mhd_eigensystem(const IdealGas& eos, const Real wl[8], const Real wr[8]) {
  Real w[8], d[2];
  for (int n = 0; n < 8; ++n) w[n] = Real(0.5) * (wl[n] + wr[n]);
  degenerate_direction(wl, wr, d);
  return mhd_eigensystem_at(eos, w, d);
}

// c = L x: characteristic components of a face-frame conserved vector
// (slot 5, the normal field, is not read).
KOKKOS_INLINE_FUNCTION void mhd_to_characteristic(const MhdEigenSystem& e, const Real x[8],
                                                  Real c[NMHD_WAVES]) {
  // dW = dW/dU x (the normal field is a parameter of the 1D system).
  const Real drho = x[0];
  const Real dvn = math::mul_add(-e.vn, drho, x[1]) * e.inv_rho;
  const Real dvt1 = math::mul_add(-e.vt1, drho, x[2]) * e.inv_rho;
  const Real dvt2 = math::mul_add(-e.vt2, drho, x[3]) * e.inv_rho;
  const Real dbt1 = x[kMhdT1], dbt2 = x[kMhdT2];
  // v2h drho - vn x1 - vt1 x2 - vt2 x3 + x4 - bt1 dbt1 - bt2 dbt2, left to right.
  Real t = e.v2h * drho;
  t = math::mul_add(-e.vn, x[1], t);
  t = math::mul_add(-e.vt1, x[2], t);
  t = math::mul_add(-e.vt2, x[3], t);
  t = t + x[4];
  t = math::mul_add(-e.bt1, dbt1, t);
  t = math::mul_add(-e.bt2, dbt2, t);
  const Real dp = e.gm1 * t;
  // Stone et al. (2008) eq. A18.
  const Real nf = e.nf, qf = e.qf, qs = e.qs, afp = e.afp, asp = e.asp;
  const Real pr = dp * e.inv_rho;
  const Real vt = math::mul_add(e.bet2, dvt1, e.bet3 * dvt2), bt = math::mul_add(e.bet2, dbt1, e.bet3 * dbt2);
  const Real sb = e.s * e.inv_sqrt_rho;
  const Real naf = nf * e.alpha_f, nas = nf * e.alpha_s;
  c[0] = math::mul_add(asp, bt, math::mul_add(naf, math::mul_add(-e.cf, dvn, pr), qs * vt));
  c[1] = Real(0.5) * math::mul_add(e.bet2, math::mul_add(dbt2, sb, dvt2), -(e.bet3 * math::mul_add(dbt1, sb, dvt1)));
  c[2] = math::mul_add(-afp, bt, math::mul_add(nas, math::mul_add(-e.cs, dvn, pr), -(qf * vt)));
  c[3] = math::mul_add(-dp, e.inv_asq, drho);
  c[4] = math::mul_add(-afp, bt, math::mul_add(nas, math::mul_add(e.cs, dvn, pr), qf * vt));
  c[5] = Real(0.5) * math::mul_add(e.bet2, math::mul_add(dbt2, sb, -dvt2), -(e.bet3 * math::mul_add(dbt1, sb, -dvt1)));
  c[6] = math::mul_add(asp, bt, math::mul_add(naf, math::mul_add(e.cf, dvn, pr), -(qs * vt)));
}

// x = R c: back to the face-frame conserved vector (slot 5 is zero).
KOKKOS_INLINE_FUNCTION void mhd_from_characteristic(const MhdEigenSystem& e, const Real c[NMHD_WAVES],
                                                    Real x[8]) {
  // Stone et al. (2008) eq. A12: the primitive differences.
  const Real qf = e.cf * e.alpha_f * e.s, qs = e.cs * e.alpha_s * e.s;
  const Real af = e.a * e.alpha_f * e.sqrt_rho, as = e.a * e.alpha_s * e.sqrt_rho;
  const Real fast = c[0] + c[6], slow = c[2] + c[4], alfven = c[5] + c[1];
  const Real mix = math::mul_add(qs, c[0] - c[6], qf * (c[4] - c[2]));
  const Real sound = math::mul_add(e.alpha_f, fast, e.alpha_s * slow);
  const Real drho = math::mul_add(e.rho, sound, c[3]);
  const Real dvn = math::mul_add(e.cf * e.alpha_f, c[6] - c[0], e.cs * e.alpha_s * (c[4] - c[2]));
  const Real dvt1 = math::mul_add(e.bet2, mix, e.bet3 * (c[5] - c[1]));
  const Real dvt2 = math::mul_add(e.bet3, mix, e.bet2 * (c[1] - c[5]));
  const Real dp = e.rho * e.asq * sound;
  const Real mag = math::mul_add(as, fast, -(af * slow)), rot = e.s * e.sqrt_rho * alfven;
  const Real dbt1 = math::mul_add(e.bet2, mag, -(e.bet3 * rot));
  const Real dbt2 = math::mul_add(e.bet3, mag, e.bet2 * rot);
  // dU = dU/dW dW.
  x[0] = drho;
  x[1] = math::mul_add(e.vn, drho, e.rho * dvn);
  x[2] = math::mul_add(e.vt1, drho, e.rho * dvt1);
  x[3] = math::mul_add(e.vt2, drho, e.rho * dvt2);
  const Real vdv = math::mul_add(e.vt2, dvt2, math::mul_add(e.vn, dvn, e.vt1 * dvt1));
  Real x4 = math::mul_add(e.v2h, drho, e.rho * vdv);
  x4 = math::mul_add(dp, e.inv_gm1, x4);
  x4 = math::mul_add(e.bt1, dbt1, x4);
  x[4] = math::mul_add(e.bt2, dbt2, x4);
  x[kMhdN] = 0;
  x[kMhdT1] = dbt1;
  x[kMhdT2] = dbt2;
}

}  // namespace ax
