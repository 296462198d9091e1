// Density and pressure floors on one cell's conserved MHD state: the
// pressure floor raises the total energy and keeps the kinetic and the
// magnetic energy.
#pragma once

#include "hydro/floors.hpp"

namespace ax {

KOKKOS_INLINE_FUNCTION bool apply_mhd_floors(const IdealGas& eos, const Floors& f, Real u[NMHD]) {
  bool hit = false;
  if (u[IDN] < f.density) {
    u[IDN] = f.density;
    hit = true;
  }
  const Real ke = Real(0.5) * (u[IM1] * u[IM1] + u[IM2] * u[IM2] + u[IM3] * u[IM3]) / u[IDN];
  const Real me = Real(0.5) * (u[IB1] * u[IB1] + u[IB2] * u[IB2] + u[IB3] * u[IB3]);
  if (eos.gm1 * (u[IEN] - ke - me) < f.pressure) {
    u[IEN] = f.pressure / eos.gm1 + ke + me;
    hit = true;
  }
  return hit;
}

}  // namespace ax
