// Fifth-order WENO in flux-difference form (Jiang & Shu 1996, eq. 2.16;
// the form of HOW-MHD, Seo & Ryu 2023): the flux at face j+1/2 is the
// fourth-order central flux plus nonlinear corrections built from the
// differences of the split fluxes, one characteristic field at a time:
//
//   F(j+1/2) = (-F(j-1) + 7 F(j) + 7 F(j+1) - F(j+2)) / 12
//            + sum_s r_s [ phi(df-_s(j+5/2), df-_s(j+3/2), df-_s(j+1/2), df-_s(j-1/2))
//                        - phi(df+_s(j-3/2), df+_s(j-1/2), df+_s(j+1/2), df+_s(j+3/2)) ]
//
// with df+-_s = (l_s.dF +- alpha_s l_s.dU) / 2 (local Lax-Friedrichs
// splitting; alpha_s = max |lambda_s| over the six cells j-2..j+3) and l_s,
// r_s the eigenvectors at the face (euler_eigen.hpp). The stencil of a face
// is six cells, indexed m = 0..5 for j-2..j+3; differences m = 0..4 lie
// between cells m and m+1.
//
// The code carries 2 df+-, not df+-: the halving cost a multiply for each
// of the eight split differences of a field (40 of a hydro face's ~1,000
// FP64 instructions, 56 of an MHD face's). Doubling is exact in floating
// point and every quantity downstream scales by a power of two: the
// smoothness indicators by 4 (so the weights take 4 times the epsilon
// and come out the same), phi by 2 (so its constants are halved). The
// weights and the corrections are thus bitwise those of the same formulas
// on undoubled differences (outside the subnormal range, where no WENO difference that
// matters lives; tests/test_fd_scheme.cpp holds them to it).
//
// Each step is one inline function so the native path (one kernel per
// step, full-size arrays in between) and the fused path (everything in
// registers) compute bitwise the same numbers.
#pragma once

#include "fd/euler_eigen.hpp"
#include "fd/fd_options.hpp"

