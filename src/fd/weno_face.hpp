// The whole WENO5 face flux from the six cells of its stencil (face
// frame), in registers: the fused path's face. The same operations as the
// native path's kernels (fd/weno.hpp, one kernel a step there), in one of
// three orders that give the same bits (FdScheme.FaceOrdersAgreeBitwise):
//
// - stencil: all six cells, then the face; the loops over the stencil stay
//   loops. CPUs (the near-cells order ran 20% slower on one core).
// - near_cells: the two cells beside the face first (the eigen-system), the
//   others as the differences need them, the central part of the flux
//   before the WENO phase, so each cell's values die early. ptxas (sm_90,
//   128 registers): spill loads 524-580 bytes -> 212-344; H200, 256^3
//   blast: 3.16e8 -> 3.43e8 cell-updates/s (ssprk5_4), 3.08e8 -> 3.34e8
//   (lsrk4), one lease.
// - speeds_first: the LLF speeds of the six cells first, from a pass that
//   reads the cells through the read-only cache (speed(m, un, c)); with
//   them known, each characteristic difference is split as soon as it is
//   formed and the plus side's weights are taken before cell 5 is read, so
//   the face holds split differences (8 a field) instead of state and flux
//   differences (10 a field). Six more reciprocals a face and 48 more FP64
//   operations (853 against 805, benchmarks/ptx_count); ptxas (sm_90, 128
//   registers, Jiang-Shu, arithmetic average) spills 204/216 bytes
//   (stores/loads) against 280/292. H100, 256^3 blast, FdStep alternated
//   four times in one lease: 41.9 against 44.7 ms a step (lsrk4), 42.4
//   against 45.2 (ssprk5_4), 6% faster: the GPU default.
#pragma once

#include "fd/weno.hpp"

