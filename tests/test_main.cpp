// GoogleTest entry point: MPI and Kokkos live for the whole test binary.
#include <gtest/gtest.h>
#include <mpi.h>

#include <Kokkos_Core.hpp>
#include <cstdlib>

#include "backend/comm.hpp"

int main(int argc, char** argv) {
  ax::set_mpi_io_defaults();
  MPI_Init(&argc, &argv);
  setenv("OMP_PROC_BIND", "false", 0);  // keeps Kokkos' start-up warning out of the log
  int rc = 0;
  {
    Kokkos::ScopeGuard kokkos(argc, argv);
    ::testing::InitGoogleTest(&argc, argv);
    rc = RUN_ALL_TESTS();
  }
  MPI_Finalize();
  return rc;
}