namespace ax {

constexpr int kWenoStencil = 6;
constexpr int kWenoDiffs = 5;

// What every axis's flux of a cell shares: 1/rho, the pressure and the
// sound speed (which reuses 1/rho: divisions and roots dominate a face's
// cost on GPUs). The kinetic energy sums the momenta in the order x, y, z
// whatever the face frame, so a cell has one pressure for all three axes
// and the fused path can convert each cell once a stage (fd_fused.cpp).
struct CellThermo {
  Real inv_rho, p, c;
};
constexpr int kCellThermoVals = 3;

KOKKOS_INLINE_FUNCTION CellThermo cell_thermo(const IdealGas& eos, Real rho, Real mx, Real my, Real mz, Real e) {
  CellThermo t;
  t.inv_rho = Real(1) / rho;
  const Real mv = math::mul_add(mz, mz * t.inv_rho, math::mul_add(mx, mx * t.inv_rho, my * (my * t.inv_rho)));
  t.p = eos.gm1 * math::mul_add(Real(-0.5), mv, e);
  t.c = eos.sound_speed_inv_rho(t.inv_rho, t.p);
  return t;
}

// The same of a state in the frame of axis d (hydro/face_frame.hpp: frame
// slot s holds the physical component face_slot(d, s)).
KOKKOS_INLINE_FUNCTION CellThermo cell_thermo_in_frame(const IdealGas& eos, int d, const Real u[NHYDRO]) {
  const Real mx = d == 0 ? u[1] : (d == 1 ? u[3] : u[2]);
  const Real my = d == 0 ? u[2] : (d == 1 ? u[1] : u[3]);
  const Real mz = d == 0 ? u[3] : (d == 1 ? u[2] : u[1]);
  return cell_thermo(eos, u[IDN], mx, my, mz, u[IEN]);
}

// Primitive state w and physical flux f of one cell (face frame) from its
// conserved state and thermodynamic values.
KOKKOS_INLINE_FUNCTION void cell_flux_of(const Real u[NHYDRO], const CellThermo& t, Real w[NHYDRO], Real f[NHYDRO]) {
  w[IDN] = u[IDN];
  w[1] = u[1] * t.inv_rho;
  w[2] = u[2] * t.inv_rho;
  w[3] = u[3] * t.inv_rho;
  w[IPR] = t.p;
  const Real vn = w[1];
  f[0] = u[1];
  f[1] = math::mul_add(u[1], vn, t.p);
  f[2] = u[2] * vn;
  f[3] = u[3] * vn;
  f[4] = (u[4] + t.p) * vn;
}

// Primitive state, physical flux and sound speed of one cell in the frame
// of axis d.
KOKKOS_INLINE_FUNCTION void cell_flux(const IdealGas& eos, int d, const Real u[NHYDRO], Real w[NHYDRO],
                                      Real f[NHYDRO], Real& c) {
  const CellThermo t = cell_thermo_in_frame(eos, d, u);
  cell_flux_of(u, t, w, f);
  c = t.c;
}

template <EigenAverage A>
KOKKOS_INLINE_FUNCTION EigenSystem face_eigensystem(const IdealGas& eos, const Real wl[NHYDRO],
                                                    const Real wr[NHYDRO]) {
  if constexpr (A == EigenAverage::roe) return eigensystem_roe(eos, wl, wr);
  else return eigensystem_arithmetic(eos, wl, wr);
}

// alpha[0..2] = max over the stencil of |u_n - c|, |u_n|, |u_n + c|; called
// for m = 0..5 in order, starting from zeros.
KOKKOS_FORCEINLINE_FUNCTION void alpha_update(Real alpha[3], Real un, Real c) {
  alpha[0] = math::fmax(alpha[0], math::fabs(un - c));
  alpha[1] = math::fmax(alpha[1], math::fabs(un));
  alpha[2] = math::fmax(alpha[2], math::fabs(un + c));
}
KOKKOS_FORCEINLINE_FUNCTION Real alpha_of_field(const Real alpha[3], int s) {
  return s == 0 ? alpha[0] : (s == NHYDRO - 1 ? alpha[2] : alpha[1]);
}

// Characteristic components of the state and flux differences between two
// neighbouring cells of the stencil.
KOKKOS_INLINE_FUNCTION void characteristic_differences(const EigenSystem& e, const Real ua[NHYDRO],
                                                       const Real ub[NHYDRO], const Real fa[NHYDRO],
                                                       const Real fb[NHYDRO], Real dw[NHYDRO],
                                                       Real dg[NHYDRO]) {
  Real du[NHYDRO], df[NHYDRO];
  for (int n = 0; n < NHYDRO; ++n) {
    du[n] = ub[n] - ua[n];
    df[n] = fb[n] - fa[n];
  }
  to_characteristic(e, du, dw);
  to_characteristic(e, df, dg);
}

// Lax-Friedrichs split flux differences of one field, doubled (see the
// top of this file): dg +- alpha dw = 2 df+-.
KOKKOS_FORCEINLINE_FUNCTION Real split_plus(Real dg, Real dw, Real alpha) { return math::mul_add(alpha, dw, dg); }
KOKKOS_FORCEINLINE_FUNCTION Real split_minus(Real dg, Real dw, Real alpha) { return math::mul_add(-alpha, dw, dg); }

// The two weights phi needs (omega_0, omega_2) of the doubled split
// differences a, b, c, d; eps is the textbook epsilon (of undoubled
// differences). The smoothness indicators are 12/13 of Jiang & Shu's
// eq. 2.9 (x^2 + 3/13 y^2: an FMA and two multiplies, where 13 x^2 + 3 y^2
// took three), times 4 for the doubling; the weights depend only on the
// ratios of the eps + is_k, so eps is scaled alike.
template <WenoWeights W>
KOKKOS_INLINE_FUNCTION void weno_weights(Real a, Real b, Real c, Real d, Real eps, Real& w0, Real& w2) {
  // 4/13 is 4 times 1/13 exactly: the weights of (2a, .., eps) are those of
  // (a, .., eps) with eps / 13 in place of 4 eps / 13.
  eps = Real(4.0 / 13.0) * eps;
  constexpr Real k = Real(3.0 / 13.0);
  const Real ab = a - b, a3b = math::mul_add(Real(-3), b, a);
  const Real bc = b - c, bpc = b + c;
  const Real cd = c - d, c3d = math::mul_add(Real(3), c, -d);
  const Real is0 = math::mul_add(ab, ab, k * a3b * a3b);
  const Real is1 = math::mul_add(bc, bc, k * bpc * bpc);
  const Real is2 = math::mul_add(cd, cd, k * c3d * c3d);
  // The unnormalised weights a_k are scaled by a common factor so that one
  // division normalises them (divisions dominate the cost of a face on
  // GPUs). In float the products could overflow: there the textbook form.
  // a1 is only summed: an FMA adds it.
  const Real e0 = eps + is0, e1 = eps + is1, e2 = eps + is2;
  Real a0, a2, sum;
  if constexpr (W == WenoWeights::z) {
    // WENO-Z: a_k = d_k (1 + tau / (eps + is_k)), tau = |is0 - is2| lifts
    // smooth extrema to the linear weights; scaled by e0 e1 e2.
    const Real tau = math::fabs(is0 - is2);
    if constexpr (sizeof(Real) == 8) {
      a0 = (e0 + tau) * (e1 * e2);
      a2 = Real(3) * ((e2 + tau) * (e0 * e1));
      sum = math::mul_add(Real(6) * (e1 + tau), e0 * e2, a0 + a2);
    } else {
      a0 = Real(1) + tau / e0;
      a2 = Real(3) * (Real(1) + tau / e2);
      sum = math::mul_add(Real(6), Real(1) + tau / e1, a0 + a2);
    }
  } else {
    // Jiang-Shu: a_k = d_k / (eps + is_k)^2, scaled by (e0 e1 e2)^2.
    if constexpr (sizeof(Real) == 8) {
      const Real s0 = e0 * e0, s1 = e1 * e1, s2 = e2 * e2;
      a0 = s1 * s2;
      a2 = Real(3) * (s0 * s1);
      sum = math::mul_add(Real(6) * s0, s2, a0 + a2);
    } else {
      const Real t0 = Real(1) / e0, t1 = Real(1) / e1, t2 = Real(1) / e2;
      a0 = t0 * t0;
      a2 = Real(3) * (t2 * t2);
      sum = math::mul_add(Real(6) * t1, t1, a0 + a2);
    }
  }
  const Real inv = Real(1) / sum;
  w0 = a0 * inv;
  w2 = a2 * inv;
}

// Jiang & Shu's phi of the differences a, b, c, d, taken doubled: its
// constants 1/3 and 1/6 halved (exactly) give phi of the undoubled ones.
// The second differences as differences of a - b, b - c, c - d, which the
// weights of the same a, b, c, d formed (one subtraction each, not two).
KOKKOS_FORCEINLINE_FUNCTION Real weno_phi(Real w0, Real w2, Real a, Real b, Real c, Real d) {
  return math::mul_add(w0 * ((a - b) - (b - c)), Real(1) / Real(6),
                       (w2 - Real(0.5)) * ((b - c) - (c - d)) * (Real(1) / Real(12)));
}

// Characteristic correction of one field from its split differences.
KOKKOS_FORCEINLINE_FUNCTION Real weno_correction(Real w0p, Real w2p, const Real ap[4], Real w0m, Real w2m,
                                                 const Real am[4]) {
  // ap = df+ at j-3/2 .. j+3/2; am = df- at j+5/2 .. j-1/2 (mirrored).
  return weno_phi(w0m, w2m, am[0], am[1], am[2], am[3]) - weno_phi(w0p, w2p, ap[0], ap[1], ap[2], ap[3]);
}

// Split differences of field s in the order weno_weights/weno_correction
// take them.
KOKKOS_FORCEINLINE_FUNCTION void split_differences(const Real dw[kWenoDiffs][NHYDRO],
                                                   const Real dg[kWenoDiffs][NHYDRO], Real alpha, int s,
                                                   Real ap[4], Real am[4]) {
  for (int m = 0; m < 4; ++m) ap[m] = split_plus(dg[m][s], dw[m][s], alpha);
  for (int m = 0; m < 4; ++m) am[m] = split_minus(dg[4 - m][s], dw[4 - m][s], alpha);
}

// The correction of one field from the five characteristic differences of
// its stencil (state dw, flux dg) and its LLF speed: split_differences,
// weno_weights and weno_correction in one, for kernels that hold one field
// (the FD segments kernels, hydro and MHD).
template <WenoWeights W>
KOKKOS_INLINE_FUNCTION Real wave_correction_of(const Real dw[kWenoDiffs], const Real dg[kWenoDiffs], Real alpha,
                                               Real eps) {
  Real ap[4], am[4], w0p, w2p, w0m, w2m;
  for (int m = 0; m < 4; ++m) ap[m] = split_plus(dg[m], dw[m], alpha);
  for (int m = 0; m < 4; ++m) am[m] = split_minus(dg[4 - m], dw[4 - m], alpha);
  weno_weights<W>(ap[0], ap[1], ap[2], ap[3], eps, w0p, w2p);
  weno_weights<W>(am[0], am[1], am[2], am[3], eps, w0m, w2m);
  return weno_correction(w0p, w2p, ap, w0m, w2m, am);
}

KOKKOS_FORCEINLINE_FUNCTION Real central4(Real f1, Real f2, Real f3, Real f4) {
  return math::mul_add(Real(7), f2 + f3, -(f1 + f4)) * (Real(1) / Real(12));
}

// Face flux = central part of cells 1..4 + R (characteristic corrections).
KOKKOS_INLINE_FUNCTION void assemble_face_flux(const EigenSystem& e, const Real f1[NHYDRO],
                                               const Real f2[NHYDRO], const Real f3[NHYDRO],
                                               const Real f4[NHYDRO], const Real corr[NHYDRO],
                                               Real fhat[NHYDRO]) {
  Real back[NHYDRO];
  from_characteristic(e, corr, back);
  for (int n = 0; n < NHYDRO; ++n) fhat[n] = central4(f1[n], f2[n], f3[n], f4[n]) + back[n];
}

// The WENO corrections of the five characteristic fields of a face from
// its characteristic differences and LLF speeds.
template <WenoWeights W>
KOKKOS_FORCEINLINE_FUNCTION void weno_corrections(const FdOptions& o, const Real dw[kWenoDiffs][NHYDRO],
                                                  const Real dg[kWenoDiffs][NHYDRO], const Real alpha[3],
                                                  Real corr[NHYDRO]) {
  for (int s = 0; s < NHYDRO; ++s) {
    Real ap[4], am[4], w0p, w2p, w0m, w2m;
    split_differences(dw, dg, alpha_of_field(alpha, s), s, ap, am);
    weno_weights<W>(ap[0], ap[1], ap[2], ap[3], o.epsilon, w0p, w2p);
    weno_weights<W>(am[0], am[1], am[2], am[3], o.epsilon, w0m, w2m);
    corr[s] = weno_correction(w0p, w2p, ap, w0m, w2m, am);
  }
}

}  // namespace ax
