// Whether a run overlaps the ghost exchange with interior work, and the
// boxes it then computes: the core (cells farther than the ghost depth
// from every face whose ghosts come from another rank), computed while the
// messages are in flight, and the shell around it, computed after they
// arrive. Each interior cell lies in exactly one box, and every box runs
// the same per-cell arithmetic, so the results equal a whole-stage run to
// the bit.
#pragma once

#include <string>
#include <vector>

#include "backend/halo.hpp"
#include "backend/loops.hpp"
#include "config/config.hpp"
#include "time/hydro_solver.hpp"

namespace ax {

struct ExchangeOverlap {
  bool on = false;
  std::string why;          // why on, or why not
  Box core;
  std::vector<Box> shell;   // at most two slabs per axis with messages
};

ExchangeOverlap plan_exchange_overlap(const Config& cfg, const Grid& grid, const GhostExchange& ghosts,
                                      const HydroSolver& solver);

}  // namespace ax
