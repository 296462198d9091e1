// Full FV hydro steps (every stage: ghost exchange, right-hand side, stage
// combination, floors) of the 3D blast, PLM + HLLC + VL2 in the working
// precision. Reports cell-updates per second (cells x steps / wall time) and
// the device or host memory per cell.
//
//   astronomix_bench --benchmark_filter=FvStep   (add --benchmark_min_time=2)
#include <benchmark/benchmark.h>
#include <mpi.h>

#include <Kokkos_Core.hpp>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "backend/memory.hpp"
#include "config/config.hpp"
#include "driver/simulation.hpp"

namespace {

std::string blast_config() {
  std::ifstream f(std::string(ASTRONOMIX_SOURCE_DIR) + "/configs/blast3d.yaml");
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

void FvStep(benchmark::State& state, const char* backend) {
  const int n = int(state.range(0));
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const std::string cells = "mesh.cells=[" + std::to_string(n) + "," + std::to_string(n) + "," + std::to_string(n) + "]";
  ax::Config cfg = ax::parse_config(blast_config(), "blast3d.yaml",
                                    {cells, "mesh.lower=[-0.5,-0.5,-0.5]", "mesh.upper=[0.5,0.5,0.5]",
                                     "output.enabled=false", std::string("solver.backend=") + backend},
                                    size);
  bool periodic[3] = {true, true, true};
  ax::Comm comm = ax::make_comm(MPI_COMM_WORLD, cfg.dims, periodic);
  {
    const std::int64_t before = ax::device_memory_used_bytes();
    ax::Simulation sim(cfg, comm, false);
    sim.initialize();
    const ax::Real dt = sim.next_dt();
    sim.step(dt);  // warm-up: first-touch allocations, kernel loading
    Kokkos::fence();
    for (auto _ : state) {
      sim.step(dt);
      Kokkos::fence();
    }
    const double cells_total = double(sim.grid().cells_global());
    state.counters["cell_updates_per_s"] =
        benchmark::Counter(cells_total * double(state.iterations()), benchmark::Counter::kIsRate);
    const std::int64_t dev = ax::device_memory_used_bytes();
    if (dev >= 0) {
      state.counters["device_bytes_per_cell"] = double(dev - before) / sim.grid().cells_local();
    }
    state.counters["state_bytes_per_cell"] = double(ax::NHYDRO * sizeof(ax::Real));
    // Every array the solver allocated (state, stage buffers, workspace,
    // halo buffers), ghosts included, per interior cell.
    state.counters["array_bytes_per_cell"] = double(sim.array_bytes()) / sim.grid().cells_local();
    state.SetLabel(sim.hydro().path());
  }
  ax::free_comm(comm);
}

BENCHMARK_CAPTURE(FvStep, native, "native")->Arg(32)->Arg(64)->Arg(128)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(FvStep, fused, "fused")->Arg(32)->Arg(64)->Arg(128)->Unit(benchmark::kMillisecond)->UseRealTime();
#ifdef KOKKOS_ENABLE_CUDA
BENCHMARK_CAPTURE(FvStep, native, "native")->Arg(256)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(FvStep, fused, "fused")->Arg(256)->Arg(512)->Unit(benchmark::kMillisecond)->UseRealTime();
#endif

}  // namespace

int main(int argc, char** argv) {
  setenv("OMP_PROC_BIND", "false", 0);
  MPI_Init(&argc, &argv);
  {
    Kokkos::ScopeGuard kokkos(argc, argv);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
  }
  MPI_Finalize();
  return 0;
}
