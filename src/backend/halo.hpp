// Ghost-zone exchange of a state (cell variables and, for MHD, the face
// field) between MPI ranks, and the physical boundary conditions on domain
// faces that have no neighbour.
//
// Axes are exchanged one after another (x, then y over the x-ghosts too, then
// z over both), so edges and corners fill without diagonal messages. For each
// axis one kernel packs both faces into a contiguous buffer; the buffers are
// staged through host memory unless MPI is GPU-aware.
#pragma once

#include "backend/boundary_kind.hpp"
#include "backend/comm.hpp"
#include "backend/grid.hpp"
#include "backend/state.hpp"
#include "backend/types.hpp"

namespace ax {

class GhostExchange {
 public:
  GhostExchange(const Grid& grid, const Comm& comm, int nvar,
                const BoundaryKind bc[3][2], bool gpu_aware_mpi, bool mhd = false);

  // Fills every ghost cell of `u` (nvar variables) from neighbours or from
  // the physical boundary conditions.
  void fill(const Array4& u);

  // Reflecting walls in hydrostatic balance under a constant acceleration
  // g (Athena++'s rt.cpp projects the pressure alike): a mirrored ghost's
  // pressure is its image's plus rho g_d times the distance between them,
  // so the wall's pressure gradient holds the first cells up. Without it a
  // mirrored pressure leaves the first cell under half of gravity unopposed.
  // inv_gm1: 1 / (gamma - 1), the energy a pressure carries. Where the
  // pressure would fall below `pressure_floor` in a ghost (a scale height
  // under a cell: an atmosphere the grid does not resolve) it is held there,
  // as the floors hold the interior.
  void set_hydrostatic_walls(const Real g[3], Real inv_gm1, Real pressure_floor = 0);

  // FV MHD with GS05's corner EMFs: the cell-centred field of the ghosts at outflow and reflecting
  // boundaries as the average of their ghost faces, the gas pressure kept,
  // as Athena++ derives it (AthenaK alike). Mirroring the cell field made
  // the first ghost of a reflecting wall that the field threads hold -B_n
  // where its faces average to about 0, and GS05's corner EMF drove the
  // wall's corner cells to the pressure floor (Athena++ none). FD MHD
  // rebuilds its cells from the faces itself, to sixth order; UCT keeps
  // the mirrored (reflecting) or copied (outflow) cell field (simulation.cpp).
  void set_face_averaged_ghost_field() { face_averaged_field_ = true; }

  // Same for a state: its cells and, for MHD, its face field. A face on a
  // rank boundary belongs to both ranks, which compute it alike; only faces
  // strictly outside the block are ghosts.
  void fill(const State& s);

  // fill(u) in two halves, for a stage that reads the ghosts along each
  // axis only (not those of edges and corners, which the split form does
  // not fill alike): begin posts every axis' messages and fills the ghosts
  // that need none (the block's own periodic copy, physical boundaries);
  // finish waits for the messages and unpacks them. In between, the cells
  // farther than the ghost depth from every face with messages may be
  // computed: they read no ghost a message brings.
  void begin(const Array4& u);
  void finish(const Array4& u);
  // Whether the ghosts of axis d come in messages (from another rank).
  bool has_messages(int d) const;

  // Bytes the exchange buffers of `grid` take, before allocating them: on
  // the device, and their host copies (staging without GPU-aware MPI on
  // GPU builds).
  static std::int64_t planned_device_bytes(const Grid& grid, int nvar, bool mhd = false);
  static std::int64_t planned_host_bytes(const Grid& grid, int nvar, bool gpu_aware_mpi, bool mhd = false);

  // Bytes of the device exchange buffers.
  std::int64_t buffer_bytes() const {
    std::int64_t b = 0;
    for (int d = 0; d < 3; ++d) b += std::int64_t(send_[d].span() + recv_[d].span()) * sizeof(Real);
    return b;
  }

  // Bytes moved through MPI in the last fill (diagnostic).
  long long bytes_per_fill() const { return bytes_; }

  // Public only because CUDA forbids device lambdas in private members.
  // `stagger`: the axis along which u is face-centred (-1 for cells).
  void exchange_axis(int d, const Array4& u, int stagger = -1);
  void periodic_self_state(int d, const State& s);
  // Every active axis periodic onto the block itself: all ghosts in one
  // kernel; false (nothing done) for a shell too large for its indices.
  bool periodic_self_all(const Array4& u);
  void apply_physical(int d, const Array4& u, int stagger = -1);
  void face_average_physical(int d, const State& s);
  // The two halves of exchange_axis for one with messages: pack and post;
  // wait and unpack.
  void post_axis(int d, const Array4& u, int stagger);
  void unpack_axis(int d, const Array4& u, int stagger);

 private:
  bool self_periodic(int d) const;
  // Every active axis periodic onto the block itself (one rank along it).
  bool all_self_periodic() const;

  Grid grid_;
  Comm comm_;
  Real wall_energy_per_cell_[3] = {0, 0, 0};  // g_d dx_d / (gamma - 1): energy per density and cell of distance
  Real wall_energy_floor_ = 0;                 // pressure_floor / (gamma - 1): a ghost's least internal energy
  BoundaryKind bc_[3][2];
  bool face_averaged_field_ = false;  // set_face_averaged_ghost_field
  bool gpu_aware_;
  long long bytes_ = 0;
  // Per axis: [2 * face size] send and receive buffers (face 0 = lower).
  Kokkos::View<Real*, MemSpace> send_[3], recv_[3];
  // Host copies for MPI without GPU awareness: the device buffers' mirrors
  // in pageable memory (on CPU builds the buffers themselves). The buffers
  // are one-dimensional Views, which Kokkos's mdspan View under nvcc in
  // C++20 hands to kernels wrongly (backend/device_check.hpp).
  using HostBuffer = Kokkos::View<Real*, MemSpace>::HostMirror;
  HostBuffer send_host_[3], recv_host_[3];
  MPI_Request requests_[3][4];
  bool posted_[3] = {false, false, false};
};

}  // namespace ax
