// The MPI Cartesian process grid: who this rank is and who its face
// neighbours are. Periodic axes wrap around, so a neighbour always exists
// there; on other axes a missing neighbour is MPI_PROC_NULL.
#pragma once

#include <stdexcept>

#include <mpi.h>

#include <string>

namespace ax {

// A failure that every rank of a communicator raised together (agreed in a
// collective), so one message says it and no rank is left waiting.
class CollectiveError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Comm {
  MPI_Comm cart = MPI_COMM_NULL;
  int rank = 0;
  int size = 1;
  int dims[3] = {1, 1, 1};
  int coords[3] = {0, 0, 0};
  int neighbor[3][2] = {{MPI_PROC_NULL, MPI_PROC_NULL},
                        {MPI_PROC_NULL, MPI_PROC_NULL},
                        {MPI_PROC_NULL, MPI_PROC_NULL}};
  bool root() const { return rank == 0; }
};

// Chooses process-grid dimensions for `nranks` ranks: each factor must divide
// its axis into blocks of at least `min_block` cells (the ghost depth), and
// inactive axes (one cell) get 1. Among the valid choices it
// takes the one with the least ghost-exchange surface. Returns false (and a
// reason) if there is none.
bool choose_dims(int nranks, const int nx_global[3], int min_block, int dims[3], std::string* why);

// Creates the Cartesian communicator (MPI orders ranks with the last axis
// fastest; we pass z, y, x so that x varies fastest across ranks).
Comm make_comm(MPI_Comm world, const int dims[3], const bool periodic[3]);

void free_comm(Comm& c);

// Open MPI settings the HDF5 output needs, set before MPI_Init where the
// user has not set them (comm.cpp says why).
void set_mpi_io_defaults();

// Global reductions used by the driver.
double allreduce_min(const Comm& c, double v);
double allreduce_max(const Comm& c, double v);
double allreduce_sum(const Comm& c, double v);
long long allreduce_sum(const Comm& c, long long v);

// For what rank 0 alone writes (a sidecar, a history row, the summary):
// collective; where rank 0's `error` is not empty every rank throws a
// CollectiveError, rank 0's with that message, the others' with `elsewhere`.
void throw_if_root_failed(const Comm& c, const std::string& error, const std::string& elsewhere);

}  // namespace ax
