// The astronomix command line:
//   astronomix run  <config.yaml> [--set key=value ...] [--quiet] [--no-memory-check]
//                   [--restart checkpoint] [--wall-time hh:mm:ss] [--overwrite]
//   astronomix run  --restart checkpoint [--set key=value ...] ...  (the config the checkpoint holds)
//   astronomix check <config.yaml> [--set key=value ...] [--restart checkpoint] [--quiet]
// Bad input exits with code 2 and a message naming file, line, key and what
// was expected; nothing is written before the config is valid and the run
// is known to fit in memory. A state that breaks down exits with 3 (after a
// report and an emergency snapshot); other run failures (I/O) with 1; a run
// stopped by a signal or --wall-time with 0, after a checkpoint. A Kokkos
// build whose kernels mis-read Views (backend/device_check.hpp) exits with 1
// before anything is read or written.
#include <hdf5.h>
#include <mpi.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <Kokkos_Core.hpp>
#include <iostream>
#include <string>

#include "backend/comm.hpp"
#include "backend/device_check.hpp"
#include "command_line.hpp"
#include "config/config.hpp"
#include "io/restart.hpp"
#include "config/config_error.hpp"
#include "driver/memory_plan.hpp"
#include "driver/solver_factory.hpp"
#include "driver/run_control.hpp"
#include "driver/simulation.hpp"
#include "io/hdf5_file.hpp"
#include "io/made_dirs.hpp"

namespace {

constexpr int kExitBadInput = 2;

// Every rank must take the same branch after a check that can fail on some
// ranks only (a node-local disk, a node short of memory), or the others
// would wait in MPI forever. The lowest failing rank reports.
bool any_rank_failed(const std::string& error, int world_rank, int world_size) {
  const int mine = error.empty() ? world_size : world_rank;
  int first_failed = world_size;
  MPI_Allreduce(&mine, &first_failed, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (first_failed < world_size && world_rank == first_failed)
    std::cerr << "astronomix: error: " << error << std::endl;
  return first_failed < world_size;
}

int run_or_check(const ax::CommandLine& cl, double started_at) {
  int world_size = 1, world_rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &world_size);
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  const bool run = cl.command == "run";
  ax::Config cfg;
  std::string error;
  // A checkpoint is checked before output.directory is made, and the
  // folders a run made are removed again if it is refused before it wrote
  // into them: a refused run leaves nothing behind (docs/restart.md).
  const bool continuing = !cl.restart.empty();
  const ax::OutputDir output_dir = ax::OutputDir::check_only;
  ax::CheckpointPlace place;
  std::vector<std::string> made_dirs;  // by this run, removed again if it is refused
  try {
    if (cl.config.empty()) {
      // As Athena++'s -r: the run goes on with the config it was made with.
      cfg = ax::parse_stored_config(ax::checkpoint_config_text(cl.restart), cl.restart, cl.sets, world_size,
                                    output_dir);
      ax::check_stored_output_dir(cfg, cl.restart);  // check as run: docs/restart.md promises every check of run
    } else {
      cfg = ax::load_config(cl.config, cl.sets, world_size, output_dir);
    }
    if (continuing)
      place = ax::check_restart(cl.restart, cfg,
                                run || world_rank > 0 ? ax::RestartData::unread : ax::RestartData::verify);
    if (run && cfg.write_files) {
      made_dirs = ax::missing_dirs(cfg.out_dir);
      ax::create_output_dir(cfg);
    }
  } catch (const ax::ConfigError& e) {
    error = e.what();
  }
  if (any_rank_failed(error, world_rank, world_size)) return kExitBadInput;
  if (world_rank == 0 && !(run && cl.quiet))
    for (const std::string& w : cfg.warnings) std::cerr << "astronomix: warning: " << w << std::endl;

  bool periodic[3];
  for (int d = 0; d < 3; ++d) periodic[d] = cfg.bc[d][0] == ax::BoundaryKind::periodic;
  ax::Comm comm = ax::make_comm(MPI_COMM_WORLD, cfg.dims, periodic);
  int rc = 0;
  try {
    // The memory the run will take, before anything is allocated.
    const ax::Grid grid = ax::make_grid(cfg.nx, cfg.xmin, cfg.xmax, cfg.ghost, comm.dims, comm.coords);
    ax::planned_hydro_path(cfg, grid);  // throws ConfigError if solver.backend asks for what cannot run
    const ax::MemoryCheck mem = ax::check_memory(cfg, grid, comm);
    if (!run) {
      // What run refuses once the problem has set the state (FD MHD's field
      // threading a reflecting wall, initial values that give no state to
      // evolve) is known only then: check sets the problem up too, where
      // the run's arrays fit in this machine's memory. It allocates them
      // all, so beyond 2^22 cells a rank (5 s at 256^3 on one CPU core)
      // only FD MHD with reflecting walls, whose refusal is the likelier.
      bool walls = false;
      for (int d = 0; d < 3; ++d)
        for (int f = 0; f < 2; ++f) walls = walls || cfg.bc[d][f] == ax::BoundaryKind::reflecting;
      const bool large = double(grid.nx[0]) * grid.nx[1] * grid.nx[2] > double(1 << 22);
      const bool set_up = !continuing && (!large || (cfg.mhd && cfg.family == "fd" && walls));
      // Every rank takes the same branch (memory is measured per node and
      // GPU, and setting the problem up exchanges ghosts).
      int fits = mem.fits() ? 1 : 0;
      MPI_Allreduce(MPI_IN_PLACE, &fits, 1, MPI_INT, MPI_MIN, comm.cart);
      if (set_up && fits) {
        ax::Simulation sim(cfg, comm, false);
        sim.initialize();
      }
      // -q prints no plan: what run would refuse, or check could not check,
      // is said as a warning (the exit code stays 0: the config is valid).
      if (comm.root() && cl.quiet) {
        if (!fits)
          std::cerr << "astronomix: warning: run would refuse this config: "
                    << (mem.fits() ? std::string("another rank's arrays do not fit its node's memory")
                                   : ax::memory_error(mem, cfg))
                    << std::endl;
        if (set_up && !fits)
          std::cerr << "astronomix: warning: not checked here: the initial state the problem sets up" << std::endl;
      }
      if (comm.root() && !cl.quiet) {
        std::cout << cfg.file << ": valid\n" << cfg.effective << "\n\n";
        if (set_up && !fits)
          std::cout << "not checked here: the initial state the problem sets up (the run's arrays do not fit in this "
                       "machine's memory; run checks it before writing)\n\n";
        else if (!continuing && !set_up)
          std::cout << "not checked here: the initial state the problem sets up (more than 2^22 cells a rank, which "
                       "check does not allocate; run checks it before writing)\n\n";
        if (continuing && place.checksum_verified)
          std::printf("continues from %s: step %lld, t = %.9g (its data match its checksum, %016llx)\n\n",
                      cl.restart.c_str(), place.steps, place.time, static_cast<unsigned long long>(place.checksum));
        else if (continuing)
          std::printf("continues from %s: step %lld, t = %.9g (it stores no checksum of its data)\n\n",
                      cl.restart.c_str(), place.steps, place.time);
        std::cout << ax::describe_memory(mem, cfg, grid, comm) << std::endl;
      }
    } else if (cl.memory_check && any_rank_failed(mem.fits() ? "" : ax::memory_error(mem, cfg), comm.rank,
                                                  comm.size)) {
      ax::remove_if_empty(made_dirs);  // refused before writing: leaves nothing behind
      rc = kExitBadInput;
    } else {
      ax::Simulation sim(cfg, comm, !cl.quiet);
      ax::RunOptions opt;
      opt.restart = cl.restart;
      opt.wall_time_s = cl.wall_time_s;
      opt.overwrite = cl.overwrite;
      opt.started_at = started_at;
      sim.run(opt);
    }
  } catch (const ax::ConfigError& e) {
    if (comm.root()) std::cerr << "astronomix: error: " << e.what() << std::endl;
    // A run refused once its folders were made (a checkpoint's data found
    // damaged as they are read, a field through a wall) leaves none of them
    // (empty: nothing was written yet).
    ax::remove_if_empty(made_dirs);
    rc = kExitBadInput;
  } catch (const ax::RunStopped& e) {
    // Every rank got here together (the broken state is seen by all).
    if (comm.root()) std::cerr << "astronomix: error: " << e.what() << std::endl;
    rc = e.code;
  } catch (const ax::CollectiveError& e) {
    // A failure every rank saw alike (a write to a full disk): said once.
    if (comm.root()) std::cerr << "astronomix: error: " << e.what() << std::endl;
    rc = 1;
  } catch (const std::exception& e) {
    // Failures of the run itself (memory, I/O, a broken-down state). One
    // rank alone may have failed while the others wait in a collective:
    // stop them all.
    std::cerr << "astronomix: error: rank " << comm.rank << ": " << e.what() << std::endl;
    // Nor may MPI_Finalize run: after a failed write (a full disk) HDF5
    // cannot shut down cleanly (it crashes closing the file again).
    if (comm.size > 1) MPI_Abort(MPI_COMM_WORLD, 1);
    std::fflush(nullptr);
    std::_Exit(1);
  }
  if (rc == 1) {
    // Not MPI_Finalize: after a failed write HDF5 cannot shut down cleanly
    // (it crashes closing the file again); all ranks leave here together.
    std::fflush(nullptr);
    MPI_Barrier(MPI_COMM_WORLD);
    std::_Exit(1);
  }
  ax::free_comm(comm);
  return rc;
}

}  // namespace

