// What the time loop needs from a solver family (FV hydro and MHD in src/fv,
// FD in src/fd): one Runge-Kutta stage, and what to report about itself.
// The families implement it; the driver builds them (driver/solver_factory.hpp).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "backend/grid.hpp"
#include "backend/loops.hpp"
#include "backend/state.hpp"
#include "config/config.hpp"
#include "time/stages.hpp"

namespace ax {

// The registers of a stage (time/stages.hpp). `out` may be `in` only for
// in-place (2N) schemes, and may be `u0`; `r` is empty unless the scheme
// uses R. Ghosts of `in` (cells and, for MHD, faces) are filled.
struct StageBuffers {
  State u0, in, out, r;
};

// Which path a solver family runs and why (the run header prints it).
struct HydroPath {
  bool fused = false;
  std::string name;    // "native", "fused (...)"
  std::string reason;  // why that path
};

// Applies `solver.backend` to the family predicate's verdict (`fused_ok`,
// `why`); throws ConfigError if `fused` is asked for and not supported.
// `fused_name` names the family's fused variant.
HydroPath choose_hydro_path(const Config& cfg, bool fused_ok, const std::string& why,
                            const std::string& fused_name);

// solver.fused_layout names FV's three layouts; the FD solvers have per-axis
// sweeps (faces for hydro, pencils for MHD) and tiles (segments). FV's cells
// has no FD form: FD takes auto's choice for it, and choose_fd_path's reason
// says so (it fell back to the native path before, without a word).
inline FusedLayout fd_fused_layout(const Config& cfg) {
  return cfg.fused_layout == FusedLayout::cells ? FusedLayout::automatic : cfg.fused_layout;
}
HydroPath choose_fd_path(const Config& cfg, bool fused_ok, const std::string& why, const std::string& fused_name);

class HydroSolver {
 public:
  virtual ~HydroSolver() = default;
  // Runs stage `st` of size dt, floors included; returns the floor
  // activations it counted on the host. Paths that count them in a device
  // counter (FV hydro's fused cells and tiles, every FV MHD fused layout)
  // return 0 and keep theirs for
  // take_device_floor_hits: reading a count after every stage made the host
  // wait for each stage's last kernel before it could launch the next.
  virtual long long stage(const Stage& st, Real dt, const StageBuffers& b) = 0;
  // The largest sum over axes of signal speed / dx (cfl / the CFL step),
  // given before each step, for terms that act per unit time.
  virtual void set_signal_rate(Real) {}
  // The floor activations counted on the device since the last call (the
  // read waits for the device); 0 where the stages count on the host.
  virtual long long take_device_floor_hits() { return 0; }
  // Bytes of the arrays the solver allocated (workspace, accumulators).
  virtual std::int64_t array_bytes() const = 0;
  virtual std::string scheme() const = 0;  // e.g. "plm + van_leer + hllc"
  virtual const char* family() const = 0;  // "fv" or "fd"
  // FD MHD keeps the cell-centred field as an interpolation of the faces:
  // the driver calls rebuild_cell_field after filling the ghosts of a state
  // it set or is about to report (initial conditions, output).
  virtual bool rebuilds_cell_field() const { return false; }
  virtual void rebuild_cell_field(const State&) {}
  // Stages that compute each cell alike over any part of the interior and
  // read ghosts along each axis only (not those of edges and corners) can
  // overlap the ghost exchange (GhostExchange::begin/finish): "" if this
  // solver's can, else why not.
  virtual std::string box_stage_refusal() const { return "the " + path() + " path runs whole stages"; }
  // Stage `st` on the cells of `box` only, its floor activations added to
  // `hits` (on a GPU the launch does not wait for them). Only when
  // box_stage_refusal() is "".
  virtual void stage_box(const Stage& st, Real dt, const StageBuffers& b, const Box& box, const DeviceCount& hits);

  bool fused() const { return path_.fused; }
  const std::string& path() const { return path_.name; }
  const std::string& reason() const { return path_.reason; }

 protected:
  explicit HydroSolver(HydroPath path) : path_(std::move(path)) {}

 private:
  HydroPath path_;
};


}  // namespace ax
