// Google Benchmark main with MPI and Kokkos around it (bench_*_step.cpp
// register the benchmarks).
#include <benchmark/benchmark.h>
#include <mpi.h>

#include <Kokkos_Core.hpp>
#include <cstdlib>

#include "backend/comm.hpp"

int main(int argc, char** argv) {
  setenv("OMP_PROC_BIND", "false", 0);
  ax::set_mpi_io_defaults();
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
