// FD WENO5 MHD steps of the 3D MHD blast (configs/mhd_blast3d.yaml on
// [-0.5, 0.5]^3 with solver.family: fd): seven-wave characteristic WENO5 +
// HOW-MHD constrained transport, with the 2N-storage RK4 (U and K only:
// the memory target) and SSP-RK(5,4).
//
//   astronomix_bench --benchmark_filter=FdMhdStep
#include "bench_step.hpp"

namespace {

// field_filter: the default (nullptr) or a value; "0" times HOW-MHD as published, the filter's cost.
void FdMhdStep(benchmark::State& state, const char* backend, const char* integrator,
               const char* field_filter = nullptr) {
  std::vector<std::string> sets = {"mesh.lower=[-0.5,-0.5,-0.5]", "mesh.upper=[0.5,0.5,0.5]", "solver.family=fd",
                                   std::string("time.integrator=") + integrator,
                                   std::string("solver.backend=") + backend};
  if (field_filter) sets.push_back(std::string("solver.field_filter=") + field_filter);
  ax::bench::hydro_steps(state, "mhd_blast3d.yaml", sets);
}

BENCHMARK_CAPTURE(FdMhdStep, native_lsrk4, "native", "lsrk4")->Arg(32)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(FdMhdStep, fused_lsrk4, "fused", "lsrk4")->Arg(32)->Arg(64)->Unit(benchmark::kMillisecond)->UseRealTime();
#ifdef KOKKOS_ENABLE_CUDA
BENCHMARK_CAPTURE(FdMhdStep, native_lsrk4, "native", "lsrk4")->Arg(128)->Arg(256)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(FdMhdStep, fused_lsrk4, "fused", "lsrk4")->Arg(128)->Arg(256)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(FdMhdStep, fused_lsrk4_unfiltered, "fused", "lsrk4", "0")
    ->Arg(256)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(FdMhdStep, fused_ssprk5_4, "fused", "ssprk5_4")->Arg(256)->Unit(benchmark::kMillisecond)->UseRealTime();
#endif

}  // namespace
