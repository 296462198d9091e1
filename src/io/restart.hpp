// Checkpoints: one HDF5 file holding everything a continued run needs to be
// indistinguishable from an uninterrupted one. The state is stored as
// global arrays (conserved cell variables [nvar, nz, ny, nx], and for MHD
// the face fields x1f [nz, ny, nx+1], x2f, x3f) in full precision, so a run
// may continue on another number of ranks; with it the time, the step, the
// output and checkpoint schedules, the floor counter, the largest div B seen
// and the resolved config.
//
// Files: <basename>.NNNNN.rst on the schedule (output.restart_dt,
// output.restart_every_steps), <basename>.final.rst at the end of a run and
// when it is stopped (signals, --wall-time). Written under a temporary name,
// flushed and renamed (io/hdf5_file.hpp).
#pragma once

#include <cstdint>
#include <string>

#include "backend/comm.hpp"
#include "backend/grid.hpp"
#include "backend/state.hpp"
#include "config/config.hpp"

namespace ax {

// The run's counters besides the state.
struct RunCounters {
  double time = 0;
  long long steps = 0;
  double last_dt = 0;         // of the step that led here (the next one follows from the state)
  int snapshot_index = 0;     // index of the next regular snapshot
  double next_output = 0;     // time of the next output.dt snapshot
  int restart_index = 0;      // index of the next scheduled checkpoint
  double next_restart = 0;    // time of the next output.restart_dt checkpoint
  long long floor_hits = 0;
  double max_div_b = 0;
  double initial_b = 0;  // largest |B| of the run's initial state, div B's scale (0: not stored)
  // Reading: the checksum of the data (io/checksum.hpp) the file stores
  // (has_checksum: it stores one) and that of the part this rank read;
  // the caller sums the parts over the ranks and compares.
  bool has_checksum = false;
  std::uint64_t stored_checksum = 0, read_checksum_part = 0;
};

// Collective. `u` holds the state with ghosts (cells and, for MHD, faces).
void write_restart(const std::string& path, const Grid& g, const Comm& comm, const Config& cfg, const State& u,
                   const RunCounters& counters);

// Reads the checkpoint `path` into the interior of `u` and `counters`.
// Throws ConfigError (exit 2) for a file that is not a complete astronomix
// checkpoint of this problem (unreadable, truncated, foreign, another grid
// or equation set) or a config that differs from the checkpoint's in a key
// that may not change on restart (see restart_safe_key).
void read_restart(const std::string& path, const Grid& g, const Comm& comm, const Config& cfg, const State& u,
                  RunCounters* counters);
// Where a checkpoint stands.
struct CheckpointPlace {
  double time = 0;
  long long steps = 0;
  bool checksum_verified = false;  // RestartData::verify on a file that stores one
  // The checksum then verified: the same for checkpoints of the same data
  // (written by any number of ranks; io/checksum.hpp).
  std::uint64_t checksum = 0;
};
// The checks of read_restart that need no grid (the file, its format, the
// config, an end the checkpoint has not reached), so that a run refuses a
// checkpoint before it writes anything and `check --restart` can say so.
// RestartData::verify also reads the data and compares their checksum (a
// run does that as it reads them; `check` reads them for this alone).
enum class RestartData { unread, verify };
CheckpointPlace check_restart(const std::string& path, const Config& cfg, RestartData data = RestartData::unread);
// The refusal of a checkpoint whose data do not match its checksum.
std::string damaged_text(const std::string& path);
// The resolved config a checkpoint was made with (its Config attribute),
// for a restart given no config file, as Athena++'s `-r file.rst`. Throws
// ConfigError for a file that is not an astronomix checkpoint this build
// reads.
std::string checkpoint_config_text(const std::string& path);

// For a restart given no config file: its output.directory (relative ones
// are taken from the current directory) must be where the checkpoint lies,
// unless --set says otherwise, or the continued run's history and
// snapshots would start anew elsewhere. Throws ConfigError.
void check_stored_output_dir(const Config& cfg, const std::string& checkpoint);

// Keys a restarted run may change: the end (time.end, time.max_steps), the
// outputs (output.*), the decomposition (mesh.ranks), how the same numbers
// are computed (solver.backend, solver.fused_layout, mesh.overlap_exchange,
// which give the same bits, and mesh.gpu_aware_mpi), and what carries on a run that broke down
// (time.cfl, physics.density_floor, physics.pressure_floor).
bool restart_safe_key(const std::string& dotted_key);
// The same keys as a phrase ("time.end, ..., output.* and ..."), for the
// refusal message and --help.
std::string restart_safe_keys_text();

}  // namespace ax