int main(int argc, char** argv) {
  // --wall-time counts from here, as the batch system does (MPI_Init alone
  // can take a good part of a second).
  const auto entered = std::chrono::steady_clock::now();
  ax::set_mpi_io_defaults();  // a user's own settings win
  MPI_Init(&argc, &argv);
  const double started_at =
      MPI_Wtime() - std::chrono::duration<double>(std::chrono::steady_clock::now() - entered).count();
  ax::install_stop_signal_handlers();
  ax::hdf5_quiet_errors();
  int world_rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  // Kokkos warns at start-up when OMP_PROC_BIND is unset; leaving threads
  // unbound is what OpenMP does anyway, so say so and keep the log clean.
  setenv("OMP_PROC_BIND", "false", 0);
  ax::CommandLine cl;
  int rc = ax::parse_command_line(argc, argv, world_rank == 0, &cl);
  if (rc < 0) {
    if (world_rank == 0 && !cl.thread_cap_warning.empty())
      std::cerr << "astronomix: warning: " << cl.thread_cap_warning << std::endl;
    std::vector<char*> kargv;
    for (auto& a : cl.kokkos_args) kargv.push_back(a.data());
    int kargc = int(kargv.size());
    Kokkos::ScopeGuard kokkos(kargc, kargv.data());
    const std::string broken = cl.kokkos_help ? std::string() : ax::device_view_check();
    if (!broken.empty()) {
      if (world_rank == 0) std::cerr << "astronomix: error: " << broken << std::endl;
      rc = 1;
    } else {
      rc = cl.kokkos_help ? 0 : run_or_check(cl, started_at);
    }
  }
  // HDF5 shuts down while MPI is still there: a file it could not close (a
  // full disk) is dropped here rather than in MPI_Finalize's clean-up.
  H5close();
  MPI_Finalize();
  return rc;
}
