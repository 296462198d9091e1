// The pieces of a fused FV hydro stage that every layout computes the same
// way, so that cells, tiles and the native path give the same bits: a
// cell's primitives, one face's flux from the four cells around it, and a
// cell's flux difference along one axis.
#pragma once

#include "fv/fv_options.hpp"
#include "fv/plm.hpp"
#include "hydro/eos.hpp"
#include "hydro/floors.hpp"
#include "hydro/gravity.hpp"
#include "time/stage_combination.hpp"
#include "hydro/riemann.hpp"

namespace ax {

// Primitive state of cell (k, j, i).
KOKKOS_FORCEINLINE_FUNCTION void load_prim(const IdealGas& eos, const Array4& u, int k, int j, int i,
                                           Real w[NHYDRO]) {
  Real c[NHYDRO];
  for (int n = 0; n < NHYDRO; ++n) c[n] = u(n, k, j, i);
  cons_to_prim(eos, c, w);
}

// Flux (face frame, slot 1 = normal) through the face between cells w1 and
// w2 along D, from the primitive states w0 .. w3 of the four cells around
// it (w0 and w3 unused by donor cell, ORDER 1).
template <int D, int ORDER, Limiter L, RiemannSolver RS>
KOKKOS_FORCEINLINE_FUNCTION void fused_face_flux(const IdealGas& eos, const Real w0[NHYDRO], const Real w1[NHYDRO],
                                                 const Real w2[NHYDRO], const Real w3[NHYDRO], Real f[NHYDRO]) {
  Real c0[NHYDRO], c1[NHYDRO], c2[NHYDRO], c3[NHYDRO], l[NHYDRO], r[NHYDRO];
  for (int s = 0; s < NHYDRO; ++s) {  // the face frame
    const int n = face_slot(D, s);
    c0[s] = ORDER == 2 ? w0[n] : Real(0);
    c1[s] = w1[n];
    c2[s] = w2[n];
    c3[s] = ORDER == 2 ? w3[n] : Real(0);
  }
  face_states<ORDER, L, NHYDRO>(c0, c1, c2, c3, l, r);
  riemann_flux<RS>(eos, l, r, f);
}

// acc -= (F(+1/2) - F(-1/2)) / dx along D, fluxes in the face frame.
template <int D>
KOKKOS_FORCEINLINE_FUNCTION void add_flux_difference(const Real fm[NHYDRO], const Real fp[NHYDRO], Real inv_dx,
                                                     Real acc[NHYDRO]) {
  for (int s = 0; s < NHYDRO; ++s) acc[face_slot(D, s)] -= (fp[s] - fm[s]) * inv_dx;
}

// The end of the stage at cell (k, j, i): out = a u0 + b in + c_dt rate,
// then the floors; returns whether a floor was needed.
KOKKOS_FORCEINLINE_FUNCTION bool finish_fused_rate(const IdealGas& eos, const Floors& fl, Real a, Real b, Real c_dt,
                                                   const Array4& u0, const Array4& in, const Array4& out,
                                                   const Real rate[NHYDRO], int k, int j, int i) {
  Real r[NHYDRO];
  for (int n = 0; n < NHYDRO; ++n) r[n] = stage_combination(a, u0(n, k, j, i), b, in(n, k, j, i), c_dt, rate[n]);
  const bool hit = apply_floors(eos, fl, r);
  for (int n = 0; n < NHYDRO; ++n) out(n, k, j, i) = r[n];
  return hit;
}

// The same with rate = acc + gravity's source, added after the flux
// differences as the native path adds it; without gravity, acc as it is.
// (callgrind, FvStep/fused/32 on one core: the instructions of a step
// within 0.3% of the code before gravity.)
KOKKOS_FORCEINLINE_FUNCTION bool finish_fused_cell(const IdealGas& eos, const Floors& fl, const Gravity& grav, Real a,
                                                   Real b, Real c_dt, const Array4& u0, const Array4& in,
                                                   const Array4& out, const Real acc[NHYDRO], int k, int j, int i) {
  if (!grav.on()) return finish_fused_rate(eos, fl, a, b, c_dt, u0, in, out, acc, k, j, i);
  Real rate[NHYDRO];
  for (int n = 0; n < NHYDRO; ++n) rate[n] = acc[n];
  add_gravity_to(grav, Real(1), in(IDN, k, j, i), in(IM1, k, j, i), in(IM2, k, j, i), in(IM3, k, j, i), rate);
  return finish_fused_rate(eos, fl, a, b, c_dt, u0, in, out, rate, k, j, i);
}

}  // namespace ax
