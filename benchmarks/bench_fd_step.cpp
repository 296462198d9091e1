// FD WENO5 hydro steps of the 3D blast (configs/blast3d.yaml with
// solver.family: fd on [-0.5, 0.5]^3) in the working precision, with
// SSP-RK(5,4) (5 stages, registers U0, two stage buffers, R, K) and the
// 2N-storage RK4 (5 stages, U and K only); `fused` is the faces layout,
// `segments` the team kernels (solver.fused_layout: tiles).
//
//   astronomix_bench --benchmark_filter=FdStep
#include "bench_step.hpp"

namespace {

void FdStep(benchmark::State& state, const char* backend, const char* integrator) {
  const bool segments = std::string(backend) == "segments";
  ax::bench::hydro_steps(state, "blast3d.yaml",
                         {"mesh.lower=[-0.5,-0.5,-0.5]", "mesh.upper=[0.5,0.5,0.5]", "solver.family=fd",
                          std::string("time.integrator=") + integrator,
                          std::string("solver.backend=") + (segments ? "fused" : backend),
                          std::string("solver.fused_layout=") + (segments ? "tiles" : "auto")});
}

BENCHMARK_CAPTURE(FdStep, native_ssprk5_4, "native", "ssprk5_4")->Arg(32)->Arg(64)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(FdStep, fused_ssprk5_4, "fused", "ssprk5_4")->Arg(32)->Arg(64)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(FdStep, native_lsrk4, "native", "lsrk4")->Arg(64)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(FdStep, fused_lsrk4, "fused", "lsrk4")->Arg(64)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(FdStep, segments_lsrk4, "segments", "lsrk4")->Arg(64)->Unit(benchmark::kMillisecond)->UseRealTime();
#ifdef KOKKOS_ENABLE_CUDA
BENCHMARK_CAPTURE(FdStep, native_ssprk5_4, "native", "ssprk5_4")->Arg(128)->Arg(256)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(FdStep, fused_ssprk5_4, "fused", "ssprk5_4")->Arg(128)->Arg(256)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(FdStep, native_lsrk4, "native", "lsrk4")->Arg(256)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(FdStep, fused_lsrk4, "fused", "lsrk4")->Arg(256)->Arg(512)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(FdStep, segments_ssprk5_4, "segments", "ssprk5_4")->Arg(256)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(FdStep, segments_lsrk4, "segments", "lsrk4")->Arg(256)->Arg(512)->Unit(benchmark::kMillisecond)->UseRealTime();
#endif

}  // namespace
