// Pointwise and reduction kernels over an MHD state's cells: the CFL time
// step with fast magnetosonic speeds, the floors, and the totals of the
// history file.
#pragma once

#include "backend/comm.hpp"
#include "backend/grid.hpp"
#include "hydro/eos.hpp"
#include "hydro/floors.hpp"

namespace ax {

// Largest stable step at CFL number 1: 1 / the largest (|v_d| + c_f,d) /
// dx_d over the interior's cells and active axes (hydro/cfl.hpp); 0 if a
// cell is broken (NaN, density or pressure <= 0), so the run stops.
// sum_axes: the FD form (as local_cfl_dt), the rates summed over the axes.
Real mhd_local_cfl_dt(const Grid& g, const IdealGas& eos, const Array4& u, bool sum_axes = false);

// Density and pressure floors (the magnetic energy is kept); returns how
// many cells needed them.
long long mhd_apply_floors(const Grid& g, const IdealGas& eos, const Floors& floors, const Array4& u);

// Volume integrals of B_d^2 / 2 over every rank's interior, the same bits
// for any decomposition (backend/reproducible_sum.hpp).
void mhd_magnetic_energy(const Comm& c, const Grid& g, const Array4& u, double energy[3]);

}  // namespace ax
