// Ghost zones: every ghost cell, edges and corners included, holds what the
// boundary condition says, and the process grid is chosen as documented.
#include <gtest/gtest.h>

#include "backend/comm.hpp"
#include "backend/halo.hpp"
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

void check_fill(BoundaryKind x, BoundaryKind y, BoundaryKind z) {
  const int n[3] = {6, 5, 4};
  const Real lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  const int dims[3] = {1, 1, 1}, coords[3] = {0, 0, 0};
  const Grid g = make_grid(n, lo, hi, 2, dims, coords);
  const bool periodic[3] = {x == BoundaryKind::periodic, y == BoundaryKind::periodic,
                            z == BoundaryKind::periodic};
  Comm comm = make_comm(MPI_COMM_WORLD, dims, periodic);
  const BoundaryKind bc[3][2] = {{x, x}, {y, y}, {z, z}};
  Array4 u = g.make_array("u", NHYDRO);
  auto h = Kokkos::create_mirror_view(u);
  for (int v = 0; v < NHYDRO; ++v)
    for (int k = 0; k < g.extent(2); ++k)
      for (int j = 0; j < g.extent(1); ++j)
        for (int i = 0; i < g.extent(0); ++i) {
          const bool inside = i >= g.is(0) && i < g.ie(0) && j >= g.is(1) && j < g.ie(1) && k >= g.is(2) && k < g.ie(2);
          h(v, k, j, i) = inside ? tag(v, k - 2, j - 2, i - 2) : -999.0;
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
          const int si = source(i - 2, n[0], x, x, &fx), sj = source(j - 2, n[1], y, y, &fy),
                    sk = source(k - 2, n[2], z, z, &fz);
          double expect = tag(v, sk, sj, si);
          if ((v == IM1 && fx) || (v == IM2 && fy) || (v == IM3 && fz)) expect = -expect;
          if (h(v, k, j, i) != expect) ++bad;
        }
  EXPECT_EQ(bad, 0);
  free_comm(comm);
}

TEST(Halo, PeriodicEverywhere) { check_fill(BoundaryKind::periodic, BoundaryKind::periodic, BoundaryKind::periodic); }
TEST(Halo, OutflowEverywhere) { check_fill(BoundaryKind::outflow, BoundaryKind::outflow, BoundaryKind::outflow); }
TEST(Halo, ReflectingEverywhere) { check_fill(BoundaryKind::reflecting, BoundaryKind::reflecting, BoundaryKind::reflecting); }
TEST(Halo, Mixed) { check_fill(BoundaryKind::reflecting, BoundaryKind::periodic, BoundaryKind::outflow); }

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

}  // namespace
}  // namespace ax::test
