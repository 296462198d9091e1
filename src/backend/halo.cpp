#include "backend/halo.hpp"

#include <algorithm>
#include <limits>
#include <string>
#include <type_traits>

#include "backend/cell_field.hpp"
#include "backend/kokkos_compat.hpp"

namespace ax {

namespace {

// Slab of ghost depth along axis d and the full array extent along the others.
struct Slab {
  int d, ng;
  int e[3];  // extents of one face slab (e[d] == ng)
  std::int64_t count(int nvar) const { return std::int64_t(nvar) * e[0] * e[1] * e[2]; }
  // Box covering both faces: coordinate c along d in [0, 2 ng).
  Box both_faces() const {
    int hi[3] = {e[0], e[1], e[2]};
    hi[d] = 2 * ng;
    return {0, hi[2], 0, hi[1], 0, hi[0]};
  }
};

// The slab of array u (cells or faces: its own extents).
Slab make_slab(const Grid& g, int d, const Array4& u) {
  Slab s{d, g.gh[d], {int(u.extent(3)), int(u.extent(2)), int(u.extent(1))}};
  s.e[d] = g.gh[d];
  return s;
}

// The largest slab along d of a cell array (nvar variables) or, for MHD, of
// a face array (one variable, one more layer along its normal).
std::int64_t slab_count(const Grid& g, int d, int nvar, bool mhd) {
  std::int64_t e[3] = {g.extent(0), g.extent(1), g.extent(2)};
  e[d] = g.gh[d];
  const std::int64_t cells = nvar * e[0] * e[1] * e[2];
  std::int64_t faces = 0;
  for (int f = 0; mhd && f < 3; ++f) {
    std::int64_t ef[3] = {e[0], e[1], e[2]};
    if (f != d) ef[f] += 1;
    faces = std::max(faces, ef[0] * ef[1] * ef[2]);
  }
  return std::max(cells, faces);
}

// Position within one face's buffer of cell (n, k, j, i) once the coordinate
// along d has been reduced to 0..ng-1.
KOKKOS_INLINE_FUNCTION std::int64_t slab_index(const int e[3], int n, int k, int j, int i) {
  return ((std::int64_t(n) * e[2] + k) * e[1] + j) * e[0] + i;
}

// Along an axis of a block periodic onto itself: the index of the ghost
// layer at slab coordinate c (0 .. 2 ng: the lower ghosts, then the upper)
// and of the interior layer it copies; st is 1 for faces normal to the axis.
KOKKOS_INLINE_FUNCTION void periodic_self_layers(int c, int ng, int ie, int st, int& dst, int& src) {
  const int f = c / ng;
  const int cl = c - f * ng;
  dst = f == 0 ? cl : ie + st + cl;
  src = f == 0 ? ie - ng + cl : ng + st + cl;
}

// Along an axis of n cells with g ghosts: the index of ghost layer l
// (0 .. 2 g: the lower ghosts, then the upper), and the interior index a
// ghost or interior index c wraps to.
KOKKOS_INLINE_FUNCTION int ghost_layer(int l, int g, int n) { return l < g ? l : n + l; }
KOKKOS_INLINE_FUNCTION int wrap_index(int c, int g, int n) { return c < g ? c + n : (c >= g + n ? c - n : c); }

// Messages along d only where the block does not span the domain along d:
// with one rank along an axis its ghosts come from its own interior
// (periodic) or from the physical boundary, and no buffer is needed.
bool block_has_messages(const Grid& g, int d) { return g.active(d) && g.nx[d] < g.nx_global[d]; }

}  // namespace

std::int64_t GhostExchange::planned_device_bytes(const Grid& grid, int nvar, bool mhd) {
  std::int64_t n = 0;
  for (int d = 0; d < 3; ++d)
    if (block_has_messages(grid, d)) n += 2 * 2 * slab_count(grid, d, nvar, mhd);  // send + receive, both faces
  return n * std::int64_t(sizeof(Real));
}

std::int64_t GhostExchange::planned_host_bytes(const Grid& grid, int nvar, bool gpu_aware_mpi, bool mhd) {
  const bool separate = !std::is_same_v<MemSpace, Kokkos::HostSpace>;
  return separate && !gpu_aware_mpi ? planned_device_bytes(grid, nvar, mhd) : 0;
}

GhostExchange::GhostExchange(const Grid& grid, const Comm& comm, int nvar,
                             const BoundaryKind bc[3][2], bool gpu_aware_mpi, bool mhd)
    : grid_(grid), comm_(comm), gpu_aware_(gpu_aware_mpi) {
  for (int d = 0; d < 3; ++d) {
    bc_[d][0] = bc[d][0];
    bc_[d][1] = bc[d][1];
    if (!block_has_messages(grid, d)) continue;
    const std::int64_t n = 2 * slab_count(grid, d, nvar, mhd);
    const std::string axis = std::to_string(d);
    send_[d] = Kokkos::View<Real*, MemSpace>("halo_send_" + axis, n);
    recv_[d] = Kokkos::View<Real*, MemSpace>("halo_recv_" + axis, n);
    if (!gpu_aware_) {
      send_host_[d] = Kokkos::create_mirror_view(send_[d]);
      recv_host_[d] = Kokkos::create_mirror_view(recv_[d]);
    }
  }
}

void GhostExchange::fill(const Array4& u) {
  bytes_ = 0;
  if (all_self_periodic() && periodic_self_all(u)) return;
  for (int d = 0; d < 3; ++d) {
    if (!grid_.active(d)) continue;
    exchange_axis(d, u);
    apply_physical(d, u);
  }
}

void GhostExchange::fill(const State& st) {
  if (!st.mhd()) return fill(st.u);
  bytes_ = 0;
  for (int d = 0; d < 3; ++d) {
    if (!grid_.active(d)) continue;
    if (self_periodic(d)) {  // no physical boundary along d
      periodic_self_state(d, st);
      continue;
    }
    exchange_axis(d, st.u);
    apply_physical(d, st.u);
    for (int f = 0; f < 3; ++f) {
      exchange_axis(d, st.b[f], f);
      apply_physical(d, st.b[f], f);
    }
    if (face_averaged_field_) face_average_physical(d, st);
  }
}

// The ghost cells of axis d's physical boundaries (every transverse index:
// the ghosts the earlier axes filled too) take the mean of their two faces
// of each axis; the total energy changes with the magnetic energy, so the
// gas pressure the boundary condition set is kept.
void GhostExchange::face_average_physical(int d, const State& st) {
  const bool lo = comm_.neighbor[d][0] == MPI_PROC_NULL;
  const bool hi = comm_.neighbor[d][1] == MPI_PROC_NULL;
  if (!lo && !hi) return;
  const Array4 u = st.u, b0 = st.b[0], b1 = st.b[1], b2 = st.b[2];
  const Slab s = make_slab(grid_, d, u);
  const int ng = s.ng, ie = grid_.ie(d);
  const bool act[3] = {grid_.active(0), grid_.active(1), grid_.active(2)};
  par_for("ghost_face_averaged_field", s.both_faces(), KOKKOS_LAMBDA(int k, int j, int i) {
    int c[3] = {i, j, k};
    const int f = c[d] / ng;
    if ((f == 0 && !lo) || (f == 1 && !hi)) return;
    c[d] = f == 0 ? c[d] : ie + c[d] - ng;
    const int ci = c[0], cj = c[1], ck = c[2];
    // Along an inactive axis the two faces are the same one.
    const Real bc[3] = {face_average(b0(0, ck, cj, ci), b0(0, ck, cj, ci + (act[0] ? 1 : 0))),
                        face_average(b1(0, ck, cj, ci), b1(0, ck, cj + (act[1] ? 1 : 0), ci)),
                        face_average(b2(0, ck, cj, ci), b2(0, ck + (act[2] ? 1 : 0), cj, ci))};
    keep_pressure_set_field(u, ck, cj, ci, bc);
  });
}

void GhostExchange::begin(const Array4& u) {
  bytes_ = 0;
  for (int d = 0; d < 3; ++d) {
    if (!grid_.active(d)) continue;
    if (has_messages(d)) post_axis(d, u, -1);
    else exchange_axis(d, u);  // the block's own periodic copy, if any
    apply_physical(d, u);
  }
}

void GhostExchange::finish(const Array4& u) {
  for (int d = 0; d < 3; ++d)
    if (posted_[d]) unpack_axis(d, u, -1);
}

bool GhostExchange::self_periodic(int d) const {
  return comm_.neighbor[d][0] == comm_.rank && comm_.neighbor[d][1] == comm_.rank;
}

bool GhostExchange::all_self_periodic() const {
  for (int d = 0; d < 3; ++d)
    if (grid_.active(d) && !self_periodic(d)) return false;
  return true;
}

bool GhostExchange::has_messages(int d) const {
  const int lo = comm_.neighbor[d][0], hi = comm_.neighbor[d][1];
  return grid_.active(d) && (lo != MPI_PROC_NULL || hi != MPI_PROC_NULL) && !self_periodic(d);
}

// Along its staggered axis a face array has one more layer: the faces on
// the block's boundary (indices is and ie) are shared with the neighbour,
// so what is sent starts one layer further in (lower side) and what is
// received lands one layer further out (upper side).
void GhostExchange::exchange_axis(int d, const Array4& u, int stagger) {
  const int lo = comm_.neighbor[d][0], hi = comm_.neighbor[d][1];
  if (lo == MPI_PROC_NULL && hi == MPI_PROC_NULL) return;
  // With one rank along a periodic axis both neighbours are this rank: each
  // ghost layer is copied straight from the opposite side of the interior
  // (one kernel, no buffers; the same values a message would bring).
  if (self_periodic(d)) {
    const Slab s = make_slab(grid_, d, u);
    const int nvar = int(u.extent(0));
    const int ng = s.ng, ie = grid_.ie(d), st = stagger == d ? 1 : 0;
    par_for_vars("halo_periodic_self", nvar, s.both_faces(), KOKKOS_LAMBDA(int n, int k, int j, int i) {
      const int c[3] = {i, j, k};
      int dst[3] = {i, j, k}, src[3] = {i, j, k};
      periodic_self_layers(c[d], ng, ie, st, dst[d], src[d]);
      u(n, dst[2], dst[1], dst[0]) = u(n, src[2], src[1], src[0]);
    });
    return;
  }
  post_axis(d, u, stagger);
  unpack_axis(d, u, stagger);
}

// The cells' ghosts of a block periodic onto itself along every active
// axis: each ghost cell, edges and corners included, takes the interior
// cell at its coordinates wrapped along each axis, which is what the copies
// axis by axis leave there, in one kernel over the shell of ghosts instead
// of one per axis. H200, 256^3 hydro, a stage: 32.5 + 21.2 + 20.6 us for
// the three axes' kernels, 38.4 us for this one. The shell in three
// disjoint parts, rows along x: the z-ghost planes, the y-ghost rows
// between them, the x-ghost ends of the interior rows.
bool GhostExchange::periodic_self_all(const Array4& u) {
  const int nvar = int(u.extent(0));
  const int ex = int(u.extent(3)), ey = int(u.extent(2));
  int n[3], g[3];
  for (int d = 0; d < 3; ++d) {
    n[d] = grid_.nx[d];
    g[d] = grid_.gh[d];  // 0 along an inactive axis: no ghosts, no wrap
  }
  const std::int64_t zpart = std::int64_t(2 * g[2]) * ey * ex;
  const std::int64_t ypart = std::int64_t(n[2]) * (2 * g[1]) * ex;
  const std::int64_t xpart = std::int64_t(n[2]) * n[1] * (2 * g[0]);
  // 32-bit index arithmetic (a GPU divides 64-bit integers in software):
  // shells of more cells take the axis-by-axis copies.
  if (zpart + ypart + xpart > std::numeric_limits<int>::max()) return false;
  const int nz = int(zpart), nzy = int(zpart + ypart), gx2 = 2 * g[0], gy2 = 2 * g[1];
  Kokkos::parallel_for("halo_periodic_self_all", Kokkos::RangePolicy<ExecSpace>(0, int(zpart + ypart + xpart)),
                       KOKKOS_LAMBDA(int idx) {
    int i, j, k;
    if (idx < nz) {  // z-ghost planes, whole
      i = idx % ex;
      const int r = idx / ex;
      j = r % ey;
      k = ghost_layer(r / ey, g[2], n[2]);
    } else if (idx < nzy) {  // y-ghost rows between them
      const int y = idx - nz;
      i = y % ex;
      const int r = y / ex;
      j = ghost_layer(r % gy2, g[1], n[1]);
      k = g[2] + r / gy2;
    } else {  // x-ghost ends of the interior rows
      const int x = idx - nzy;
      i = ghost_layer(x % gx2, g[0], n[0]);
      const int r = x / gx2;
      j = g[1] + r % n[1];
      k = g[2] + r / n[1];
    }
    const int si = wrap_index(i, g[0], n[0]), sj = wrap_index(j, g[1], n[1]), sk = wrap_index(k, g[2], n[2]);
    for (int v = 0; v < nvar; ++v) u(v, k, j, i) = u(v, sk, sj, si);
  });
  return true;
}

// exchange_axis of a block periodic onto itself along d for the cells and
// the three face components in one kernel: a slab's copy takes less time
// than a launch, and an MHD stage had twelve of them (FD MHD at 256^3 on
// the H200: 1.478e8 -> 1.499e8 cell-updates/s with three).
void GhostExchange::periodic_self_state(int d, const State& s) {
  const Array4 u = s.u, f0 = s.b.x1f, f1 = s.b.x2f, f2 = s.b.x3f;
  const int nvar = int(u.extent(0)), ng = grid_.gh[d], ie = grid_.ie(d);
  // Across d the slab of the longest array: a face array is one longer
  // along its own axis.
  int e[3] = {int(u.extent(3)) + 1, int(u.extent(2)) + 1, int(u.extent(1)) + 1};
  e[d] = 2 * ng;
  par_for("halo_periodic_self_state", Box{0, e[2], 0, e[1], 0, e[0]}, KOKKOS_LAMBDA(int k, int j, int i) {
    const int c[3] = {i, j, k};
    // nv variables of array a, face-centred along d when st is 1.
    auto copy = [&](const Array4& a, int nv, int st) {
      const int ext[3] = {int(a.extent(3)), int(a.extent(2)), int(a.extent(1))};
      for (int x = 0; x < 3; ++x)
        if (x != d && c[x] >= ext[x]) return;
      int dst[3] = {i, j, k}, src[3] = {i, j, k};
      periodic_self_layers(c[d], ng, ie, st, dst[d], src[d]);
      for (int n = 0; n < nv; ++n) a(n, dst[2], dst[1], dst[0]) = a(n, src[2], src[1], src[0]);
    };
    copy(u, nvar, 0);
    copy(f0, 1, d == 0);
    copy(f1, 1, d == 1);
    copy(f2, 1, d == 2);
  });
}

void GhostExchange::post_axis(int d, const Array4& u, int stagger) {
  const int lo = comm_.neighbor[d][0], hi = comm_.neighbor[d][1];
  const Slab s = make_slab(grid_, d, u);
  const int nvar = int(u.extent(0));
  const std::int64_t face = s.count(nvar);
  const int ng = s.ng, ie = grid_.ie(d), st = stagger == d ? 1 : 0;
  auto send = send_[d];

  // Pack both faces in one kernel: face 0 is the lowest ng interior layers,
  // face 1 the highest.
  par_for_vars("halo_pack", nvar, s.both_faces(), KOKKOS_LAMBDA(int n, int k, int j, int i) {
    int c[3] = {i, j, k};
    const int f = c[d] / ng;
    const int cl = c[d] - f * ng;
    int src[3] = {i, j, k};
    src[d] = f == 0 ? ng + st + cl : ie - ng + cl;
    c[d] = cl;
    send(f * face + slab_index(s.e, n, c[2], c[1], c[0])) = u(n, src[2], src[1], src[0]);
  });

  Real* sbuf = send.data();
  Real* rbuf = recv_[d].data();
  if (!gpu_aware_) {
    Kokkos::deep_copy(send_host_[d], send);
    sbuf = send_host_[d].data();
    rbuf = recv_host_[d].data();
  } else {
    Kokkos::fence();
  }
  const MPI_Datatype type = sizeof(Real) == 8 ? MPI_DOUBLE : MPI_FLOAT;
  MPI_Request* req = requests_[d];
  // A message travels to the receiver's opposite face: what we send down
  // arrives in the lower neighbour's face 1. Tags differ per axis, so the
  // axes of begin() can be in flight together.
  MPI_Irecv(rbuf, int(face), type, lo, 10 * d + 0, comm_.cart, &req[0]);
  MPI_Irecv(rbuf + face, int(face), type, hi, 10 * d + 1, comm_.cart, &req[1]);
  MPI_Isend(sbuf, int(face), type, lo, 10 * d + 1, comm_.cart, &req[2]);
  MPI_Isend(sbuf + face, int(face), type, hi, 10 * d + 0, comm_.cart, &req[3]);
  posted_[d] = true;
  bytes_ += 2 * face * static_cast<long long>(sizeof(Real));
}

void GhostExchange::unpack_axis(int d, const Array4& u, int stagger) {
  MPI_Waitall(4, requests_[d], MPI_STATUSES_IGNORE);
  posted_[d] = false;
  auto recv = recv_[d];
  if (!gpu_aware_) Kokkos::deep_copy(recv, recv_host_[d]);
  const Slab s = make_slab(grid_, d, u);
  const int nvar = int(u.extent(0));
  const std::int64_t face = s.count(nvar);
  const int ng = s.ng, ie = grid_.ie(d), st = stagger == d ? 1 : 0;
  const bool has_lo = comm_.neighbor[d][0] != MPI_PROC_NULL, has_hi = comm_.neighbor[d][1] != MPI_PROC_NULL;
  par_for_vars("halo_unpack", nvar, s.both_faces(), KOKKOS_LAMBDA(int n, int k, int j, int i) {
    int c[3] = {i, j, k};
    const int f = c[d] / ng;
    if ((f == 0 && !has_lo) || (f == 1 && !has_hi)) return;
    const int cl = c[d] - f * ng;
    int dst[3] = {i, j, k};
    dst[d] = f == 0 ? cl : ie + st + cl;
    c[d] = cl;
    u(n, dst[2], dst[1], dst[0]) = recv(f * face + slab_index(s.e, n, c[2], c[1], c[0]));
  });
}

void GhostExchange::set_hydrostatic_walls(const Real g[3], Real inv_gm1, Real pressure_floor) {
  for (int d = 0; d < 3; ++d) wall_energy_per_cell_[d] = g[d] * grid_.dx[d] * inv_gm1;
  wall_energy_floor_ = pressure_floor * inv_gm1;
}

// Outflow copies the last interior layer (for faces along their normal: the
// boundary face); reflecting mirrors it and reverses the normal momentum
// and the normal magnetic field (cell-centred, or the face array normal to
// the wall), and with gravity along d adds the hydrostatic pressure
// difference to the energy (set_hydrostatic_walls).
void GhostExchange::apply_physical(int d, const Array4& u, int stagger) {
  const bool lo = comm_.neighbor[d][0] == MPI_PROC_NULL;
  const bool hi = comm_.neighbor[d][1] == MPI_PROC_NULL;
  if (!lo && !hi) return;
  const Slab s = make_slab(grid_, d, u);
  const int nvar = int(u.extent(0));
  const int ng = s.ng, ie = grid_.ie(d), st = stagger == d ? 1 : 0;
  const bool reflect_lo = bc_[d][0] == BoundaryKind::reflecting;
  const bool reflect_hi = bc_[d][1] == BoundaryKind::reflecting;
  // Variables whose sign a reflection reverses (-1: none).
  const int normal = stagger >= 0 ? (st ? 0 : -1) : IM1 + d;
  const int normal_b = stagger < 0 && nvar > IB1 ? IB1 + d : -1;
  const int energy = stagger < 0 && nvar > IEN ? IEN : -1;
  const Real wall_energy = wall_energy_per_cell_[d], energy_floor = wall_energy_floor_;
  const bool mhd_cells = energy >= 0 && nvar > IB3;
  par_for_vars("physical_boundary", nvar, s.both_faces(), KOKKOS_LAMBDA(int n, int k, int j, int i) {
    int c[3] = {i, j, k};
    const int f = c[d] / ng;
    if ((f == 0 && !lo) || (f == 1 && !hi)) return;
    const int cl = c[d] - f * ng;
    const bool reflect = f == 0 ? reflect_lo : reflect_hi;
    int dst[3] = {i, j, k}, src[3] = {i, j, k};
    if (f == 0) {
      dst[d] = cl;
      src[d] = reflect ? 2 * ng - 1 + st - cl : ng;  // mirror image, or the edge cell (face)
    } else {
      dst[d] = ie + st + cl;
      src[d] = reflect ? ie - 1 - cl : ie - 1 + st;
    }
    const Real sgn = (reflect && (n == normal || n == normal_b)) ? Real(-1) : Real(1);
    Real v = sgn * u(n, src[2], src[1], src[0]);
    if (reflect && n == energy && wall_energy != 0) {
      const Real rho = u(IDN, src[2], src[1], src[0]);
      Real add = rho * (wall_energy * Real(dst[d] - src[d]));
      if (add < 0) {  // the pressure falls into the ghost: not below the floor
        auto sq = [&](int m) { return u(m, src[2], src[1], src[0]) * u(m, src[2], src[1], src[0]); };
        Real rest = Real(0.5) * (sq(IM1) + sq(IM2) + sq(IM3)) / rho;
        if (mhd_cells) rest += Real(0.5) * (sq(IB1) + sq(IB2) + sq(IB3));
        add = math::fmax(add, energy_floor - (v - rest));
      }
      v += add;
    }
    u(n, dst[2], dst[1], dst[0]) = v;
  });
}

}  // namespace ax