namespace ax {

enum class FaceOrder { stencil, near_cells, speeds_first };

// cell(m, u, w, f, c): cell m's conserved state u and w, f, c as
// cell_flux gives them. speed(m, un, c): its normal velocity and sound speed, bitwise
// those cell gives (speeds_first only).
template <WenoWeights W, EigenAverage A, FaceOrder O, class Cell, class Speed>
KOKKOS_INLINE_FUNCTION void weno_face_flux_in_order(const FdOptions& o, const Cell& cell, const Speed& speed,
                                                    Real fhat[NHYDRO]) {
  Real alpha[3] = {0, 0, 0};  // a maximum: the order of the cells does not matter
  if constexpr (O == FaceOrder::stencil) {
    Real u[kWenoStencil][NHYDRO], w[kWenoStencil][NHYDRO], f[kWenoStencil][NHYDRO], c[kWenoStencil];
    Real dw[kWenoDiffs][NHYDRO], dg[kWenoDiffs][NHYDRO], corr[NHYDRO];
    for (int m = 0; m < kWenoStencil; ++m) cell(m, u[m], w[m], f[m], c[m]);
    const EigenSystem e = face_eigensystem<A>(o.eos, w[2], w[3]);
    for (int m = 0; m < kWenoStencil; ++m) alpha_update(alpha, w[m][1], c[m]);
    for (int m = 0; m < kWenoDiffs; ++m) characteristic_differences(e, u[m], u[m + 1], f[m], f[m + 1], dw[m], dg[m]);
    weno_corrections<W>(o, dw, dg, alpha, corr);
    assemble_face_flux(e, f[1], f[2], f[3], f[4], corr, fhat);
  } else if constexpr (O == FaceOrder::near_cells) {
    Real dw[kWenoDiffs][NHYDRO], dg[kWenoDiffs][NHYDRO], corr[NHYDRO];
    Real u2[NHYDRO], w2[NHYDRO], f2[NHYDRO], c2, u3[NHYDRO], w3[NHYDRO], f3[NHYDRO], c3;
    cell(2, u2, w2, f2, c2);
    cell(3, u3, w3, f3, c3);
    const EigenSystem e = face_eigensystem<A>(o.eos, w2, w3);
    alpha_update(alpha, w2[1], c2);
    alpha_update(alpha, w3[1], c3);
    Real cen[NHYDRO];
    {
      Real u0[NHYDRO], w0[NHYDRO], f0[NHYDRO], c0, u1[NHYDRO], w1[NHYDRO], f1[NHYDRO], c1;
      cell(0, u0, w0, f0, c0);
      cell(1, u1, w1, f1, c1);
      alpha_update(alpha, w0[1], c0);
      alpha_update(alpha, w1[1], c1);
      characteristic_differences(e, u0, u1, f0, f1, dw[0], dg[0]);
      characteristic_differences(e, u1, u2, f1, f2, dw[1], dg[1]);
      characteristic_differences(e, u2, u3, f2, f3, dw[2], dg[2]);
      Real u4[NHYDRO], w4[NHYDRO], f4[NHYDRO], c4;
      cell(4, u4, w4, f4, c4);
      alpha_update(alpha, w4[1], c4);
      characteristic_differences(e, u3, u4, f3, f4, dw[3], dg[3]);
      for (int n = 0; n < NHYDRO; ++n) cen[n] = central4(f1[n], f2[n], f3[n], f4[n]);
      Real u5[NHYDRO], w5[NHYDRO], f5[NHYDRO], c5;
      cell(5, u5, w5, f5, c5);
      alpha_update(alpha, w5[1], c5);
      characteristic_differences(e, u4, u5, f4, f5, dw[4], dg[4]);
    }
    weno_corrections<W>(o, dw, dg, alpha, corr);
    Real back[NHYDRO];
    from_characteristic(e, corr, back);
    for (int n = 0; n < NHYDRO; ++n) fhat[n] = cen[n] + back[n];  // as assemble_face_flux
  } else {
    for (int m = 0; m < kWenoStencil; ++m) {
      Real un, c;
      speed(m, un, c);
      alpha_update(alpha, un, c);
    }
    Real u2[NHYDRO], w2[NHYDRO], f2[NHYDRO], c2, u3[NHYDRO], w3[NHYDRO], f3[NHYDRO], c3;
    cell(2, u2, w2, f2, c2);
    cell(3, u3, w3, f3, c3);
    const EigenSystem e = face_eigensystem<A>(o.eos, w2, w3);
    // ap[k]: plus split of difference k (0..3); am[k]: minus split of
    // difference 4 - k, the order weno_correction takes them in.
    Real ap[4][NHYDRO], am[4][NHYDRO], phi_plus[NHYDRO], cen[NHYDRO], corr[NHYDRO];
    auto split = [&](int m, const Real ua[NHYDRO], const Real ub[NHYDRO], const Real fa[NHYDRO],
                     const Real fb[NHYDRO]) {
      Real dw[NHYDRO], dg[NHYDRO];
      characteristic_differences(e, ua, ub, fa, fb, dw, dg);
      for (int s = 0; s < NHYDRO; ++s) {
        if (m < 4) ap[m][s] = split_plus(dg[s], dw[s], alpha_of_field(alpha, s));
        if (m > 0) am[4 - m][s] = split_minus(dg[s], dw[s], alpha_of_field(alpha, s));
      }
    };
    {
      Real u0[NHYDRO], w0[NHYDRO], f0[NHYDRO], c0, u1[NHYDRO], w1[NHYDRO], f1[NHYDRO], c1;
      cell(0, u0, w0, f0, c0);
      cell(1, u1, w1, f1, c1);
      split(0, u0, u1, f0, f1);
      split(1, u1, u2, f1, f2);
      split(2, u2, u3, f2, f3);
      Real u4[NHYDRO], w4[NHYDRO], f4[NHYDRO], c4;
      cell(4, u4, w4, f4, c4);
      split(3, u3, u4, f3, f4);
      for (int n = 0; n < NHYDRO; ++n) cen[n] = central4(f1[n], f2[n], f3[n], f4[n]);
      for (int s = 0; s < NHYDRO; ++s) {
        Real w0p, w2p;
        weno_weights<W>(ap[0][s], ap[1][s], ap[2][s], ap[3][s], o.epsilon, w0p, w2p);
        phi_plus[s] = weno_phi(w0p, w2p, ap[0][s], ap[1][s], ap[2][s], ap[3][s]);
      }
      Real u5[NHYDRO], w5[NHYDRO], f5[NHYDRO], c5;
      cell(5, u5, w5, f5, c5);
      split(4, u4, u5, f4, f5);
    }
    for (int s = 0; s < NHYDRO; ++s) {  // as weno_correction: phi of the minus side less that of the plus side
      Real w0m, w2m;
      weno_weights<W>(am[0][s], am[1][s], am[2][s], am[3][s], o.epsilon, w0m, w2m);
      corr[s] = weno_phi(w0m, w2m, am[0][s], am[1][s], am[2][s], am[3][s]) - phi_plus[s];
    }
    Real back[NHYDRO];
    from_characteristic(e, corr, back);
    for (int n = 0; n < NHYDRO; ++n) fhat[n] = cen[n] + back[n];  // as assemble_face_flux
  }
}

// The order this compilation pass uses: stencil on CPUs, speeds_first on
// GPUs unless ASTRONOMIX_FD_FACE_ORDER names another (CMake option of the
// same name).
#ifndef ASTRONOMIX_FD_FACE_ORDER
#define ASTRONOMIX_FD_FACE_ORDER speeds_first
#endif

template <WenoWeights W, EigenAverage A, class Cell, class Speed>
KOKKOS_INLINE_FUNCTION void weno_face_flux(const FdOptions& o, const Cell& cell, const Speed& speed,
                                           Real fhat[NHYDRO]) {
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
  weno_face_flux_in_order<W, A, FaceOrder::ASTRONOMIX_FD_FACE_ORDER>(o, cell, speed, fhat);
#else
  weno_face_flux_in_order<W, A, FaceOrder::stencil>(o, cell, speed, fhat);
#endif
}

}  // namespace ax
