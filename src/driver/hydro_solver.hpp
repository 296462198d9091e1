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
  virtual std::string scheme() const = 0;  // e.g. "plm + van_leer + hllc"
  virtual const char* family() const = 0;  // "fv" or "fd"

  bool fused() const { return fused_; }
  const std::string& path() const { return path_; }      // "native", "fused (...)"
  const std::string& reason() const { return reason_; }  // why that path

 protected:
  // Applies `solver.backend` to the family's predicate verdict (`fused_ok`,
  // `why`) and records the outcome; throws ConfigError if `fused` is asked
  // for and not supported. `fused_path` names the fused variant.
  void choose_path(const Config& cfg, bool fused_ok, const std::string& why, const std::string& fused_path);

 private:
  bool fused_ = false;
  std::string path_, reason_;
};

std::unique_ptr<HydroSolver> make_hydro_solver(const Config& cfg, const Grid& grid);

}  // namespace ax
