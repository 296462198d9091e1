// FD WENO5 for ideal MHD: the same flux-difference form as weno.hpp
// (central fourth-order flux plus characteristic WENO corrections with
// local Lax-Friedrichs splitting), on the 8-variable face-frame state with
// the seven waves of mhd_eigen.hpp. The flux of the normal field is zero.
// Each step is an inline function so the native path (one kernel per step,
// full-size arrays between) and the fused path compute the same numbers.
#pragma once

#include "fd/mhd_eigen.hpp"
#include "fd/weno.hpp"
#include "hydro/face_frame.hpp"

namespace ax {

// Slot of the 8-variable cell state for face-frame slot s of axis d:
// (rho, m_n, m_t1, m_t2, E, B_n, B_t1, B_t2), (n, t1, t2) cyclic from d.
KOKKOS_INLINE_FUNCTION int mhd_face_slot(int d, int s) {
  return s < NHYDRO ? face_slot(d, s) : IB1 + (d + s - NHYDRO) % 3;
}

// Its inverse: the face-frame slot of cell variable v.
KOKKOS_INLINE_FUNCTION int mhd_frame_slot(int d, int v) {
  return v < NHYDRO ? frame_slot(d, v) : IB1 + (v - IB1 - d + 3) % 3;
}

// Primitives w (rho, v_n, v_t1, v_t2, p, B_n, B_t1, B_t2; face frame) of
// one cell from its conserved state u.
KOKKOS_FORCEINLINE_FUNCTION void mhd_primitives(const IdealGas& eos, const Real u[8], Real w[8]) {
  const Real inv_rho = Real(1) / u[0];
  const Real vn = u[1] * inv_rho, vt1 = u[2] * inv_rho, vt2 = u[3] * inv_rho;
  const Real bn = u[kMhdN], bt1 = u[kMhdT1], bt2 = u[kMhdT2];
  const Real pm = Real(0.5) * math::mul_add(bt2, bt2, math::mul_add(bn, bn, bt1 * bt1));
  w[0] = u[0];
  w[1] = vn;
  w[2] = vt1;
  w[3] = vt2;
  const Real mv = math::mul_add(u[3], vt2, math::mul_add(u[1], vn, u[2] * vt1));
  w[4] = eos.gm1 * (math::mul_add(Real(-0.5), mv, u[4]) - pm);
  w[kMhdN] = bn;
  w[kMhdT1] = bt1;
  w[kMhdT2] = bt2;
}

// Primitives w, physical flux f and the seven wave speeds of one cell
// (face frame), from its conserved state u.
KOKKOS_INLINE_FUNCTION void mhd_cell_flux(const IdealGas& eos, const Real u[8], Real w[8], Real f[8],
                                          Real lambda[NMHD_WAVES]) {
  mhd_primitives(eos, u, w);
  const Real vn = w[1], vt1 = w[2], vt2 = w[3], p = w[4];
  const Real bn = w[kMhdN], bt1 = w[kMhdT1], bt2 = w[kMhdT2];
  const Real pm = Real(0.5) * math::mul_add(bt2, bt2, math::mul_add(bn, bn, bt1 * bt1));
  const Real pt = p + pm, vb = math::mul_add(vt2, bt2, math::mul_add(vn, bn, vt1 * bt1));
  f[0] = u[1];
  f[1] = math::mul_add(-bn, bn, math::mul_add(u[1], vn, pt));
  f[2] = math::mul_add(u[2], vn, -(bn * bt1));
  f[3] = math::mul_add(u[3], vn, -(bn * bt2));
  f[4] = math::mul_add(u[4] + pt, vn, -(bn * vb));
  f[kMhdN] = 0;
  f[kMhdT1] = math::mul_add(bt1, vn, -(bn * vt1));
  f[kMhdT2] = math::mul_add(bt2, vn, -(bn * vt2));
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

// The same for wave s of all seven waves' differences.
template <WenoWeights W>
KOKKOS_INLINE_FUNCTION Real mhd_wave_correction(const Real dw[kWenoDiffs][NMHD_WAVES],
                                                const Real dg[kWenoDiffs][NMHD_WAVES], Real alpha, int s,
                                                Real eps) {
  Real dws[kWenoDiffs], dgs[kWenoDiffs];
  for (int m = 0; m < kWenoDiffs; ++m) {
    dws[m] = dw[m][s];
    dgs[m] = dg[m][s];
  }
  return wave_correction_of<W>(dws, dgs, alpha, eps);
}

// Face flux = central part of cells 1..4 + R (characteristic corrections).
KOKKOS_INLINE_FUNCTION void mhd_assemble_face_flux(const MhdEigenSystem& e, const Real f1[8], const Real f2[8],
                                                   const Real f3[8], const Real f4[8],
                                                   const Real corr[NMHD_WAVES], Real fhat[8]) {
  Real back[8];
  mhd_from_characteristic(e, corr, back);
  for (int n = 0; n < 8; ++n) fhat[n] = central4(f1[n], f2[n], f3[n], f4[n]) + back[n];
}

// The whole face flux from the six cells of its stencil (face frame):
// their conserved states u, and w, f, lambda from mhd_cell_flux. In
// registers: the CPU pencils (the GPU tiles run the same steps in phases,
// fd_mhd_fused_segments.cpp).
template <WenoWeights W>
KOKKOS_INLINE_FUNCTION void mhd_weno_face_flux(const FdOptions& o, const Real u[kWenoStencil][8],
                                               const Real w[kWenoStencil][8], const Real f[kWenoStencil][8],
                                               const Real lambda[kWenoStencil][NMHD_WAVES], Real fhat[8]) {
  const MhdEigenSystem e = mhd_eigensystem(o.eos, w[2], w[3]);
  Real alpha[NMHD_WAVES] = {0, 0, 0, 0, 0, 0, 0};
  for (int m = 0; m < kWenoStencil; ++m) mhd_alpha_update(alpha, lambda[m]);
  Real dw[kWenoDiffs][NMHD_WAVES], dg[kWenoDiffs][NMHD_WAVES];
  for (int m = 0; m < kWenoDiffs; ++m) mhd_characteristic_differences(e, u[m], u[m + 1], f[m], f[m + 1], dw[m], dg[m]);
  Real corr[NMHD_WAVES];
  for (int s = 0; s < NMHD_WAVES; ++s) corr[s] = mhd_wave_correction<W>(dw, dg, alpha[s], s, o.epsilon);
  mhd_assemble_face_flux(e, f[1], f[2], f[3], f[4], corr, fhat);
}

}  // namespace ax
