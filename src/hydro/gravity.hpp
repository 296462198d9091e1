// A constant gravitational acceleration g (Athena++'s <hydro> grav_acc1..3,
// `physics.gravity` here): the source S = (0, rho g, m . g) of the density,
// momentum and total energy, taken unsplit from each stage's input state,
// as every other term of the stage. The energy has no potential term: the
// history's total energy changes by the work gravity does.
#pragma once

#include "backend/grid.hpp"

namespace ax {

struct Gravity {
  Real g[3] = {0, 0, 0};
  KOKKOS_INLINE_FUNCTION bool on() const { return g[0] != 0 || g[1] != 0 || g[2] != 0; }
};

// The solvers' copy of the config's physics.gravity.
inline Gravity gravity_of(const Real g[3]) { return Gravity{{g[0], g[1], g[2]}}; }

// The source of one cell, scaled: s[d] = scale rho g_d for the momenta
// (d = 0, 1, 2), s[3] = scale m . g for the energy (the momenta summed x,
// y, z). Shared by every path that adds it.
KOKKOS_FORCEINLINE_FUNCTION void gravity_source(const Gravity& grav, Real scale, Real rho, Real mx, Real my, Real mz,
                                                Real s[4]) {
  s[0] = scale * (rho * grav.g[0]);
  s[1] = scale * (rho * grav.g[1]);
  s[2] = scale * (rho * grav.g[2]);
  s[3] = scale * (mx * grav.g[0] + my * grav.g[1] + mz * grav.g[2]);
}

// x[IM1..IEN] += the source, scaled, where gravity is on: the fused paths'
// form of add_gravity for one cell (the same operations, so the same bits).
KOKKOS_FORCEINLINE_FUNCTION void add_gravity_to(const Gravity& grav, Real scale, Real rho, Real mx, Real my, Real mz,
                                                Real* x) {
  if (!grav.on()) return;
  Real s[4];
  gravity_source(grav, scale, rho, mx, my, mz, s);
  for (int m = 0; m < 4; ++m) x[IM1 + m] += s[m];  // IM1, IM2, IM3, IEN
}

// du += scale S(u) over the interior. FV passes scale 1 (du is a rate); FD
// passes dt, its increment being dt times the rate.
void add_gravity(const Grid& g, const Gravity& grav, Real scale, const Array4& u, const Array4& du);

}  // namespace ax
