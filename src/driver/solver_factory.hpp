// Builds the solver family a config asks for, and answers what it will
// allocate and which path it will take before anything is built: the one
// place that knows every family.
#pragma once

#include <cstdint>
#include <memory>

#include "time/hydro_solver.hpp"

namespace ax {

std::unique_ptr<HydroSolver> make_hydro_solver(const Config& cfg, const Grid& grid);

// Bytes the family's solver will allocate for this run (workspace and
// accumulators; what its array_bytes() reports once built), without
// allocating anything.
std::int64_t hydro_solver_planned_bytes(const Config& cfg, const Grid& grid);

// The path it will take (the same decision, made without building it).
// Throws ConfigError (naming solver.backend) if `fused` is asked for and the
// family's predicate rejects the run.
HydroPath planned_hydro_path(const Config& cfg, const Grid& grid);

}  // namespace ax
