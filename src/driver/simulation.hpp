// One simulation: the state, the solver, the time loop, and its outputs.
//
// One step: for each stage of the integrator (time/stages.hpp)
//   ghost exchange + physical boundaries -> the stage's combination of U0,
//   in, dt L(in) (and R) -> floors; the solver family (src/fv or src/fd)
//   runs it fused or native.
// The time step is the global minimum of the CFL condition, an exact
// reduction, so results do not depend on the number of ranks.
#pragma once

#include <cmath>
#include <cstdint>
#include <fstream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "backend/comm.hpp"
#include "backend/grid.hpp"
#include "backend/halo.hpp"
#include "backend/state.hpp"
#include "config/config.hpp"
#include "time/stages.hpp"
#include "driver/exchange_overlap.hpp"
#include "driver/solver_factory.hpp"
#include "driver/memory_plan.hpp"

namespace ax {

// Whether a CFL step can be taken: once the state breaks down (a negative
// pressure, a NaN) the step is not positive or not finite. The run stops
// on it; the benchmarks refuse to time such a state.
inline bool usable_step(Real dt) { return dt > 0 && std::isfinite(double(dt)); }

// How a run starts and when it must stop early.
struct RunOptions {
  std::string restart;      // checkpoint to continue from; "" starts from the initial conditions
  double wall_time_s = 0;   // stop with a checkpoint before this much wall time (0: no limit)
  double started_at = 0;    // MPI_Wtime() when the program started, for wall_time_s
  bool overwrite = false;   // a new run removes an earlier run's files first (driver/earlier_run.hpp)
};

struct RunSummary {
  std::int64_t cells = 0;
  long long steps = 0;
  double sim_time = 0;
  double wall_s = 0;          // evolution loop, outputs included
  double step_wall_s = 0;     // inside step() only
  double cell_updates_per_s = 0;
  long long floor_hits = 0;
  std::int64_t host_peak_bytes_max = 0;  // max over ranks
  std::int64_t device_peak_bytes = -1;   // rank 0's GPU, -1 without GPU
  std::int64_t state_bytes = 0;          // one conserved state, all ranks
  std::int64_t array_bytes = 0;          // all arrays the solver allocated, all ranks
  double div_b_max = 0;                   // MHD: largest normalised div B seen
  std::vector<std::string> snapshots;
  std::vector<std::string> checkpoints;
  long long steps_this_run = 0;           // steps since the start or restart
  std::string stopped_by;                 // "" or why the run stopped before its end
  std::string ended_by;                   // time.end, time.max_steps, or stopped_by
};

class Simulation {
 public:
  Simulation(const Config& cfg, const Comm& comm, bool verbose);

  // Initial conditions (no output); ConfigError if FD MHD's field threads a
  // reflecting wall or the problem's values give no state to evolve.
  void initialize();
  // The state and counters of checkpoint `path` (collective; ConfigError on
  // every rank if it cannot be used).
  void restore(const std::string& path);
  void step(Real dt);         // one full step of size dt
  Real next_dt();             // CFL step, global, clipped to the end time
  Real cfl_dt();              // CFL step, global (not positive and finite once the state breaks down);
                              // kept for the next step's signal rate
  // Initialize (or restore), evolve to the end or until stopped, write
  // outputs. Throws RunStopped (exit 3) on every rank if the state breaks down.
  RunSummary run(const RunOptions& opt = {});

  const Grid& grid() const { return grid_; }
  const Comm& comm() const { return comm_; }
  const Config& config() const { return cfg_; }
  const Array4& state() const { return u_.u; }  // the cell variables
  const State& full_state() const { return u_; }
  double time() const { return time_; }
  long long steps() const { return steps_; }
  // This rank's floor activations so far (the fused paths keep theirs on
  // the device until asked: this waits for it).
  long long floor_hits() {
    collect_floor_hits();
    return floor_hits_;
  }
  const HydroSolver& hydro() const { return *hydro_; }

  // Bytes of every array this rank allocated on the device (state, stage
  // buffers, solver workspace, halo buffers): the solver's memory footprint.
  std::int64_t array_bytes() const;

  // MHD: the normalised div B of the face field now, max |div B| dx_min /
  // max |B| over all ranks (collective).
  double div_b();
  // Largest |div B| dx_min and largest |B| of the state, over all ranks.
  std::pair<double, double> div_b_and_field();
  // FD MHD: ghosts filled and the cell-centred field rebuilt from the faces
  // (idempotent: the next stage would do the same), so what is reported
  // is what the scheme evolves.
  void sync_cell_field();
  std::string output_plan(bool continuing) const;  // the header's output line

  // Writes a snapshot now (collective); returns its path.
  std::string write_snapshot(bool sequential = false);
  // Writes a checkpoint (collective): the next on the schedule, or
  // <basename>.final.rst; returns its path.
  std::string write_checkpoint(bool final);
  // Adds the floor activations the solver and the overlapped stages'
  // boxes counted on the device to floor_hits_ (waits for the device).
  void collect_floor_hits();

 private:
  void log(const std::string& line) const;
  // FD MHD: throws ConfigError if the field threads a reflecting wall.
  void refuse_threaded_reflecting_walls() const;
  void open_history(bool continuing);
  void write_history_line(Real dt);
  [[noreturn]] void stop_broken(Real dt);
  [[noreturn]] void refuse_unusable_initial_state(Real dt) const;
  void print_header(bool continuing) const;
  [[noreturn]] void refuse_wall_time_without_steps(const RunOptions& opt) const;
  void write_summary(const RunSummary& s) const;

  Config cfg_;
  Comm comm_;
  bool verbose_;
  Grid grid_;
  MemoryPlan plan_;  // made before any array is allocated; the summary compares
  // u_ holds the state between steps (and the state at the start of a step
  // while its stages run); stages write into work_ and the last one back
  // into u_, which each cell reads only at itself. 2N schemes update u_ in
  // place and need no work_; SSP-RK(5,4) also keeps the register r_.
  State u_;
  std::vector<State> work_;
  State r_;
  GhostExchange ghosts_;
  std::unique_ptr<HydroSolver> hydro_;
  ExchangeOverlap overlap_;
  std::vector<DeviceCount> box_hits_;  // floor counts of the core and shell boxes, not yet collected
  Scheme scheme_;
  double time_ = 0;
  long long steps_ = 0;
  // cfl / cfl_dt() of the CFL step formed since the last step: the largest
  // signal rate, for solver terms that act per unit time (FD MHD's field
  // filter). step() passes it on and clears it, or cfl / dt where none was
  // formed (a caller's own dt); initialize and restore clear it.
  Real signal_rate_ = 0;
  double last_dt_ = 0;
  long long floor_hits_ = 0;
  double max_div_b_ = 0;
  double initial_b_ = 0;  // largest |B| of the initial state: div B's scale where the field has left
  int snapshot_index_ = 0;
  double next_out_ = 1e300;     // time of the next output.dt snapshot
  int restart_index_ = 0;
  double next_restart_ = 1e300;  // time of the next output.restart_dt checkpoint
  std::int64_t device_peak_ = -1;
  std::ofstream history_;
};

}  // namespace ax
