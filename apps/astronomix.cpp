// The astronomix command line:
//   astronomix run  <config.yaml> [--set key=value ...] [--quiet]
//   astronomix check <config.yaml> [--set key=value ...]
// Bad input exits with code 2 and a message naming file, line, key and what
// was expected; nothing is written before the config is valid.
#include <mpi.h>

#include <CLI/CLI.hpp>
#include <cstdlib>
#include <Kokkos_Core.hpp>
#include <iostream>

#include "backend/comm.hpp"
#include "config/config.hpp"
#include "config/config_error.hpp"
#include "driver/simulation.hpp"

namespace {

constexpr int kExitBadInput = 2;

int run_or_check(const std::string& file, const std::vector<std::string>& sets, bool run, bool quiet) {
  int world_size = 1, world_rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &world_size);
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  ax::Config cfg;
  std::string error;
  try {
    cfg = ax::load_config(file, sets, world_size);
  } catch (const ax::ConfigError& e) {
    error = e.what();
  }
  // The output-directory probe can fail on some ranks only (node-local
  // disks): every rank must take the same branch, or the others would wait
  // in MPI forever.
  // The lowest failing rank reports.
  const int mine = error.empty() ? world_size : world_rank;
  int first_failed = world_size;
  MPI_Allreduce(&mine, &first_failed, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (first_failed < world_size) {
    if (world_rank == first_failed) std::cerr << "astronomix: error: " << error << std::endl;
    return kExitBadInput;
  }
  if (!run) {
    if (world_rank == 0) std::cout << file << ": valid\n" << cfg.effective << std::endl;
    return 0;
  }
  bool periodic[3];
  for (int d = 0; d < 3; ++d) periodic[d] = cfg.bc[d][0] == ax::BoundaryKind::periodic;
  ax::Comm comm = ax::make_comm(MPI_COMM_WORLD, cfg.dims, periodic);
  int rc = 0;
  try {
    ax::Simulation sim(cfg, comm, !quiet);
    sim.run();
  } catch (const ax::ConfigError& e) {
    if (comm.root()) std::cerr << "astronomix: error: " << e.what() << std::endl;
    rc = kExitBadInput;
  } catch (const std::exception& e) {
    // Failures of the run itself (memory, I/O, a broken-down state). One
    // rank alone may have failed while the others wait in a collective:
    // stop them all.
    std::cerr << "astronomix: error: rank " << comm.rank << ": " << e.what() << std::endl;
    if (comm.size > 1) MPI_Abort(MPI_COMM_WORLD, 1);
    rc = 1;
  }
  ax::free_comm(comm);
  return rc;
}

}  // namespace

int main(int argc, char** argv) {
  // Open MPI before 4.1.7 writes shared files through MPI-IO without locks
  // (open-mpi/ompi#12718): collective HDF5 writes from 4 ranks corrupted
  // snapshots. Lock algorithm 3 is the fix 4.1.7 made the default; a user's
  // own setting wins.
  setenv("OMPI_MCA_fs_ufs_lock_algorithm", "3", 0);
  MPI_Init(&argc, &argv);
  // Kokkos warns at start-up when OMP_PROC_BIND is unset; leaving threads
  // unbound is what OpenMP does anyway, so say so and keep the log clean.
  setenv("OMP_PROC_BIND", "false", 0);
  int rc = 0;
  {
    Kokkos::ScopeGuard kokkos(argc, argv);  // takes its own --kokkos-* flags out of argv
    CLI::App app{"astronomix: astrophysical hydrodynamics on CPUs and GPUs"};
    app.set_version_flag("--version", std::string("astronomix 0.1.0 (Kokkos ") +
                                          std::to_string(KOKKOS_VERSION) + ")");
    app.require_subcommand(1);
    std::string file;
    std::vector<std::string> sets;
    bool quiet = false;
    auto add_common = [&](CLI::App* sub) {
      sub->add_option("config", file, "YAML file describing the run")->required();
      sub->add_option("--set", sets, "override a config key, e.g. --set time.cfl=0.3")
          ->take_all();
    };
    CLI::App* run = app.add_subcommand("run", "run a simulation");
    add_common(run);
    run->add_flag("-q,--quiet", quiet, "no progress output");
    CLI::App* check = app.add_subcommand("check", "validate a config and print it resolved");
    add_common(check);
    try {
      // Name a mistyped command instead of CLI11's generic complaint.
      if (argc > 1 && argv[1][0] != '-' && std::string(argv[1]) != "run" && std::string(argv[1]) != "check") {
        const std::string commands[2] = {"run", "check"};
        const std::string s = ax::did_you_mean(argv[1], commands, commands + 2);
        throw CLI::ParseError("unknown command '" + std::string(argv[1]) + "'" +
                                  (s.empty() ? "" : " (did you mean '" + s + "'?)") + "; expected run or check",
                              kExitBadInput);
      }
      app.parse(argc, argv);
      rc = run_or_check(file, sets, run->parsed(), quiet);
    } catch (const CLI::CallForHelp& e) {
      rc = app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
      rc = app.exit(e);
    } catch (const CLI::CallForVersion& e) {
      rc = app.exit(e);
    } catch (const CLI::ParseError& e) {
      std::cerr << "astronomix: error: " << e.what() << "\n"
                << "usage: astronomix run|check <config.yaml> [--set key=value ...]" << std::endl;
      rc = kExitBadInput;
    }
  }
  MPI_Finalize();
  return rc;
}
