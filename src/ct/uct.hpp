// Upwind constrained transport (UCT) of Mignone & Del Zanna 2021 (JCP 424,
// 109748), as Idefix implements it: each face stores the weights a_L, a_R
// and diffusion coefficients d_L, d_R of its Riemann problem and the
// HLL-averaged transverse velocities; the edge EMF is then assembled from
// two one-dimensional Riemann problems across the edge, with the field and
// velocity reconstructed to the edge. With HLLD the coefficients follow the
// Alfven fan (their eqs. 33-35 and appendix); with HLL (or where HLLD
// degenerates) they are the HLL ones.
#pragma once

#include "mhd/mhd_riemann.hpp"

namespace ax {

// Slots of the per-face UCT array.
constexpr int kUctAL = 0, kUctAR = 1, kUctDL = 2, kUctDR = 3, kUctVt1 = 4, kUctVt2 = 5, kUctVars = 6;

// Coefficients of one face from its face states (face frame, as the Riemann
// solvers take them) and normal field.
template <bool HLLD>
KOKKOS_INLINE_FUNCTION void uct_face_coefficients(const IdealGas& eos, const Real wl[NWAVE_FACE],
                                                  const Real wr[NWAVE_FACE], Real bn, Real out[kUctVars]) {
  Real sl, sr;
  mhd_outer_speeds(eos, wl, wr, bn, sl, sr);
  const Real ar = math::fmax(Real(0), sr), al = math::fmin(Real(0), sl);
  const Real inv = Real(1) / (ar - al);
  // HLL: a_L = ar / (ar - al), a_R = -al / (ar - al), d_L = d_R = -al ar / (ar - al).
  Real a_l = ar * inv, a_r = -al * inv, d_l = -al * ar * inv, d_r = d_l;
  if constexpr (HLLD) {
    const Real ptl = mhd_face_total_pressure(wl, bn), ptr = mhd_face_total_pressure(wr, bn);
    const Real dul = sl - wl[1], dur = sr - wr[1];
    const Real sc = (dur * wr[0] * wr[1] - dul * wl[0] * wl[1] - ptr + ptl) / (dur * wr[0] - dul * wl[0]);
    const Real rho_l = wl[0] * dul / (sl - sc), rho_r = wr[0] * dur / (sr - sc);
    const Real sal = sc - math::fabs(bn) / math::sqrt(rho_l);
    const Real sar = sc + math::fabs(bn) / math::sqrt(rho_r);
    // Alfven waves on the outer waves: the fan has no inner structure.
    const bool degenerate = (sal - sl) < Real(1e-4) * (sc - sl) || (sar - sr) > -Real(1e-4) * (sr - sc);
    if (!degenerate) {
      const Real chi_l = (wl[1] - sc) * (sl - sc) / (sal + sl - 2 * sc);
      const Real chi_r = (wr[1] - sc) * (sr - sc) / (sar + sr - 2 * sc);
      const Real nu_l = (sal + sl) / (math::fabs(sal) + math::fabs(sl));
      const Real nu_r = (sar + sr) / (math::fabs(sar) + math::fabs(sr));
      if (math::fabs(sar - sal) > Real(1e-9) * math::fabs(sr - sl)) {
        const Real nu_lr = (sal + sar) / (math::fabs(sal) + math::fabs(sar));
        d_l = Real(0.5) * (chi_l * nu_l - chi_l * nu_lr) + Real(0.5) * (math::fabs(sal) - nu_lr * sal);
        d_r = Real(0.5) * (chi_r * nu_r - chi_r * nu_lr) + Real(0.5) * (math::fabs(sar) - nu_lr * sar);
        a_l = Real(0.5) * (Real(1) + nu_lr);
        a_r = Real(0.5) * (Real(1) - nu_lr);
      } else {  // bn -> 0: the HLLC limit
        d_l = Real(0.5) * chi_l * nu_l + Real(0.5) * math::fabs(sal);
        d_r = Real(0.5) * chi_r * nu_r + Real(0.5) * math::fabs(sar);
        a_l = a_r = Real(0.5);
      }
    }
  }
  out[kUctAL] = a_l;
  out[kUctAR] = a_r;
  out[kUctDL] = d_l;
  out[kUctDR] = d_r;
  out[kUctVt1] = (ar * wl[2] - al * wr[2]) * inv;
  out[kUctVt2] = (ar * wl[3] - al * wr[3]) * inv;
}

}  // namespace ax
