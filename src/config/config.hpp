// The validated run configuration. Everything the run needs is read here,
// before anything is computed or written, so that bad input fails early.
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "backend/boundary_kind.hpp"
#include "backend/types.hpp"
#include "fd/fd_options.hpp"
#include "fv/fv_options.hpp"
#include "time/integrator.hpp"

namespace ax {

class Problem;

enum class Backend { automatic, native, fused };
// How the fused FV kernel is laid out (src/fv/fv_fused.hpp).
enum class FusedLayout { automatic, cells, sweeps, tiles };  // FD hydro: tiles = segments

struct Config {
  std::string file;       // where it came from
  bool from_checkpoint = false;  // read from a checkpoint's Config attribute (a restart given no config file)
  std::string path;               // the config file, or the checkpoint that held it (`file` names it in messages)
  std::vector<std::string> sets;  // its --set overrides, in order (for the restart hint)
  std::string effective;  // resolved YAML (defaults and overrides applied)
  std::map<std::string, std::string> key_where;  // dotted key -> "file:line:col: key" (keys given), for messages
  std::set<std::string> keys_from_set;           // the keys of key_where whose value --set gave
  std::vector<std::string> warnings;             // valid but likely wrong settings, printed before a run or check

  // mesh
  int nx[3] = {1, 1, 1};
  Real xmin[3] = {0, 0, 0};
  Real xmax[3] = {1, 1, 1};
  int dims[3] = {1, 1, 1};  // process grid, resolved for the rank count
  std::string cells_where;  // "file:line:col: mesh.cells", for errors found later (memory)
  bool gpu_aware_mpi = false;
  bool overlap_exchange = true;  // interior work while ghost messages are in flight
  BoundaryKind bc[3][2];

  // time
  Real t_end = 0;
  long long max_steps = -1;
  Real cfl = 0.3;  // fv: of min_d dx_d / (|v_d| + c); fd: of 1 / sum_d ((|v_d| + c) / dx_d)
  Integrator integrator = Integrator::vl2;

  // physics
  bool mhd = false;  // ideal MHD: 8 cell variables and a face-centred field (src/ct)
  int nvar() const { return mhd ? NMHD : NHYDRO; }
  Real gamma = Real(5) / Real(3);
  IdealGas eos;  // the one equation of state; solvers copy it into their options
  Real density_floor = 0;
  Real pressure_floor = 0;
  Real gravity[3] = {0, 0, 0};  // constant acceleration (hydro/gravity.hpp); zero: none
  bool has_gravity() const { return gravity[0] != 0 || gravity[1] != 0 || gravity[2] != 0; }

  // solver
  std::string family = "fv";  // fv: finite volume (src/fv), fd: finite difference WENO5 (src/fd)
  int ghost = kFvGhost;       // ghost depth of the family's stencil
  int order = 2;  // 1: piecewise constant, 2: PLM
  FvOptions fv;
  FdOptions fd;
  Backend backend = Backend::automatic;
  std::string backend_where;  // "file:line:col: solver.backend", for the path check
  FusedLayout fused_layout = FusedLayout::automatic;

  // problem
  std::string problem_name;
  std::shared_ptr<const Problem> problem;

  // output
  std::string out_dir = ".";
  std::string basename = "out";
  Real out_dt = 0;               // 0: off
  long long out_every = 0;       // 0: off
  std::vector<std::string> out_vars = {"prim"};
  long long history_every = 1;   // 0: off
  long long progress_every = 10;
  bool write_files = true;       // tests switch output off
  bool sequential_io = false;    // HDF5 written rank by rank even if parallel
  // checkpoints (io/restart.hpp): every restart_dt in time and/or every
  // restart_every_steps steps, and at the end of the run
  Real restart_dt = 0;               // 0: off
  long long restart_every_steps = 0;  // 0: off
  bool restart_at_end = true;
};

// What loading a config does with output.directory: create it (a run,
// which then writes there) or only check that it could be created (`check`,
// which writes nothing).
enum class OutputDir { create, check_only };

// Reads, validates and resolves a config file. `overrides` are "a.b=value"
// strings from --set. `nranks` is the MPI size (for the process grid).
// Throws ConfigError with a complete message on any bad input.
Config load_config(const std::string& file, const std::vector<std::string>& overrides,
                   int nranks, OutputDir output_dir = OutputDir::create);

// Where `key` was given, for a message: "file:line:col: key" or "command
// line (--set ...): key"; "file: key (default)" for a key left out.
std::string key_place(const Config& c, const std::string& key);
// Whether --set gave `key` its value (rather than the file or the default).
bool key_from_set(const Config& c, const std::string& key);

// Creates the config's output.directory (what load_config does with
// OutputDir::create), for a run that loaded it with check_only first.
// Throws ConfigError naming the key.
void create_output_dir(const Config& c);

// The config a checkpoint holds (io/restart.hpp), for a restart given no
// config file: messages name the checkpoint and --set, not lines of a text
// the user does not see.
Config parse_stored_config(const std::string& yaml_text, const std::string& checkpoint,
                           const std::vector<std::string>& overrides, int nranks, OutputDir output_dir);

// Same, from YAML text (tests); `name` stands for the file in messages.
Config parse_config(const std::string& yaml_text, const std::string& name,
                    const std::vector<std::string>& overrides, int nranks,
                    OutputDir output_dir = OutputDir::create);

const char* to_string(Integrator);
const char* to_string(Limiter);
const char* to_string(RiemannSolver);
const char* to_string(MhdRiemannSolver);
const char* to_string(CornerEmf);
const char* to_string(WenoWeights);
const char* to_string(EigenAverage);

}  // namespace ax
