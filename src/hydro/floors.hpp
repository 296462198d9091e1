// Density and pressure floors on one cell's conserved state, shared by the
// native floor kernel and the fused stage kernel.
#pragma once

#include "hydro/eos.hpp"

namespace ax {

struct Floors {
  Real density = 0;
  Real pressure = 0;
};

// Raises density, then pressure (through the energy, keeping the momentum)
// to the floors. Returns true if either was needed.
KOKKOS_INLINE_FUNCTION bool apply_floors(const IdealGas& eos, const Floors& f, Real u[NHYDRO]) {
  bool hit = false;
  if (u[IDN] < f.density) {
    u[IDN] = f.density;
    hit = true;
  }
  const Real ke = Real(0.5) * (u[IM1] * u[IM1] + u[IM2] * u[IM2] + u[IM3] * u[IM3]) / u[IDN];
  if (eos.gm1 * (u[IEN] - ke) < f.pressure) {
    u[IEN] = f.pressure / eos.gm1 + ke;
    hit = true;
  }
  return hit;
}

}  // namespace ax
