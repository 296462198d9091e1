// FD WENO5 for ideal MHD: the same flux-difference form as weno.hpp
// (central fourth-order flux plus characteristic WENO corrections with
// local Lax-Friedrichs splitting), on the 8-variable face-frame state with
// the seven waves of mhd_eigen.hpp. The flux of the normal field is zero.
// Each step is an inline function so the native path (one kernel per step,
// full-size arrays between) and the fused path compute the same numbers.
#pragma once

#include "fd/mhd_eigen.hpp"
#include "fd/weno.hpp"
#include "fv/fv_options.hpp"

namespace ax {

// Slot of the 8-variable cell state for face-frame slot s of axis d:
// (rho, m_n, m_t1, m_t2, E, B_n, B_t1, B_t2), (n, t1, t2) cyclic from d.
KOKKOS_INLINE_FUNCTION int mhd_face_slot(int d, int s) {
  return s < NHYDRO ? face_slot(d, s) : IB1 + (d + s - NHYDRO) % 3;
}

// Primitives w, physical flux f and the seven wave speeds of one cell
// (face frame), from its conserved state u.
KOKKOS_INLINE_FUNCTION void mhd_cell_flux(const IdealGas& eos, const Real u[8], Real w[8], Real f[8],
                                          Real lambda[NMHD_WAVES]) {
  const Real inv_rho = Real(1) / u[0];
  const Real vn = u[1] * inv_rho, vt1 = u[2] * inv_rho, vt2 = u[3] * inv_rho;
  const Real bn = u[kMhdN], bt1 = u[kMhdT1], bt2 = u[kMhdT2];
  const Real pm = Real(0.5) * (bn * bn + bt1 * bt1 + bt2 * bt2);
  const Real p = eos.gm1 * (u[4] - Real(0.5) * (u[1] * vn + u[2] * vt1 + u[3] * vt2) - pm);
  const Real pt = p + pm, vb = vn * bn + vt1 * bt1 + vt2 * bt2;
  w[0] = u[0];
  w[1] = vn;
  w[2] = vt1;
  w[3] = vt2;
  w[4] = p;
  w[kMhdN] = bn;
  w[kMhdT1] = bt1;
  w[kMhdT2] = bt2;
  f[0] = u[1];
  f[1] = u[1] * vn + pt - bn * bn;
  f[2] = u[2] * vn - bn * bt1;
  f[3] = u[3] * vn - bn * bt2;
  f[4] = (u[4] + pt) * vn - bn * vb;
  f[kMhdN] = 0;
  f[kMhdT1] = bt1 * vn - bn * vt1;
  f[kMhdT2] = bt2 * vn - bn * vt2;
  const MhdEigenSystem e = mhd_eigensystem_at(eos, w);
  const Real ca = math::fabs(bn) * e.inv_sqrt_rho;
  lambda[0] = vn - e.cf;
  lambda[1] = vn - ca;
  lambda[2] = vn - e.cs;
  lambda[3] = vn;
  lambda[4] = vn + e.cs;
  lambda[5] = vn + ca;
  lambda[6] = vn + e.cf;
}

// LLF speed of each wave: max |lambda| over the six cells of the stencil;
// called for m = 0..5 in order, starting from zeros.
KOKKOS_FORCEINLINE_FUNCTION void mhd_alpha_update(Real alpha[NMHD_WAVES], const Real lambda[NMHD_WAVES]) {
  for (int s = 0; s < NMHD_WAVES; ++s) alpha[s] = math::fmax(alpha[s], math::fabs(lambda[s]));
}

// Characteristic differences of the state and the flux between two
// neighbouring cells of the stencil.
KOKKOS_INLINE_FUNCTION void mhd_characteristic_differences(const MhdEigenSystem& e, const Real ua[8],
                                                           const Real ub[8], const Real fa[8], const Real fb[8],
                                                           Real dw[NMHD_WAVES], Real dg[NMHD_WAVES]) {
  Real du[8], df[8];
  for (int n = 0; n < 8; ++n) {
    du[n] = ub[n] - ua[n];
    df[n] = fb[n] - fa[n];
  }
  mhd_to_characteristic(e, du, dw);
  mhd_to_characteristic(e, df, dg);
}

// The correction of wave s from the five differences of its stencil.
template <WenoWeights W>
KOKKOS_INLINE_FUNCTION Real mhd_wave_correction(const Real dw[kWenoDiffs][NMHD_WAVES],
                                                const Real dg[kWenoDiffs][NMHD_WAVES], Real alpha, int s,
                                                Real eps) {
  Real ap[4], am[4], w0p, w2p, w0m, w2m;
  for (int m = 0; m < 4; ++m) ap[m] = split_plus(dg[m][s], dw[m][s], alpha);
  for (int m = 0; m < 4; ++m) am[m] = split_minus(dg[4 - m][s], dw[4 - m][s], alpha);
  weno_weights<W>(ap[0], ap[1], ap[2], ap[3], eps, w0p, w2p);
  weno_weights<W>(am[0], am[1], am[2], am[3], eps, w0m, w2m);
  return weno_correction(w0p, w2p, ap, w0m, w2m, am);
}

// Face flux = central part of cells 1..4 + R (characteristic corrections).
KOKKOS_INLINE_FUNCTION void mhd_assemble_face_flux(const MhdEigenSystem& e, const Real f1[8], const Real f2[8],
                                                   const Real f3[8], const Real f4[8],
                                                   const Real corr[NMHD_WAVES], Real fhat[8]) {
  Real back[8];
  mhd_from_characteristic(e, corr, back);
  for (int n = 0; n < 8; ++n) fhat[n] = central4(f1[n], f2[n], f3[n], f4[n]) + back[n];
}

// The whole face flux from the six cells of its stencil (face frame): c.u,
// c.w, c.f, c.lam (m, s) return cell m's conserved state, primitives, flux
// and wave speeds (mhd_cell_flux). An accessor rather than arrays, so a
// GPU kernel can read them from team scratch where they are used instead
// of holding 186 values in registers; the arithmetic is the same.
template <WenoWeights W, class Cells>
KOKKOS_INLINE_FUNCTION void mhd_weno_face_flux_of(const FdOptions& o, const Cells& c, Real fhat[8]) {
  Real wl[8], wr[8];
  for (int s = 0; s < 8; ++s) {
    wl[s] = c.w(2, s);
    wr[s] = c.w(3, s);
  }
  const MhdEigenSystem e = mhd_eigensystem(o.eos, wl, wr);
  Real alpha[NMHD_WAVES] = {0, 0, 0, 0, 0, 0, 0};
  for (int m = 0; m < kWenoStencil; ++m) {
    Real lam[NMHD_WAVES];
    for (int s = 0; s < NMHD_WAVES; ++s) lam[s] = c.lam(m, s);
    mhd_alpha_update(alpha, lam);
  }
  Real dw[kWenoDiffs][NMHD_WAVES], dg[kWenoDiffs][NMHD_WAVES];
  for (int m = 0; m < kWenoDiffs; ++m) {
    Real du[8], df[8];
    for (int n = 0; n < 8; ++n) {
      du[n] = c.u(m + 1, n) - c.u(m, n);
      df[n] = c.f(m + 1, n) - c.f(m, n);
    }
    mhd_to_characteristic(e, du, dw[m]);
    mhd_to_characteristic(e, df, dg[m]);
  }
  Real corr[NMHD_WAVES];
  for (int s = 0; s < NMHD_WAVES; ++s) corr[s] = mhd_wave_correction<W>(dw, dg, alpha[s], s, o.epsilon);
  Real back[8];
  mhd_from_characteristic(e, corr, back);
  for (int n = 0; n < 8; ++n) fhat[n] = central4(c.f(1, n), c.f(2, n), c.f(3, n), c.f(4, n)) + back[n];
}

// The same from register arrays (the CPU pencils).
struct MhdStencilArrays {
  const Real (*u_)[8];
  const Real (*w_)[8];
  const Real (*f_)[8];
  const Real (*l_)[NMHD_WAVES];
  KOKKOS_FORCEINLINE_FUNCTION Real u(int m, int s) const { return u_[m][s]; }
  KOKKOS_FORCEINLINE_FUNCTION Real w(int m, int s) const { return w_[m][s]; }
  KOKKOS_FORCEINLINE_FUNCTION Real f(int m, int s) const { return f_[m][s]; }
  KOKKOS_FORCEINLINE_FUNCTION Real lam(int m, int s) const { return l_[m][s]; }
};
template <WenoWeights W>
KOKKOS_INLINE_FUNCTION void mhd_weno_face_flux(const FdOptions& o, const Real u[kWenoStencil][8],
                                               const Real w[kWenoStencil][8], const Real f[kWenoStencil][8],
                                               const Real lambda[kWenoStencil][NMHD_WAVES], Real fhat[8]) {
  mhd_weno_face_flux_of<W>(o, MhdStencilArrays{u, w, f, lambda}, fhat);
}

}  // namespace ax
