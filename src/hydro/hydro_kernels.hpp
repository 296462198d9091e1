// Pointwise and reduction kernels of the hydro driver: time step, stage
// combination, floors and the totals of the history file.
#pragma once

#include "backend/comm.hpp"
#include "backend/grid.hpp"
#include "hydro/eos.hpp"
#include "hydro/floors.hpp"

namespace ax {

// The largest signal rate (|v_d| + c) / dx_d over the interior's cells
// and active axes (as Athena++), or with `sum_axes` the largest sum over
// the axes (as the FD solver defines its CFL number); kBrokenRate if a
// cell is broken (hydro/cfl.hpp: cell_signal_rate).
Real local_signal_rate(const Grid& g, const IdealGas& eos, const Array4& u, bool sum_axes = false);
// Largest stable step at CFL number 1 over the interior: 1 / that rate
// (0 for a broken state).
Real local_cfl_dt(const Grid& g, const IdealGas& eos, const Array4& u, bool sum_axes = false);

// out = a u0 + b in + c dt du over the interior (out may be u0 or in).
void stage_update(const Grid& g, Real a, Real b, Real c_dt, const Array4& u0, const Array4& in,
                  const Array4& out, const Array4& du);

// Raises density and pressure to their floors; returns how many cells needed it.
long long apply_floors(const Grid& g, const IdealGas& eos, const Floors& floors, const Array4& u);

struct Totals {
  double mass = 0, mom[3] = {0, 0, 0}, energy = 0;
  double kinetic[3] = {0, 0, 0};  // of m_d^2 / (2 rho), as Athena++'s 1-KE, 2-KE, 3-KE
  double rho_min = 0, rho_max = 0;
};
// Volume-integrated totals (kinetic energy per axis too) and density extrema over every rank's interior;
// the sums are the same bits for any decomposition (backend/reproducible_sum.hpp).
Totals global_totals(const Comm& c, const Grid& g, const Array4& u);

}  // namespace ax
