// FV hydro steps of the 3D blast (configs/blast3d.yaml on [-0.5, 0.5]^3),
// PLM + HLLC + VL2 in the working precision. `fused` is the default layout
// (cells on GPUs, sweeps on CPUs), `tiles` the layout with each face once
// in team scratch (solver.fused_layout: tiles).
//
//   astronomix_bench --benchmark_filter=FvStep   (add --benchmark_min_time=2)
#include "bench_step.hpp"

namespace {

void FvStep(benchmark::State& state, const char* backend) {
  const bool tiles = std::string(backend) == "tiles";
  ax::bench::hydro_steps(state, "blast3d.yaml",
                         {"mesh.lower=[-0.5,-0.5,-0.5]", "mesh.upper=[0.5,0.5,0.5]",
                          std::string("solver.backend=") + (tiles ? "fused" : backend),
                          std::string("solver.fused_layout=") + (tiles ? "tiles" : "auto")});
}

BENCHMARK_CAPTURE(FvStep, native, "native")->Arg(32)->Arg(64)->Arg(128)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(FvStep, fused, "fused")->Arg(32)->Arg(64)->Arg(128)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(FvStep, tiles, "tiles")->Arg(64)->Unit(benchmark::kMillisecond)->UseRealTime();
#ifdef KOKKOS_ENABLE_CUDA
BENCHMARK_CAPTURE(FvStep, native, "native")->Arg(256)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(FvStep, fused, "fused")->Arg(256)->Arg(512)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(FvStep, tiles, "tiles")->Arg(256)->Arg(512)->Unit(benchmark::kMillisecond)->UseRealTime();
#endif

}  // namespace
