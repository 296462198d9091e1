// One full hydro step (every stage: ghost exchange, right-hand side, stage
// combination, floors) of a shipped config on an n^3 cube, timed by Google
// Benchmark. Counters: cell-updates per second (cells x steps / wall
// time), the device memory the run added per cell (cudaMemGetInfo), and
// the bytes of every array the solver allocated per cell and over the
// conserved state.
#pragma once

#include <benchmark/benchmark.h>
#include <mpi.h>

#include <Kokkos_Core.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "backend/memory.hpp"
#include "config/config.hpp"
#include "driver/simulation.hpp"

namespace ax::bench {

// A shipped config, from the source tree the benchmark was built from, or
// from $ASTRONOMIX_CONFIG_DIR (a binary run on another machine).
inline std::string read_shipped(const std::string& name) {
  const char* dir = std::getenv("ASTRONOMIX_CONFIG_DIR");
  const std::string path = (dir ? std::string(dir) : std::string(ASTRONOMIX_SOURCE_DIR) + "/configs") + "/" + name;
  std::ifstream f(path);
  if (!f) {
    std::fprintf(stderr, "astronomix_bench: cannot read %s (set ASTRONOMIX_CONFIG_DIR to the configs folder)\n",
                 path.c_str());
    std::exit(2);
  }
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

// Whether another step could be taken: the CFL step is positive and
// finite (it is not when a cell holds a NaN, a density or a pressure <= 0:
// hydro/cfl.hpp). Not next_dt: the timed steps may run past the end time.
inline bool state_usable(Simulation& sim) { return usable_step(sim.cfl_dt()); }

inline void hydro_steps(benchmark::State& state, const std::string& file, std::vector<std::string> sets) {
  const int n = int(state.range(0));
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  sets.push_back("mesh.cells=[" + std::to_string(n) + "," + std::to_string(n) + "," + std::to_string(n) + "]");
  sets.push_back("output.enabled=false");
  Config cfg = parse_config(read_shipped(file), file, sets, size);
  bool periodic[3];
  for (int d = 0; d < 3; ++d) periodic[d] = cfg.bc[d][0] == BoundaryKind::periodic;
  Comm comm = make_comm(MPI_COMM_WORLD, cfg.dims, periodic);
  {
    const std::int64_t before = device_memory_used_bytes();
    Simulation sim(cfg, comm, false);
    sim.initialize();
    const Real dt = sim.next_dt();
    sim.step(dt);  // warm-up: first-touch allocations, kernel loading
    Kokkos::fence();
    // A state with NaNs or negative pressures times nothing worth timing (a
    // GPU kernel computing garbage once went on for minutes of NaN steps
    // with a plausible time): such a run is reported as an error.
    const bool broken_before = !state_usable(sim);
    if (broken_before) state.SkipWithError("the state broke down in the warm-up step");
    for (auto _ : state) {
      sim.step(dt);
      Kokkos::fence();
    }
    if (!broken_before && !state_usable(sim)) state.SkipWithError("the state broke down during the timed steps");
    const double cells = double(sim.grid().cells_local());
    state.counters["cell_updates_per_s"] =
        benchmark::Counter(double(sim.grid().cells_global()) * double(state.iterations()), benchmark::Counter::kIsRate);
    const std::int64_t dev = device_memory_used_bytes();
    if (dev >= 0) state.counters["device_bytes_per_cell"] = double(dev - before) / cells;
    // The evolved state: cell variables, and for MHD the three face components.
    const double state_per_cell = double((cfg.nvar() + (cfg.mhd ? 3 : 0)) * sizeof(Real));
    state.counters["state_bytes_per_cell"] = state_per_cell;
    state.counters["array_bytes_per_cell"] = double(sim.array_bytes()) / cells;
    state.counters["arrays_over_state"] = double(sim.array_bytes()) / (cells * state_per_cell);
    state.SetLabel(sim.hydro().path());
  }
  free_comm(comm);
}

}  // namespace ax::bench
