// The CFL condition cell by cell, as a signal rate: dt = 1 / (the largest
// rate of the domain), one division a step instead of one a cell and axis
// (dx_d / (|v_d| + c) as Athena++ writes it). The reduction reads the state
// once (backend/loops.hpp: par_max); H200, 256^3 hydro: 0.257 -> 0.220 ms.
// Tried (2026-12-04, H200, the 256^3 linear wave, RK2): folding the
// reduction into the last stage of the fused tiles kernel, each cell's rate
// reduced as it was written. With a first form of the one-kernel periodic
// ghosts (backend/halo.cpp) the step took 6.58 ms against 6.17 in steps
// alone: the kernel waits on its FP64 chains, and the rate's division and
// square root joined them, where the reduction it saved cost 0.26 ms.
#pragma once

#include <limits>

#include "backend/grid.hpp"
#include "hydro/eos.hpp"

namespace ax {

// What a cell's rate needs of the grid: 1 / dx along the active axes, and
// how the axes combine.
struct CflAxes {
  bool active[3];
  Real inv_dx[3];
  // The FD form: sum_d (|v_d| + c) / dx_d; else (Athena++) the largest term.
  bool sum_axes;
};

inline CflAxes cfl_axes(const Grid& g, bool sum_axes) {
  CflAxes a{};
  for (int d = 0; d < 3; ++d) {
    a.active[d] = g.active(d);
    a.inv_dx[d] = Real(1) / g.dx[d];
  }
  a.sum_axes = sum_axes;
  return a;
}

// A broken cell (NaN, density <= 0) has the largest rate there is: the
// step 1 / rate is then 0 and the run stops (a max() would drop a NaN).
constexpr Real kBrokenRate = std::numeric_limits<Real>::infinity();

// (|v_d| + c) / dx_d of cell u (conserved), combined over the active axes;
// the time step at CFL number 1 is 1 / (the largest rate of the domain).
KOKKOS_INLINE_FUNCTION Real cell_signal_rate(const IdealGas& eos, const CflAxes& a, const Real u[NHYDRO]) {
  Real w[NHYDRO];
  cons_to_prim(eos, u, w);
  // 1 / rho as cons_to_prim forms it (the compiler shares the division).
  const Real c = eos.sound_speed_inv_rho(Real(1) / u[IDN], w[IPR]);
  Real rate = 0;
  for (int d = 0; d < 3; ++d) {
    if (!a.active[d]) continue;
    const Real r = (math::fabs(w[IVX + d]) + c) * a.inv_dx[d];
    rate = a.sum_axes ? rate + r : math::fmax(rate, r);
  }
  const Real speed = math::fabs(w[IVX]) + math::fabs(w[IVY]) + math::fabs(w[IVZ]) + c;
  if (!(speed == speed) || !(w[IDN] > Real(0))) rate = kBrokenRate;
  return rate;
}

// The time step at CFL number 1 from the largest rate: 0 for a broken
// state, infinite for one where nothing moves (the caller stops either).
inline Real cfl_dt_from_rate(Real rate) { return Real(1) / rate; }

}  // namespace ax
