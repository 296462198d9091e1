// Conservation of mass, momentum and energy (and, for MHD, the total
// cell-centred field) to round-off in periodic boxes, and of mass and
// energy between reflecting walls (whose face fluxes carry neither).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "config_text.hpp"
#include "run_helpers.hpp"

namespace ax::test {
namespace {

struct Sums {
  int nvar = 0;
  double total[NMHD] = {0, 0, 0, 0, 0, 0, 0, 0};
  double scale[NMHD] = {0, 0, 0, 0, 0, 0, 0, 0};  // sum of |U|, the size of round-off
};

Sums sums(const Simulation& sim) {
  const HostState s = interior(sim);
  const std::size_t n = s.v.size() / s.nvar;
  Sums r;
  r.nvar = s.nvar;
  for (int v = 0; v < s.nvar; ++v) {
    for (std::size_t c = 0; c < n; ++c) {
      r.total[v] += s.v[v * n + c];
      r.scale[v] += std::fabs(s.v[v * n + c]);
    }
    r.total[v] = allreduce_sum(sim.comm(), r.total[v]);
    r.scale[v] = allreduce_sum(sim.comm(), r.scale[v]);
  }
  return r;
}

// walls: the run must have reached the upper wall of every axis (the blast
// set off-centre, near that corner), for the walls' fluxes to be tested.
void check_conserved(const std::string& file, std::vector<std::string> sets, long long steps,
                     bool walls = false) {
  sets.push_back("time.max_steps=" + std::to_string(steps));
  Config cfg = config_from(read_config(file), sets);
  Comm comm = comm_for(cfg);
  {
    Simulation sim(cfg, comm, false);
    sim.initialize();
    const Sums a = sums(sim);
    const HostState s0 = interior(sim);
    evolve(sim);
    ASSERT_EQ(sim.steps(), steps);
    const Sums b = sums(sim);
    if (walls) {
      const HostState s1 = interior(sim);
      for (int d = 0; d < 3; ++d) {
        const double change = wall_layer_change(s0, s1, d);
        std::printf("%s: density change at the upper wall of axis %d: %.2e\n", file.c_str(), d, change);
        EXPECT_GT(change, 1e-2) << file << ": the blast never reached the wall of axis " << d;
      }
    }
    // Round-off grows with the number of cells and steps: a few 1e-16
    // times the sum of |U| per step, far below any truncation error.
    for (int v = 0; v < a.nvar; ++v) {
      // Walls that the flow reaches push on it: momentum is conserved only
      // in a periodic box (and by symmetry in a box whose blast never
      // reaches a wall, which the wall runs rule out).
      if (walls && v >= IM1 && v <= IM3) continue;
      const double scale = std::max(a.scale[v], b.scale[v]);
      const double change = std::fabs(b.total[v] - a.total[v]);
      if (scale == 0) {
        EXPECT_EQ(change, 0.0) << file << " variable " << v;
        continue;
      }
      std::printf("%s variable %d: relative change %.2e\n", file.c_str(), v, change / scale);
      EXPECT_LE(change / scale, 1e-12) << file << " variable " << v;
    }
  }
  free_comm(comm);
}

TEST(Conservation, PeriodicKelvinHelmholtz2D) {
  check_conserved("kelvin_helmholtz.yaml", {"mesh.cells=[64,128,1]"}, 40);
}

TEST(Conservation, PeriodicBlast3D) {
  check_conserved("blast3d.yaml", {"mesh.cells=[24,36,24]"}, 30);
}

// The blast set off near the box's upper corner, so that it reflects from
// the three upper walls within the run.
TEST(Conservation, ReflectingBoxBlast3D) {
  for (const char* rs : {"hllc", "hlle", "llf"})
    check_conserved("blast3d.yaml",
                    {"mesh.cells=[24,36,24]", "boundaries.x=reflecting", "boundaries.y=reflecting",
                     "boundaries.z=reflecting", "problem.center=[0.3,0.55,0.3]",
                     std::string("solver.riemann=") + rs},
                    30, true);
}

// FD WENO5 in flux-difference form: each face flux enters its two cells
// with opposite signs, so the same bound holds, for every integrator.
TEST(Conservation, FdPeriodicAndReflecting) {
  for (const char* integ : {"ssprk5_4", "rk3", "lsrk4"}) {
    const std::string ti = std::string("time.integrator=") + integ;
    check_conserved("kelvin_helmholtz.yaml", {"mesh.cells=[32,64,1]", "solver.family=fd", ti}, 30);
    check_conserved("blast3d.yaml",
                    {"mesh.cells=[24,24,24]", "solver.family=fd", ti, "boundaries.x=reflecting",
                     "boundaries.y=reflecting", "boundaries.z=reflecting", "problem.center=[0.3,0.5,0.3]"},
                    20, true);
  }
}

// MHD: the cell-centred field is the face average, so in a periodic box its
// total is the sum of the face field, which the curl of the edge EMFs leaves
// unchanged; for every solver and both edge-EMF choices.
TEST(Conservation, MhdPeriodicOrszagTang2D) {
  for (const char* rs : {"hlld", "hlle", "llf"})
    for (const char* emf : {"gs05", "uct_hlld"})
      check_conserved("orszag_tang.yaml",
                      {"mesh.cells=[48,48,1]", std::string("solver.riemann=") + rs,
                       std::string("solver.corner_emf=") + emf},
                      30);
}

TEST(Conservation, MhdPeriodicBlast3D) {
  for (const char* emf : {"gs05", "uct_hlld"})
    check_conserved("mhd_blast3d.yaml", {"mesh.cells=[16,24,16]", std::string("solver.corner_emf=") + emf}, 20);
}

}  // namespace
}  // namespace ax::test
