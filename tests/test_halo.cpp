// Ghost zones: every ghost cell, edges and corners included, holds what the
// boundary condition says, and the process grid is chosen as documented.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>

#include <string>

#include "backend/comm.hpp"
#include "backend/halo.hpp"
#include "config_text.hpp"
#include "driver/exchange_overlap.hpp"
#include "fv/fv_hydro.hpp"
#include "run_helpers.hpp"

namespace ax::test {
namespace {

// A distinct value for every (variable, global cell).
double tag(int n, int gk, int gj, int gi) { return n * 1e6 + gk * 1e4 + gj * 1e2 + gi; }

// Where the ghost cell at global index g (outside [0, n)) takes its value from.
int source(int g, int n, BoundaryKind lo, BoundaryKind hi, bool* flip) {
  if (g >= 0 && g < n) return g;
  const BoundaryKind b = g < 0 ? lo : hi;
  if (b == BoundaryKind::periodic) return (g + n) % n;
  if (b == BoundaryKind::outflow) return g < 0 ? 0 : n - 1;
  *flip = !*flip;
  return g < 0 ? -1 - g : 2 * n - 1 - g;
}

// The whole mesh as one block on one rank, with ghosts of width 2.
struct OneBlock {
  Grid g;
  Comm comm;
  OneBlock(const int n[3], const Real lo[3], const Real hi[3], const bool periodic[3]) {
    const int dims[3] = {1, 1, 1}, coords[3] = {0, 0, 0};
    g = make_grid(n, lo, hi, 2, dims, coords);
    comm = make_comm(MPI_COMM_WORLD, dims, periodic);
  }
  ~OneBlock() { free_comm(comm); }
  OneBlock(const OneBlock&) = delete;
  OneBlock& operator=(const OneBlock&) = delete;
};

void check_fill(BoundaryKind x, BoundaryKind y, BoundaryKind z, int nx = 6, int ny = 5, int nz = 4) {
  const int n[3] = {nx, ny, nz};
  const Real lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  const bool periodic[3] = {x == BoundaryKind::periodic, y == BoundaryKind::periodic,
                            z == BoundaryKind::periodic};
  const OneBlock block(n, lo, hi, periodic);
  const Grid& g = block.g;
  const Comm& comm = block.comm;
  const BoundaryKind bc[3][2] = {{x, x}, {y, y}, {z, z}};
  Array4 u = g.make_array("u", NHYDRO);
  auto h = Kokkos::create_mirror_view(u);
  for (int v = 0; v < NHYDRO; ++v)
    for (int k = 0; k < g.extent(2); ++k)
      for (int j = 0; j < g.extent(1); ++j)
        for (int i = 0; i < g.extent(0); ++i) {
          const bool inside = i >= g.is(0) && i < g.ie(0) && j >= g.is(1) && j < g.ie(1) && k >= g.is(2) && k < g.ie(2);
          h(v, k, j, i) = inside ? tag(v, k - g.is(2), j - g.is(1), i - g.is(0)) : -999.0;
        }
  Kokkos::deep_copy(u, h);
  GhostExchange ghosts(g, comm, NHYDRO, bc, false);
  ghosts.fill(u);
  Kokkos::deep_copy(h, u);
  long long bad = 0;
  for (int v = 0; v < NHYDRO; ++v)
    for (int k = 0; k < g.extent(2); ++k)
      for (int j = 0; j < g.extent(1); ++j)
        for (int i = 0; i < g.extent(0); ++i) {
          bool fx = false, fy = false, fz = false;
          const int si = source(i - g.is(0), n[0], x, x, &fx), sj = source(j - g.is(1), n[1], y, y, &fy),
                    sk = source(k - g.is(2), n[2], z, z, &fz);
          double expect = tag(v, sk, sj, si);
          if ((v == IM1 && fx) || (v == IM2 && fy) || (v == IM3 && fz)) expect = -expect;
          if (h(v, k, j, i) != expect) ++bad;
        }
  EXPECT_EQ(bad, 0);
}

// Reflecting walls under gravity (GhostExchange::set_hydrostatic_walls):
// every ghost's energy is its mirror image's plus rho g_d dx_d (x_ghost -
// x_image) / (gamma - 1) along each axis it is a ghost of, in the order
// the axes are filled (x, y, z), so edges and corners too; the other
// variables as without gravity. Lower and upper walls of all three axes.
TEST(Halo, HydrostaticReflectingWalls) {
  const int n[3] = {6, 5, 4};
  const Real lo[3] = {0, 0, 0}, hi[3] = {1.5, 1, 0.5};
  const bool periodic[3] = {false, false, false};
  const OneBlock block(n, lo, hi, periodic);
  const Grid& g = block.g;
  const Comm& comm = block.comm;
  const BoundaryKind r = BoundaryKind::reflecting;
  const BoundaryKind bc[3][2] = {{r, r}, {r, r}, {r, r}};
  const Real grav[3] = {0.3, -0.2, 0.1}, inv_gm1 = 2.5;
  Array4 u = g.make_array("u", NHYDRO);
  auto h = Kokkos::create_mirror_view(u);
  Kokkos::deep_copy(h, -999.0);
  for (int v = 0; v < NHYDRO; ++v)
    for (int k = 0; k < n[2]; ++k)
      for (int j = 0; j < n[1]; ++j)
        for (int i = 0; i < n[0]; ++i) h(v, k + g.is(2), j + g.is(1), i + g.is(0)) = tag(v, k, j, i);
  Kokkos::deep_copy(u, h);
  GhostExchange ghosts(g, comm, NHYDRO, bc, false);
  ghosts.set_hydrostatic_walls(grav, inv_gm1, -std::numeric_limits<Real>::infinity());  // the tags' energies: no floor
  ghosts.fill(u);
  Kokkos::deep_copy(h, u);
  long long bad = 0, adjusted = 0;
  for (int v = 0; v < NHYDRO; ++v)
    for (int k = 0; k < g.extent(2); ++k)
      for (int j = 0; j < g.extent(1); ++j)
        for (int i = 0; i < g.extent(0); ++i) {
          const int at[3] = {i - g.is(0), j - g.is(1), k - g.is(2)};
          bool flip[3] = {false, false, false};
          int src[3];
          for (int d = 0; d < 3; ++d) src[d] = source(at[d], n[d], r, r, &flip[d]);
          double expect = tag(v, src[2], src[1], src[0]);
          if (v >= IM1 && v <= IM3 && flip[v - IM1]) expect = -expect;
          if (v == IEN)
            for (int d = 0; d < 3; ++d) {
              if (at[d] == src[d]) continue;  // not a ghost along d
              expect += tag(IDN, src[2], src[1], src[0]) * (grav[d] * g.dx[d] * inv_gm1 * Real(at[d] - src[d]));
              ++adjusted;
            }
          if (h(v, k, j, i) != expect) ++bad;
        }
  EXPECT_EQ(bad, 0);
  EXPECT_GT(adjusted, 0);
}

// Where the hydrostatic pressure would fall below the floor in a ghost (a
// scale height under a cell), the ghost keeps the floor; a rising one is
// left alone. Uniform gas, rho = 2, p = 0.01, g = -1 along y on cells of
// 0.1: the two ghosts above the top wall, 1 and 3 cells from their images,
// would have p = 0.01 - 0.2 and 0.01 - 0.6; those below gain as much.
TEST(Halo, HydrostaticWallsKeepThePressureFloor) {
  const int n[3] = {3, 4, 1};
  const Real lo[3] = {0, 0, 0}, hi[3] = {0.3, 0.4, 1};
  const bool periodic[3] = {true, false, true};
  const OneBlock block(n, lo, hi, periodic);
  const Grid& g = block.g;
  const Comm& comm = block.comm;
  const BoundaryKind r = BoundaryKind::reflecting, p = BoundaryKind::periodic;
  const BoundaryKind bc[3][2] = {{p, p}, {r, r}, {p, p}};
  const Real grav[3] = {0, -1, 0}, inv_gm1 = 1.5, rho = 2, press = 0.01, floor = 1e-3, vx = 0.5, by = 0.25;
  for (const int nvar : {NHYDRO, NHYDRO + 3}) {
    Array4 u = g.make_array("u", nvar);
    auto h = Kokkos::create_mirror_view(u);
    Kokkos::deep_copy(h, 0.0);
    const Real energy = press * inv_gm1 + Real(0.5) * rho * vx * vx + (nvar > NHYDRO ? Real(0.5) * by * by : Real(0));
    for (int k = 0; k < g.extent(2); ++k)
      for (int j = 0; j < g.extent(1); ++j)
        for (int i = 0; i < g.extent(0); ++i) {
          h(IDN, k, j, i) = rho;
          h(IM1, k, j, i) = rho * vx;
          h(IEN, k, j, i) = energy;
          if (nvar > NHYDRO) h(IB2, k, j, i) = by;
        }
    Kokkos::deep_copy(u, h);
    GhostExchange ghosts(g, comm, nvar, bc, false);
    ghosts.set_hydrostatic_walls(grav, inv_gm1, floor);
    ghosts.fill(u);
    Kokkos::deep_copy(h, u);
    int floored = 0, risen = 0;
    for (int j = 0; j < g.extent(1); ++j) {
      const int at = j - g.is(1);
      if (at >= 0 && at < n[1]) continue;
      const int image = at < 0 ? -1 - at : 2 * n[1] - 1 - at;
      const Real hydrostatic = press + rho * grav[1] * g.dx[1] * Real(at - image);
      const Real expect = std::max(hydrostatic, floor);
      const int i = g.is(0), k = g.is(2);
      const Real got = (h(IEN, k, j, i) - (energy - press * inv_gm1)) / inv_gm1;
      EXPECT_NEAR(got, expect, sizeof(Real) == 8 ? 1e-15 : 1e-6) << "nvar " << nvar << " ghost " << at;
      floored += hydrostatic < floor;
      risen += hydrostatic > press;
    }
    EXPECT_EQ(floored, 2);  // both ghosts above the top wall
    EXPECT_EQ(risen, 2);
  }
}

TEST(Halo, PeriodicEverywhere) { check_fill(BoundaryKind::periodic, BoundaryKind::periodic, BoundaryKind::periodic); }
// One kernel over the shell when every active axis is periodic on one rank
// (GhostExchange::periodic_self_all): inactive axes have no ghosts.
TEST(Halo, PeriodicEverywhere2D1D) {
  check_fill(BoundaryKind::periodic, BoundaryKind::periodic, BoundaryKind::periodic, 6, 5, 1);
  check_fill(BoundaryKind::periodic, BoundaryKind::periodic, BoundaryKind::periodic, 7, 1, 1);
}
TEST(Halo, OutflowEverywhere) { check_fill(BoundaryKind::outflow, BoundaryKind::outflow, BoundaryKind::outflow); }
TEST(Halo, ReflectingEverywhere) { check_fill(BoundaryKind::reflecting, BoundaryKind::reflecting, BoundaryKind::reflecting); }
TEST(Halo, Mixed) { check_fill(BoundaryKind::reflecting, BoundaryKind::periodic, BoundaryKind::outflow); }

// Where ghost point g of an axis with n cells takes its value from; faces
// normal to the axis (n + 1 of them, the two boundary faces in the
// interior) when `faces`. A reflecting wall mirrors about the boundary face
// and sets *flip.
int source_of(int g, int n, BoundaryKind b, bool faces, bool* flip) {
  const int last = faces ? n : n - 1;
  if (g >= 0 && g <= last) return g;
  if (b == BoundaryKind::outflow) return g < 0 ? 0 : last;
  if (b == BoundaryKind::reflecting) {
    *flip = true;
    if (faces) return g < 0 ? -g : 2 * n - g;
    return g < 0 ? -1 - g : 2 * n - 1 - g;
  }
  return g < 0 ? g + n : g - n;
}

// A communicator on which the block's neighbours along every axis are the
// block itself, reached by messages: MPI_COMM_SELF, whose only rank (0) is
// every neighbour, while the block calls itself rank 1 so that the exchange
// does not take the neighbours for itself and copy without messages.
Comm comm_to_itself() {
  Comm c;
  c.cart = MPI_COMM_SELF;
  c.rank = 1;
  for (int d = 0; d < 3; ++d) {
    c.dims[d] = 2;
    c.neighbor[d][0] = c.neighbor[d][1] = 0;
  }
  return c;
}

// An MHD state: the cells and the three face components, each ghost from
// its source (periodic axes copy within the block in one kernel an axis;
// reflecting walls mirror and reverse the normal momentum and field).
// With `messages` the block is one of 2 x 2 x 2 of a periodic domain and
// sends its faces to itself (comm_to_itself): every ghost then goes through
// the pack kernel, MPI and the unpack kernel, as between two ranks, and must
// land where the periodic copy puts it. One process (a GPU) covers that path:
// a Kokkos build that ran no kernel holding a one-dimensional View passed
// every one-rank test and broke down on two ranks (backend/device_check.hpp).
void check_state_fill(BoundaryKind x, BoundaryKind y, BoundaryKind z, bool messages = false) {
  const int n[3] = {6, 5, 4}, ng = 3, split = messages ? 2 : 1;
  const int n_global[3] = {n[0] * split, n[1] * split, n[2] * split};
  const Real lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  const int dims[3] = {split, split, split}, coords[3] = {0, 0, 0};
  const Grid g = make_grid(n_global, lo, hi, ng, dims, coords);
  const BoundaryKind bk[3] = {x, y, z};
  const bool periodic[3] = {x == BoundaryKind::periodic, y == BoundaryKind::periodic, z == BoundaryKind::periodic};
  Comm comm = messages ? comm_to_itself() : make_comm(MPI_COMM_WORLD, dims, periodic);
  const BoundaryKind bc[3][2] = {{x, x}, {y, y}, {z, z}};
  const State s = make_state(g, NMHD, true, "s");
  // Array a (cells: -1, faces along f) tagged inside, -999 in the ghosts.
  auto host_of = [&](const Array4& a, int f, bool fill_tags) {
    auto h = Kokkos::create_mirror_view(a);
    for (int v = 0; v < int(a.extent(0)); ++v)
      for (int k = 0; k < int(a.extent(1)); ++k)
        for (int j = 0; j < int(a.extent(2)); ++j)
          for (int i = 0; i < int(a.extent(3)); ++i) {
            const int p[3] = {i - ng, j - ng, k - ng};
            bool inside = true;
            for (int d = 0; d < 3; ++d) inside = inside && p[d] >= 0 && p[d] <= n[d] - (d == f ? 0 : 1);
            h(v, k, j, i) = fill_tags && inside ? tag(v + 10 * (f + 1), p[2], p[1], p[0]) : -999.0;
          }
    return h;
  };
  Kokkos::deep_copy(s.u, host_of(s.u, -1, true));
  for (int f = 0; f < 3; ++f) Kokkos::deep_copy(s.b[f], host_of(s.b[f], f, true));
  GhostExchange ghosts(g, comm, NMHD, bc, false, true);
  ghosts.fill(s);
  auto check = [&](const Array4& a, int f) {
    auto h = Kokkos::create_mirror_view(a);
    Kokkos::deep_copy(h, a);
    long long bad = 0;
    for (int v = 0; v < int(a.extent(0)); ++v)
      for (int k = 0; k < int(a.extent(1)); ++k)
        for (int j = 0; j < int(a.extent(2)); ++j)
          for (int i = 0; i < int(a.extent(3)); ++i) {
            const int p[3] = {i - ng, j - ng, k - ng};
            int q[3];
            double sign = 1;
            for (int d = 0; d < 3; ++d) {
              bool flip = false;
              q[d] = source_of(p[d], n[d], bk[d], d == f, &flip);
              // A wall along d reverses the normal momentum and field: in
              // the cells IM1 + d and IB1 + d, of the faces those normal to d.
              if (flip && (f < 0 ? (v == IM1 + d || v == IB1 + d) : f == d)) sign = -sign;
            }
            if (h(v, k, j, i) != sign * tag(v + 10 * (f + 1), q[2], q[1], q[0])) ++bad;
          }
    EXPECT_EQ(bad, 0) << "array " << f << " (-1: cells)";
  };
  check(s.u, -1);
  for (int f = 0; f < 3; ++f) check(s.b[f], f);
  EXPECT_EQ(ghosts.bytes_per_fill() > 0, messages);
  if (!messages) free_comm(comm);
}

TEST(Halo, MhdStatePeriodicEverywhere) {
  check_state_fill(BoundaryKind::periodic, BoundaryKind::periodic, BoundaryKind::periodic);
}
TEST(Halo, MhdStateThroughMessages) {
  check_state_fill(BoundaryKind::periodic, BoundaryKind::periodic, BoundaryKind::periodic, true);
}
TEST(Halo, MhdStateMixed) { check_state_fill(BoundaryKind::outflow, BoundaryKind::periodic, BoundaryKind::outflow); }
TEST(Halo, MhdStateReflecting) {
  check_state_fill(BoundaryKind::reflecting, BoundaryKind::reflecting, BoundaryKind::reflecting);
  check_state_fill(BoundaryKind::reflecting, BoundaryKind::periodic, BoundaryKind::outflow);
}

TEST(Halo, ProcessGridChoice) {
  int dims[3];
  std::string why;
  // A tall box: cutting only z gives 32 x 32 faces, the least surface.
  const int tall[3] = {32, 32, 128};
  ASSERT_TRUE(choose_dims(8, tall, 2, dims, &why));
  EXPECT_EQ(dims[0], 1);
  EXPECT_EQ(dims[1], 1);
  EXPECT_EQ(dims[2], 8);
  const int line[3] = {128, 1, 1};
  ASSERT_TRUE(choose_dims(4, line, 2, dims, &why));
  EXPECT_EQ(dims[0], 4);
  EXPECT_EQ(dims[1], 1);
  const int odd[3] = {5, 1, 1};
  EXPECT_FALSE(choose_dims(2, odd, 2, dims, &why));
  EXPECT_NE(why.find("cannot split"), std::string::npos);
  // 4 ranks on 4 x 4 cells: blocks of one cell row would be thinner than
  // the ghost zones; 2 x 2 blocks of 2 x 2 cells are the only choice.
  const int small[3] = {4, 4, 1};
  ASSERT_TRUE(choose_dims(4, small, 2, dims, &why));
  EXPECT_EQ(dims[0], 2);
  EXPECT_EQ(dims[1], 2);
}

// The overlap of the ghost exchange (driver/exchange_overlap.hpp) for a
// block of a dims process grid whose neighbours along `messages` axes are
// another rank (no message is sent: the plan only reads the neighbours).
ExchangeOverlap overlap_for(const int dims[3], const bool messages[3], const std::vector<std::string>& sets,
                            const int nx_global[3] = nullptr) {
  const int n16[3] = {16, 16, 16};
  const int* n = nx_global ? nx_global : n16;
  const Real lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  const int coords[3] = {0, 0, 0};
  const Grid g = make_grid(n, lo, hi, 2, dims, coords);
  Comm comm;
  for (int d = 0; d < 3; ++d)
    for (int f = 0; f < 2; ++f) comm.neighbor[d][f] = messages[d] ? 1 : MPI_PROC_NULL;
  const BoundaryKind bc[3][2] = {{BoundaryKind::outflow, BoundaryKind::outflow},
                                 {BoundaryKind::outflow, BoundaryKind::outflow},
                                 {BoundaryKind::outflow, BoundaryKind::outflow}};
  const GhostExchange ghosts(g, comm, NHYDRO, bc, false);
  const Config cfg = config_from(read_config("blast3d.yaml"), sets);
  const FvHydro solver(cfg, g);
  return plan_exchange_overlap(cfg, g, ghosts, solver);
}

// Core and shell cover every interior cell exactly once, and the core
// keeps the ghost depth from every face whose ghosts come in messages.
TEST(Halo, OverlapBoxesTileTheInterior) {
  const std::vector<std::string> cells = {"solver.fused_layout=cells", "solver.backend=fused"};
  const int dims_list[][3] = {{2, 1, 1}, {1, 2, 1}, {1, 1, 2}, {2, 1, 2}, {2, 2, 2}};
  for (const auto& dims : dims_list) {
    const bool messages[3] = {dims[0] > 1, dims[1] > 1, dims[2] > 1};
    const ExchangeOverlap o = overlap_for(dims, messages, cells);
    ASSERT_TRUE(o.on) << o.why;
    int axes = 0;
    for (bool m : messages) axes += m;
    EXPECT_EQ(int(o.shell.size()), 2 * axes);
    // Block extents: 16 / dims cells after a ghost depth of 2.
    const int nb[3] = {16 / dims[0], 16 / dims[1], 16 / dims[2]};
    std::vector<int> hits(std::size_t(nb[0]) * nb[1] * nb[2], 0);
    auto mark = [&](const Box& b) {
      for (int k = b.kb; k < b.ke; ++k)
        for (int j = b.jb; j < b.je; ++j)
          for (int i = b.ib; i < b.ie; ++i) {
            ASSERT_TRUE(i >= 2 && i < 2 + nb[0] && j >= 2 && j < 2 + nb[1] && k >= 2 && k < 2 + nb[2]);
            ++hits[(std::size_t(k - 2) * nb[1] + (j - 2)) * nb[0] + (i - 2)];
          }
    };
    mark(o.core);
    for (const Box& b : o.shell) mark(b);
    for (int h : hits) ASSERT_EQ(h, 1) << "dims " << dims[0] << dims[1] << dims[2];
    const int core_lo[3] = {o.core.ib, o.core.jb, o.core.kb}, core_hi[3] = {o.core.ie, o.core.je, o.core.ke};
    for (int d = 0; d < 3; ++d) {
      EXPECT_EQ(core_lo[d], messages[d] ? 4 : 2) << "axis " << d;
      EXPECT_EQ(core_hi[d], messages[d] ? nb[d] : 2 + nb[d]) << "axis " << d;
    }
  }
}

// Where the overlap does not apply, the plan says why.
TEST(Halo, OverlapRefusals) {
  const bool x[3] = {true, false, false}, none[3] = {false, false, false};
  const int two[3] = {2, 1, 1}, one[3] = {1, 1, 1};
  auto why = [](const ExchangeOverlap& o) { return o.on ? std::string("(on)") : o.why; };
  EXPECT_NE(why(overlap_for(one, none, {"solver.fused_layout=cells"})).find("no ghosts"), std::string::npos);
  EXPECT_NE(why(overlap_for(two, x, {"solver.fused_layout=cells", "mesh.overlap_exchange=false"}))
                .find("mesh.overlap_exchange"),
            std::string::npos);
  EXPECT_NE(why(overlap_for(two, x, {"solver.fused_layout=sweeps"})).find("sweeps"), std::string::npos);
  EXPECT_NE(why(overlap_for(two, x, {"solver.backend=native"})).find("native"), std::string::npos);
  // Blocks of 4 cells along x: no core would be left.
  const int eight[3] = {8, 16, 16}, dims4[3] = {2, 1, 1};
  EXPECT_NE(why(overlap_for(dims4, x, {"solver.fused_layout=cells"}, eight)).find("along x"), std::string::npos);
}

}  // namespace
}  // namespace ax::test
