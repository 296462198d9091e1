#include "backend/comm.hpp"

#include <cstdlib>

#include <limits>

namespace ax {

bool choose_dims(int nranks, const int nx_global[3], int min_block, int dims[3], std::string* why) {
  double best = std::numeric_limits<double>::max();
  bool found = false;
  for (int px = 1; px <= nranks; ++px) {
    if (nranks % px) continue;
    for (int py = 1; py <= nranks / px; ++py) {
      if ((nranks / px) % py) continue;
      const int pz = nranks / px / py;
      const int p[3] = {px, py, pz};
      bool ok = true;
      // Every block of an active axis must be at least as deep as the ghost
      // zones, or the halo would copy ghost cells instead of interior ones.
      for (int d = 0; d < 3; ++d)
        ok = ok && nx_global[d] % p[d] == 0 && (nx_global[d] == 1 || nx_global[d] / p[d] >= min_block);
      if (!ok) continue;
      // Surface of one block, summed over the faces that exchange.
      const double n[3] = {double(nx_global[0]) / px, double(nx_global[1]) / py,
                           double(nx_global[2]) / pz};
      double surface = 0;
      if (px > 1) surface += n[1] * n[2];
      if (py > 1) surface += n[0] * n[2];
      if (pz > 1) surface += n[0] * n[1];
      // Prefer splitting the slowest axis on ties: contiguous slabs.
      surface += 1e-9 * (px + 1e-3 * py);
      if (surface < best) {
        best = surface;
        dims[0] = px;
        dims[1] = py;
        dims[2] = pz;
        found = true;
      }
    }
  }
  if (!found && why) {
    *why = std::to_string(nranks) + " ranks cannot split the grid " +
           std::to_string(nx_global[0]) + "x" + std::to_string(nx_global[1]) + "x" +
           std::to_string(nx_global[2]) + " into equal blocks of at least " +
           std::to_string(min_block) + " cells per active axis";
  }
  return found;
}

Comm make_comm(MPI_Comm world, const int dims[3], const bool periodic[3]) {
  Comm c;
  int mdims[3] = {dims[2], dims[1], dims[0]};
  int mper[3] = {periodic[2], periodic[1], periodic[0]};
  MPI_Cart_create(world, 3, mdims, mper, 0, &c.cart);
  MPI_Comm_rank(c.cart, &c.rank);
  MPI_Comm_size(c.cart, &c.size);
  int mcoords[3];
  MPI_Cart_coords(c.cart, c.rank, 3, mcoords);
  for (int d = 0; d < 3; ++d) {
    c.dims[d] = dims[d];
    c.coords[d] = mcoords[2 - d];
    MPI_Cart_shift(c.cart, 2 - d, 1, &c.neighbor[d][0], &c.neighbor[d][1]);
  }
  return c;
}

void free_comm(Comm& c) {
  if (c.cart != MPI_COMM_NULL) MPI_Comm_free(&c.cart);
}

double allreduce_min(const Comm& c, double v) {
  double r;
  MPI_Allreduce(&v, &r, 1, MPI_DOUBLE, MPI_MIN, c.cart);
  return r;
}
double allreduce_max(const Comm& c, double v) {
  double r;
  MPI_Allreduce(&v, &r, 1, MPI_DOUBLE, MPI_MAX, c.cart);
  return r;
}
double allreduce_sum(const Comm& c, double v) {
  double r;
  MPI_Allreduce(&v, &r, 1, MPI_DOUBLE, MPI_SUM, c.cart);
  return r;
}
void throw_if_root_failed(const Comm& c, const std::string& error, const std::string& elsewhere) {
  int failed = c.root() && !error.empty() ? 1 : 0;
  MPI_Bcast(&failed, 1, MPI_INT, 0, c.cart);
  if (failed) throw CollectiveError(c.root() ? error : elsewhere);
}

long long allreduce_sum(const Comm& c, long long v) {
  long long r;
  MPI_Allreduce(&v, &r, 1, MPI_LONG_LONG, MPI_SUM, c.cart);
  return r;
}

void set_mpi_io_defaults() {
  // Open MPI before 4.1.7 writes shared files through MPI-IO without locks
  // (open-mpi/ompi#12718): collective HDF5 writes from 4 ranks corrupted
  // snapshots. Lock algorithm 3 is the fix 4.1.7 made the default.
  setenv("OMPI_MCA_fs_ufs_lock_algorithm", "3", 0);
  // OMPIO opens a shared-file-pointer component at every file open; its
  // `sm` component holds a named semaphore in /dev/shm, named after the
  // file, during the open. A run killed there (kill -9, a node lost) leaves
  // it held, and every later run that opens a file of that name waits
  // forever: a restart after kill -9 hung in mca_sharedfp_sm_file_open on
  // /dev/shm/sem.OMPIO_ot.out1.01619.athdf.tmp. Its `lockedfile` component
  // overflows a buffer on a path longer than about 240 characters (the run
  // aborted in mca_sharedfp_lockedfile_component_file_query). Nothing here
  // uses shared file pointers; `individual`, left, keeps no such state.
  setenv("OMPI_MCA_sharedfp", "^sm,lockedfile", 0);
}

}  // namespace ax
