// FV MHD steps of the 3D Orszag-Tang vortex (configs/orszag_tang.yaml's
// field in every z-plane of a cube), PLM + HLLD + VL2 + constrained
// transport, in the working precision: the workload Idefix reports for
// GPUs (REFERENCE.md section 3).
//
//   astronomix_bench --benchmark_filter=FvMhdStep
#include "bench_step.hpp"

namespace {

void FvMhdStep(benchmark::State& state, const char* backend) {
  ax::bench::hydro_steps(state, "orszag_tang.yaml",
                         {"mesh.lower=[-0.5,-0.5,-0.5]", "mesh.upper=[0.5,0.5,0.5]", "boundaries.z=periodic",
                          std::string("solver.backend=") + backend});
}

// fused: the cells layout on GPUs, sweeps on CPUs (solver.fused_layout: auto).
BENCHMARK_CAPTURE(FvMhdStep, native, "native")->Arg(32)->Arg(64)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(FvMhdStep, fused, "fused")->Arg(32)->Arg(64)->Unit(benchmark::kMillisecond)->UseRealTime();
#ifdef KOKKOS_ENABLE_CUDA
BENCHMARK_CAPTURE(FvMhdStep, native, "native")->Arg(128)->Arg(256)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(FvMhdStep, fused, "fused")->Arg(128)->Arg(256)->Unit(benchmark::kMillisecond)->UseRealTime();
#endif

}  // namespace
