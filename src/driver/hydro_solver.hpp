// What the time loop needs from a hydro solver family (FV in src/fv, FD in
// src/fd): one Runge-Kutta stage, and what to report about itself.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "backend/grid.hpp"
#include "config/config.hpp"
#include "driver/stages.hpp"

namespace ax {

// The registers of a stage (driver/stages.hpp). `out` may be `in` only for
// in-place (2N) schemes, and may be `u0`; `r` is empty unless the scheme
// uses R. Ghosts of `in` are filled.
struct StageBuffers {
  Array4 u0, in, out, r;
};

class HydroSolver {
 public:
  virtual ~HydroSolver() = default;
  // Runs stage `st` of size dt, floors included; returns the floor activations.
  virtual long long stage(const Stage& st, Real dt, const StageBuffers& b) = 0;
  // Bytes of the arrays the solver allocated (workspace, accumulators).
  virtual std::int64_t array_bytes() const = 0;
  virtual bool fused() const = 0;
  virtual const std::string& path() const = 0;    // "native", "fused (...)"
  virtual const std::string& reason() const = 0;  // why that path
  virtual std::string scheme() const = 0;         // e.g. "plm + van_leer + hllc"
  virtual const char* family() const = 0;         // "fv" or "fd"
};

std::unique_ptr<HydroSolver> make_hydro_solver(const Config& cfg, const Grid& grid);

// The path a family runs, from `solver.backend` and its predicate's verdict
// (`fused_ok`, `why`): fused when supported unless native is asked for.
// Throws ConfigError if `fused` is asked for and not supported.
struct PathChoice {
  bool fused;
  std::string reason;
};
PathChoice choose_path(const Config& cfg, bool fused_ok, const std::string& why);

}  // namespace ax
