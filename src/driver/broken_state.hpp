// When the state breaks down (a NaN, density or pressure <= 0): which cells,
// where, and what they hold, for the message the run stops with.
#pragma once

#include <string>

#include "backend/comm.hpp"
#include "backend/grid.hpp"
#include "config/config.hpp"

namespace ax {

// Collective. Lists the first offending cells over all ranks (by global
// index): the variable, its value, the global cell (i, j, k) and its
// coordinates, with the total number of offenders. Rank 0's text is the
// report; other ranks get "".
std::string broken_state_report(const Grid& g, const Comm& comm, const Config& cfg, const Array4& u);

}  // namespace ax
