// FD WENO5 MHD steps of the 3D MHD blast (configs/mhd_blast3d.yaml on
// [-0.5, 0.5]^3 with solver.family: fd): seven-wave characteristic WENO5 +
// HOW-MHD constrained transport, with the 2N-storage RK4 (U and K only:
// the memory target) and SSP-RK(5,4).
//
//   astronomix_bench --benchmark_filter=FdMhdStep
#include "bench_step.hpp"

namespace {

void FdMhdStep(benchmark::State& state, const char* backend, const char* integrator) {
  ax::bench::hydro_steps(state, "mhd_blast3d.yaml",
                         {"mesh.lower=[-0.5,-0.5,-0.5]", "mesh.upper=[0.5,0.5,0.5]", "solver.family=fd",
                          std::string("time.integrator=") + integrator, std::string("solver.backend=") + backend});
}

BENCHMARK_CAPTURE(FdMhdStep, native_lsrk4, "native", "lsrk4")->Arg(32)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(FdMhdStep, fused_lsrk4, "fused", "lsrk4")->Arg(32)->Arg(64)->Unit(benchmark::kMillisecond)->UseRealTime();
#ifdef KOKKOS_ENABLE_CUDA
BENCHMARK_CAPTURE(FdMhdStep, native_lsrk4, "native", "lsrk4")->Arg(128)->Arg(256)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(FdMhdStep, fused_lsrk4, "fused", "lsrk4")->Arg(128)->Arg(256)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(FdMhdStep, fused_ssprk5_4, "fused", "ssprk5_4")->Arg(256)->Unit(benchmark::kMillisecond)->UseRealTime();
#endif

}  // namespace
