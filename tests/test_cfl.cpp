// The CFL condition (hydro/cfl.hpp): one cell's signal rate against the
// formula, a broken cell stopping the run, and the reduction over a block.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "hydro/cfl.hpp"
#include "hydro/hydro_kernels.hpp"
#include "mhd/mhd_eos.hpp"
#include "mhd/mhd_kernels.hpp"
#include "run_helpers.hpp"

namespace ax {
namespace {

CflAxes axes(bool x, bool y, bool z, bool sum) {
  CflAxes a{};
  const Real dx[3] = {Real(0.1), Real(0.2), Real(0.4)};
  const bool active[3] = {x, y, z};
  for (int d = 0; d < 3; ++d) {
    a.active[d] = active[d];
    a.inv_dx[d] = Real(1) / dx[d];
  }
  a.sum_axes = sum;
  return a;
}

// rho 2, v (0.5, -1.5, 0.25), p 3, gamma 5/3: c = sqrt(2.5).
void conserved(Real u[NHYDRO]) {
  const IdealGas eos(Real(5) / Real(3));
  const Real w[NHYDRO] = {2, Real(0.5), Real(-1.5), Real(0.25), 3};
  prim_to_cons(eos, w, u);
}

TEST(Cfl, SignalRateOfOneCell) {
  const IdealGas eos(Real(5) / Real(3));
  Real u[NHYDRO];
  conserved(u);
  const double c = std::sqrt(2.5);
  const double rx = (0.5 + c) / 0.1, ry = (1.5 + c) / 0.2, rz = (0.25 + c) / 0.4;
  const double tol = sizeof(Real) == 8 ? 1e-14 : 1e-6;
  EXPECT_NEAR(cell_signal_rate(eos, axes(true, true, true, false), u), std::max({rx, ry, rz}), tol * rx);
  EXPECT_NEAR(cell_signal_rate(eos, axes(true, true, true, true), u), rx + ry + rz, tol * rx);
  // Inactive axes do not count: y alone, then y and z summed.
  EXPECT_NEAR(cell_signal_rate(eos, axes(false, true, false, false), u), ry, tol * ry);
  EXPECT_NEAR(cell_signal_rate(eos, axes(false, true, true, true), u), ry + rz, tol * ry);
  EXPECT_NEAR(double(cfl_dt_from_rate(Real(rx))), 0.1 / (0.5 + c), tol);
}

TEST(Cfl, BrokenCellsStopTheRun) {
  const IdealGas eos(Real(5) / Real(3));
  const CflAxes a = axes(true, true, false, false);
  Real u[NHYDRO];
  conserved(u);
  Real bad[NHYDRO];
  auto with = [&](int n, Real v) {
    for (int m = 0; m < NHYDRO; ++m) bad[m] = u[m];
    bad[n] = v;
    return cell_signal_rate(eos, a, bad);
  };
  EXPECT_EQ(with(IDN, Real(0)), kBrokenRate);
  EXPECT_EQ(with(IDN, Real(-1)), kBrokenRate);
  EXPECT_EQ(with(IEN, std::numeric_limits<Real>::quiet_NaN()), kBrokenRate);
  EXPECT_EQ(with(IM3, std::numeric_limits<Real>::quiet_NaN()), kBrokenRate);  // along an inactive axis too
  EXPECT_EQ(with(IEN, Real(-10)), kBrokenRate);  // negative pressure: c is NaN
  EXPECT_LT(with(IEN, u[IEN]), kBrokenRate);
  // The step of the largest rate is 0: the driver's check (dt > 0) stops.
  EXPECT_EQ(cfl_dt_from_rate(kBrokenRate), Real(0));
}

// The driver's reduction over a block (backend/loops.hpp: par_max, a team
// reduction and an atomic on GPUs): the largest rate of its cells, one of
// them well above the rest, and 0 as the step of a block with a broken cell.
TEST(Cfl, LargestRateOverTheBlock) {
  const IdealGas eos(Real(1.4));
  const int n[3] = {37, 21, 5}, dims[3] = {1, 1, 1}, coords[3] = {0, 0, 0};
  const Real lo[3] = {0, 0, 0}, hi[3] = {1, 2, 3};
  const Grid g = make_grid(n, lo, hi, 2, dims, coords);
  const CflAxes a = cfl_axes(g, false);
  Array4 u = g.make_array("u", NHYDRO);
  auto h = Kokkos::create_mirror_view(u);
  double expect = 0;
  for (int k = g.is(2); k < g.ie(2); ++k)
    for (int j = g.is(1); j < g.ie(1); ++j)
      for (int i = g.is(0); i < g.ie(0); ++i) {
        const bool fast = i == 30 && j == 4 && k == 3;  // the largest by far
        const Real w[NHYDRO] = {Real(1 + 0.01 * i), Real(fast ? 40 : 0.1 * j), Real(-0.05 * k), Real(0.02 * i),
                                Real(1 + 0.003 * (i + j + k))};
        Real c[NHYDRO];
        prim_to_cons(eos, w, c);
        for (int v = 0; v < NHYDRO; ++v) h(v, k, j, i) = c[v];
        expect = std::max(expect, double(cell_signal_rate(eos, a, c)));
      }
  Kokkos::deep_copy(u, h);
  const double rate = local_signal_rate(g, eos, u);
  // Bitwise on CPUs; a GPU may contract the rate's products into FMAs.
  EXPECT_NEAR(rate, expect, 1e-14 * expect);
  EXPECT_GT(expect, 40 / g.dx[0]);
  h(IEN, g.is(2) + 1, g.is(1) + 2, g.is(0) + 3) = std::numeric_limits<Real>::quiet_NaN();
  Kokkos::deep_copy(u, h);
  EXPECT_EQ(local_cfl_dt(g, eos, u), Real(0));
}

// MHD (mhd_local_cfl_dt): a uniform block whose field has a different
// component along each axis, against the fast speed written out, each axis
// with its own normal component; the FD form sums the axes.
TEST(Cfl, MhdFastSpeedAlongEachAxis) {
  const IdealGas eos(Real(5) / Real(3));
  const int n[3] = {9, 7, 5}, dims[3] = {1, 1, 1}, coords[3] = {0, 0, 0};
  const Real lo[3] = {0, 0, 0}, hi[3] = {Real(0.9), Real(1.4), Real(2.5)};  // dx 0.1, 0.2, 0.5
  const Grid g = make_grid(n, lo, hi, 2, dims, coords);
  const double rho = 2, p = 0.7, v[3] = {0.3, -0.2, 0.1}, b[3] = {1.5, 0.4, -0.9};
  Real w[NMHD] = {Real(rho), Real(v[0]), Real(v[1]), Real(v[2]), Real(p), Real(b[0]), Real(b[1]), Real(b[2])};
  Real c[NMHD];
  mhd_prim_to_cons(eos, w, c);
  Array4 u = g.make_array("u", NMHD);
  auto h = Kokkos::create_mirror_view(u);
  for (int m = 0; m < NMHD; ++m)
    for (int k = 0; k < g.extent(2); ++k)
      for (int j = 0; j < g.extent(1); ++j)
        for (int i = 0; i < g.extent(0); ++i) h(m, k, j, i) = c[m];
  Kokkos::deep_copy(u, h);
  const double a2 = 5.0 / 3.0 * p / rho, bb = (b[0] * b[0] + b[1] * b[1] + b[2] * b[2]) / rho;
  double largest = 0, sum = 0;
  for (int d = 0; d < 3; ++d) {
    const double cf = std::sqrt(0.5 * (a2 + bb + std::sqrt((a2 + bb) * (a2 + bb) - 4 * a2 * b[d] * b[d] / rho)));
    const double rate = (std::fabs(v[d]) + cf) / g.dx[d];
    largest = std::max(largest, rate);
    sum += rate;
  }
  const double tol = sizeof(Real) == 8 ? 1e-13 : 1e-5;
  EXPECT_NEAR(double(mhd_local_cfl_dt(g, eos, u)), 1 / largest, tol / largest);
  EXPECT_NEAR(double(mhd_local_cfl_dt(g, eos, u, true)), 1 / sum, tol / sum);
  h(IEN, 3, 4, 5) = Real(-1);  // negative pressure in one cell
  Kokkos::deep_copy(u, h);
  EXPECT_EQ(mhd_local_cfl_dt(g, eos, u), Real(0));
}

// The run's step takes the family's form: the largest rate over the axes
// for FV (Athena++'s), their sum for FD, hydro and MHD alike. A 3D state
// with a different speed along each axis tells the two apart by 2-3x.
TEST(Cfl, RunStepTakesTheFamilysForm) {
  struct Case {
    const char* config;
    bool mhd;
  };
  for (const Case& c : {Case{"blast3d.yaml", false}, Case{"mhd_blast3d.yaml", true}})
    for (const char* family : {"fv", "fd"}) {
      const bool fd = std::string(family) == "fd";
      Config cfg = test::config_from(test::read_config(c.config),
                                     {"mesh.cells=[16,24,16]", std::string("solver.family=") + family});
      Comm comm = test::comm_for(cfg);
      {
        Simulation sim(cfg, comm, false);
        sim.initialize();
        const Grid& g = sim.grid();
        const Real local = c.mhd ? mhd_local_cfl_dt(g, cfg.eos, sim.state(), fd)
                                 : local_cfl_dt(g, cfg.eos, sim.state(), fd);
        const Real other = c.mhd ? mhd_local_cfl_dt(g, cfg.eos, sim.state(), !fd)
                                 : local_cfl_dt(g, cfg.eos, sim.state(), !fd);
        EXPECT_EQ(sim.cfl_dt(), Real(cfg.cfl * local)) << c.config << " " << family;
        EXPECT_GT(std::fabs(double(local) / double(other) - 1), 0.5) << "the two forms agree here";
      }
      free_comm(comm);
    }
}

}  // namespace
}  // namespace ax
