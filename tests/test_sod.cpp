// Sod's shock tube against the exact Riemann solution.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include "config_text.hpp"
#include "exact_riemann.hpp"
#include "run_helpers.hpp"

namespace ax::test {
namespace {

// Density L1 error (mean absolute difference per cell) at t_end along `axis`.
double sod_density_l1(const std::string& yaml, int n, std::vector<std::string> sets,
                      std::vector<double>* profile = nullptr) {
  const std::string cells[3] = {"[" + std::to_string(n) + ",1,1]", "[1," + std::to_string(n) + ",1]",
                                "[1,1," + std::to_string(n) + "]"};
  Config probe = config_from(yaml);
  int axis = probe.nx[0] > 1 ? 0 : (probe.nx[1] > 1 ? 1 : 2);
  sets.push_back("mesh.cells=" + cells[axis]);
  Config cfg = config_from(yaml, sets);
  Comm comm = comm_for(cfg);
  double l1 = 0;
  {
    Simulation sim(cfg, comm, false);
    sim.initialize();
    evolve(sim);
    EXPECT_NEAR(sim.time(), 0.2, 1e-12);
    const HostState s = interior(sim);
    const ExactRiemann exact({1, 0, 1}, {0.125, 0, 0.1}, cfg.gamma);
    const Grid& g = sim.grid();
    for (int c = 0; c < n; ++c) {
      const int idx[3] = {axis == 0 ? c : 0, axis == 1 ? c : 0, axis == 2 ? c : 0};
      const double x = g.x_center(axis, g.is(axis) + c);
      const double rho = s.at(IDN, idx[2], idx[1], idx[0]);
      const double middle = 0.5 * (cfg.xmin[axis] + cfg.xmax[axis]);  // problem.position's default
      l1 += std::fabs(rho - exact.sample((x - middle) / sim.time()).rho);
      if (profile) profile->push_back(rho);
    }
  }
  free_comm(comm);
  return l1 / n;
}

TEST(SodExact, StarStateOfExactSolver) {
  // Toro's table 4.2, test 1: p* = 0.30313, u* = 0.92745.
  const ExactRiemann e({1, 0, 1}, {0.125, 0, 0.1}, 1.4);
  EXPECT_NEAR(e.star_pressure(), 0.30313, 1e-5);
  EXPECT_NEAR(e.star_velocity(), 0.92745, 1e-5);
}

// Athena++'s shock-tube thresholds: density L1 <= 0.011 at the lowest
// resolution, and err(2N) <= 0.6 err(N) for every doubling. (First-order
// convergence at the shock and contact gives 0.5; 0.6 leaves room for the
// slower convergence at the contact.)
TEST(SodExact, ConvergesForEveryRiemannSolver) {
  for (const char* rs : {"hllc", "hlle", "llf"}) {
    const double e128 = sod_density_l1(read_config("sod.yaml"), 128, {std::string("solver.riemann=") + rs});
    const double e256 = sod_density_l1(read_config("sod.yaml"), 256, {std::string("solver.riemann=") + rs});
    const double e512 = sod_density_l1(read_config("sod.yaml"), 512, {std::string("solver.riemann=") + rs});
    std::printf("sod %s: L1(128) = %.4e  L1(256) = %.4e  L1(512) = %.4e  ratios %.3f %.3f\n", rs,
                e128, e256, e512, e256 / e128, e512 / e256);
    EXPECT_LE(e128, 0.011) << rs;
    EXPECT_LE(e256 / e128, 0.6) << rs;
    EXPECT_LE(e512 / e256, 0.6) << rs;
  }
}

TEST(SodExact, SameAlongEveryAxis) {
  std::vector<double> px, py, pz;
  const double ex = sod_density_l1(read_config("sod.yaml"), 128, {}, &px);
  const double ey = sod_density_l1(read_config("sod_y.yaml"), 128, {}, &py);
  const double ez = sod_density_l1(read_config("sod_z.yaml"), 128, {}, &pz);
  EXPECT_LE(ex, 0.011);
  EXPECT_EQ(ex, ey);
  EXPECT_EQ(ex, ez);
  ASSERT_EQ(px.size(), py.size());
  for (std::size_t i = 0; i < px.size(); ++i) {
    EXPECT_EQ(px[i], py[i]) << i;
    EXPECT_EQ(px[i], pz[i]) << i;
  }
}

// The discontinuity sits in the middle of the domain unless problem.position
// says otherwise: sod.yaml moved to [-0.5, 0.5] is the same run, bit for bit.
TEST(SodExact, DefaultPositionIsTheMiddle) {
  std::vector<double> at0, shifted;
  const double e0 = sod_density_l1(read_config("sod.yaml"), 128, {}, &at0);
  std::string yaml = read_config("sod.yaml");
  const std::size_t at = yaml.find("  position: 0.5\n");
  ASSERT_NE(at, std::string::npos);
  yaml.erase(at, std::string("  position: 0.5\n").size());
  const double e1 = sod_density_l1(yaml, 128, {"mesh.lower=[-0.5,0,0]", "mesh.upper=[0.5,1,1]"}, &shifted);
  EXPECT_LE(e1, 0.011);
  EXPECT_EQ(e0, e1);
  EXPECT_EQ(at0, shifted);
}

// FD WENO5 with the same thresholds, for both weight families and every
// integrator the family takes; and the same along x, y and z.
TEST(SodExact, FdWenoConverges) {
  for (const char* weno : {"js", "z"})
    for (const char* integ : {"ssprk5_4", "rk3", "lsrk4"}) {
      const std::vector<std::string> sets = {"solver.family=fd", std::string("solver.weno=") + weno,
                                             std::string("time.integrator=") + integ};
      const double e128 = sod_density_l1(read_config("sod.yaml"), 128, sets);
      const double e256 = sod_density_l1(read_config("sod.yaml"), 256, sets);
      const double e512 = sod_density_l1(read_config("sod.yaml"), 512, sets);
      std::printf("sod fd weno-%s %s: L1(128) = %.4e  L1(256) = %.4e  L1(512) = %.4e  ratios %.3f %.3f\n", weno,
                  integ, e128, e256, e512, e256 / e128, e512 / e256);
      EXPECT_LE(e128, 0.011) << weno << " " << integ;
      EXPECT_LE(e256 / e128, 0.6) << weno << " " << integ;
      EXPECT_LE(e512 / e256, 0.6) << weno << " " << integ;
    }
  std::vector<double> px, py, pz;
  const double ex = sod_density_l1(read_config("sod.yaml"), 128, {"solver.family=fd"}, &px);
  const double ey = sod_density_l1(read_config("sod_y.yaml"), 128, {"solver.family=fd"}, &py);
  const double ez = sod_density_l1(read_config("sod_z.yaml"), 128, {"solver.family=fd"}, &pz);
  EXPECT_EQ(ex, ey);
  EXPECT_EQ(ex, ez);
  EXPECT_EQ(px, py);
  EXPECT_EQ(px, pz);
}

}  // namespace
}  // namespace ax::test
