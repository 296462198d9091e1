// FV hydro steps of the 3D blast (configs/blast3d.yaml on [-0.5, 0.5]^3),
// PLM + HLLC + VL2 in the working precision. `fused` is the default layout
// (tiles on GPUs, sweeps on CPUs); `tiles` (each face once in team scratch)
// and `cells` (a thread a cell, each face twice) name a layout.
//
//   astronomix_bench --benchmark_filter=FvStep   (add --benchmark_min_time=2)
#include "bench_step.hpp"

namespace {

void FvStep(benchmark::State& state, const char* backend, const char* layout) {
  ax::bench::hydro_steps(state, "blast3d.yaml",
                         {"mesh.lower=[-0.5,-0.5,-0.5]", "mesh.upper=[0.5,0.5,0.5]",
                          std::string("solver.backend=") + backend, std::string("solver.fused_layout=") + layout});
}

BENCHMARK_CAPTURE(FvStep, native, "native", "auto")->Arg(32)->Arg(64)->Arg(128)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(FvStep, fused, "fused", "auto")->Arg(32)->Arg(64)->Arg(128)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(FvStep, tiles, "fused", "tiles")->Arg(64)->Unit(benchmark::kMillisecond)->UseRealTime();
#ifdef KOKKOS_ENABLE_CUDA
BENCHMARK_CAPTURE(FvStep, native, "native", "auto")->Arg(256)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(FvStep, fused, "fused", "auto")->Arg(256)->Arg(512)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(FvStep, cells, "fused", "cells")->Arg(256)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(FvStep, tiles, "fused", "tiles")->Arg(256)->Arg(512)->Unit(benchmark::kMillisecond)->UseRealTime();
#endif

}  // namespace
