// Constrained transport in whole runs: the normalised div B (AthenaK's
// measure, |div B| dx_min / max |B|) stays at round-off at every step, for
// every solver and edge-EMF choice; and the field-loop advection test of
// Gardiner & Stone (2005): the loop keeps its energy and position, and B_z,
// which only div B could create (dB_z/dt = v_z div B), stays zero.
#include <gtest/gtest.h>

#include <array>
#include <cmath>

#include "config_text.hpp"
#include "mhd/mhd_kernels.hpp"
#include "run_helpers.hpp"

namespace ax::test {
namespace {

// Largest normalised div B over every step of the run; *wall_change the
// largest change of density next to the upper wall of axis 1.
double max_div_b_over_run(const std::string& file, const std::vector<std::string>& sets, long long* steps,
                          double* wall_change) {
  Config cfg = config_from(read_config(file), sets);
  Comm comm = comm_for(cfg);
  double worst = 0;
  {
    Simulation sim(cfg, comm, false);
    sim.initialize();
    const HostState s0 = interior(sim);
    worst = sim.div_b();
    while (sim.time() < cfg.t_end * (1 - 1e-14) && (cfg.max_steps < 0 || sim.steps() < cfg.max_steps)) {
      sim.step(next_dt_checked(sim));
      worst = std::max(worst, sim.div_b());
    }
    *steps = sim.steps();
    *wall_change = wall_layer_change(s0, interior(sim), 1);
  }
  free_comm(comm);
  return worst;
}

// y_wall: the run must have reached the upper y wall (a reflecting one).
void check_div_b(const std::string& file, std::vector<std::string> sets, bool y_wall = false) {
  for (const char* rs : {"hlld", "hlle", "llf"})
    for (const char* emf : {"gs05", "uct_hlld"}) {
      std::vector<std::string> s = sets;
      s.push_back(std::string("solver.riemann=") + rs);
      s.push_back(std::string("solver.corner_emf=") + emf);
      long long steps = 0;
      double wall = 0;
      const double d = max_div_b_over_run(file, s, &steps, &wall);
      std::printf("%s %s %s: max normalised div B over %lld steps %.3e\n", file.c_str(), rs, emf, steps, d);
      EXPECT_LE(d, 1e-12) << file << " " << rs << " " << emf;
      EXPECT_GT(steps, 10);
      if (y_wall) {
        EXPECT_GT(wall, 1e-2) << file << " " << rs << " " << emf << ": the blast never reached the y wall";
      }
    }
}

TEST(MhdCt, DivBOrszagTang) { check_div_b("orszag_tang.yaml", {"mesh.cells=[64,64,1]"}); }
TEST(MhdCt, DivBFieldLoop) { check_div_b("field_loop.yaml", {"mesh.cells=[64,32,1]", "time.end=0.5"}); }
TEST(MhdCt, DivBBlast2D) { check_div_b("mhd_blast2d.yaml", {"mesh.cells=[40,60,1]", "time.end=0.1"}); }
TEST(MhdCt, DivBBlast3DOutflow) {
  // The blast set off near the upper y wall, so that it reflects there.
  check_div_b("mhd_blast3d.yaml",
              {"mesh.cells=[16,24,16]", "time.max_steps=30", "boundaries.x=outflow", "boundaries.y=reflecting",
               "boundaries.z=periodic", "problem.center=[0,0.5,0]"},
              true);
}

// A field threading reflecting walls: the 2D blast with B along x between
// x-walls, to t = 0.6 at 64 x 96. Athena++ (vl2, PLM, HLLD, its GS05 corner
// EMF; 80 x 120) keeps p >= 0.12. Pressure here > 0.115 (measured: GS05
// 0.1205, UCT 0.1191).
// The least gas pressure at t = 0.6 of that run with corner EMF `emf`.
double threaded_walls_least_pressure(const char* emf) {
  const HostState s = evolved_state("mhd_blast2d.yaml", {"mesh.cells=[64,96,1]", "boundaries.x=reflecting",
                                                          "time.end=0.6", std::string("solver.corner_emf=") + emf});
  const double gm1 = 2.0 / 3.0;
  double pmin = 1e300;
  for (int j = 0; j < s.nx[1]; ++j)
    for (int i = 0; i < s.nx[0]; ++i) {
      auto at = [&](int n) { return s.at(n, 0, j, i); };
      const double rho = at(IDN);
      const double kin = 0.5 * (at(IM1) * at(IM1) + at(IM2) * at(IM2) + at(IM3) * at(IM3)) / rho;
      const double mag = 0.5 * (at(IB1) * at(IB1) + at(IB2) * at(IB2) + at(IB3) * at(IB3));
      pmin = std::min(pmin, gm1 * (at(IEN) - kin - mag));
    }
  std::printf("threaded reflecting walls, %s: least pressure %.4f at t = 0.6\n", emf, pmin);
  return pmin;
}

// Each corner EMF with its own ghost field (simulation.cpp): GS05 with the
// mean of the ghost faces, UCT with the mirrored field. Swapped, each drove
// the cells at the wall to the pressure floor by t = 0.6 (GS05: 96 floor
// hits, UCT: 80, both where the periodic seam meets the wall).
TEST(MhdCt, FieldThreadingReflectingWallsKeepsPressure) { EXPECT_GT(threaded_walls_least_pressure("gs05"), 0.115); }
TEST(MhdCt, FieldThreadingReflectingWallsKeepsPressureUct) {
  EXPECT_GT(threaded_walls_least_pressure("uct_hlld"), 0.115);
}

// The largest |B_x|, |B_y| or |B_z| of a cell-centred field.
double max_field(const HostState& s) {
  double m = 0;
  for (int n = IB1; n <= IB3; ++n)
    for (int k = 0; k < s.nx[2]; ++k)
      for (int j = 0; j < s.nx[1]; ++j)
        for (int i = 0; i < s.nx[0]; ++i) m = std::max(m, std::fabs(s.at(n, k, j, i)));
  return m;
}

// A loop carried out through outflow boundaries: the normalised div B
// stays at round-off of the initial field (scaled by the field left in the
// box, 1e-18 by t = 1 at 128 x 64, it read 0.998). The scale is the
// driver's, the same for FD.
TEST(MhdCt, DivBFieldLeavingThroughOutflow) {
  for (const char* family : {"fv"}) {
    Config cfg = config_from(read_config("field_loop.yaml"),
                             {"mesh.cells=[32,16,1]", "boundaries.x=outflow", "boundaries.y=outflow", "time.end=1.25",
                              std::string("solver.family=") + family, "time.integrator=rk3"});
    Comm comm = comm_for(cfg);
    {
      Simulation sim(cfg, comm, false);
      sim.initialize();
      const double b0 = max_field(interior(sim));
      double worst = sim.div_b();
      while (sim.time() < cfg.t_end * (1 - 1e-14)) {
        sim.step(next_dt_checked(sim));
        worst = std::max(worst, sim.div_b());
      }
      const double b1 = max_field(interior(sim));
      std::printf("%s: max |B| %.3e -> %.3e, max normalised div B %.3e\n", family, b0, b1, worst);
      EXPECT_LT(b1, 1e-4 * b0) << family << ": the loop did not leave the box";
      EXPECT_LE(worst, 1e-12) << family;
    }
    free_comm(comm);
  }
}

// The centre of |B|^2 in the periodic x-y box, each coordinate as the
// circular mean over its period (the loop straddles the boundaries).
std::array<double, 2> loop_centre(const Simulation& sim, const HostState& s) {
  const Grid& g = sim.grid();
  double cs[2] = {0, 0}, sn[2] = {0, 0};
  for (int j = 0; j < s.nx[1]; ++j)
    for (int i = 0; i < s.nx[0]; ++i) {
      const double b2 = std::pow(s.at(IB1, 0, j, i), 2) + std::pow(s.at(IB2, 0, j, i), 2);
      const double x[2] = {g.x_center(0, g.is(0) + i), g.x_center(1, g.is(1) + j)};
      for (int d = 0; d < 2; ++d) {
        const double a = 2 * M_PI * (x[d] - g.xmin[d]) / (g.xmax[d] - g.xmin[d]);
        cs[d] += b2 * std::cos(a);
        sn[d] += b2 * std::sin(a);
      }
    }
  std::array<double, 2> c;
  for (int d = 0; d < 2; ++d)
    c[d] = g.xmin[d] + (g.xmax[d] - g.xmin[d]) * std::fmod(std::atan2(sn[d], cs[d]) / (2 * M_PI) + 1, 1.0);
  return c;
}

// The signed distance from a to b on a circle of period L, in (-L/2, L/2].
double periodic_offset(double a, double b, double L) { return std::remainder(b - a, L); }

// Athena++'s field loop at 128 x 64 to t = 2 (two crossings).
TEST(MhdCt, FieldLoopAdvection) {
  Config cfg = config_from(read_config("field_loop.yaml"));
  Comm comm = comm_for(cfg);
  {
    Simulation sim(cfg, comm, false);
    sim.initialize();
    double e0[3];
    mhd_magnetic_energy(sim.comm(), sim.grid(), sim.state(), e0);
    const HostState s0 = interior(sim);
    double bz_max = 0, div_max = 0;
    bool moved_checked = false;
    while (sim.time() < cfg.t_end * (1 - 1e-14)) {
      sim.step(next_dt_checked(sim));
      div_max = std::max(div_max, sim.div_b());
      // On the way: the loop is where v = (2, 1) carried it (at t = 2 it is
      // back at the origin for any integer multiple of that velocity).
      if (!moved_checked && sim.time() >= 0.25) {
        const double t = double(sim.time());
        const std::array<double, 2> c = loop_centre(sim, interior(sim));
        std::printf("field loop at t = %.4f: centre (%.4f, %.4f), carried to (%.4f, %.4f)\n", t, c[0], c[1],
                    2 * t, 1 * t);
        EXPECT_NEAR(periodic_offset(2 * t, c[0], 2.0), 0.0, 0.02);
        EXPECT_NEAR(periodic_offset(1 * t, c[1], 1.0), 0.0, 0.02);
        moved_checked = true;
      }
    }
    EXPECT_TRUE(moved_checked);
    const HostState s1 = interior(sim);
    double e1[3];
    mhd_magnetic_energy(sim.comm(), sim.grid(), sim.state(), e1);
    // The loop's centre of |B|^2, before and after: back at the origin.
    double c0[2] = {0, 0}, c1[2] = {0, 0}, w0 = 0, w1 = 0;
    const Grid& g = sim.grid();
    for (int j = 0; j < s0.nx[1]; ++j)
      for (int i = 0; i < s0.nx[0]; ++i) {
        const double x = g.x_center(0, g.is(0) + i), y = g.x_center(1, g.is(1) + j);
        const double b0 = std::pow(s0.at(IB1, 0, j, i), 2) + std::pow(s0.at(IB2, 0, j, i), 2);
        const double b1 = std::pow(s1.at(IB1, 0, j, i), 2) + std::pow(s1.at(IB2, 0, j, i), 2);
        c0[0] += b0 * x, c0[1] += b0 * y, w0 += b0;
        c1[0] += b1 * x, c1[1] += b1 * y, w1 += b1;
        bz_max = std::max(bz_max, std::fabs(s1.at(IB3, 0, j, i)));
      }
    const double ratio = (e1[0] + e1[1]) / (e0[0] + e0[1]);
    std::printf("field loop 128 x 64, t = 2: magnetic energy %.4f of the initial, centre (%.2e, %.2e), "
                "max |B_z| %.2e (loop field 1e-3), max div B %.2e\n",
                ratio, c1[0] / w1, c1[1] / w1, bz_max, div_max);
    // Athena++ (VL2 + PLM + HLLD + CT, its athinput.field_loop, the same
    // set-up) keeps 0.7911 of the energy by t = 2: measured side by side
    // when this test was written (ours: 0.7911; the MC limiter keeps 0.850).
    // Kept within 1% of it both ways: a loop that did not move would keep
    // about 0.99.
    EXPECT_GT(ratio, 0.785);
    EXPECT_LE(ratio, 0.80);
    EXPECT_NEAR(c0[0] / w0, 0.0, 1e-12);
    EXPECT_NEAR(c1[0] / w1, 0.0, 0.02);
    EXPECT_NEAR(c1[1] / w1, 0.0, 0.02);
    EXPECT_LE(bz_max, 1e-15);  // 1e-12 of the loop's field
    EXPECT_LE(div_max, 1e-12);
  }
  free_comm(comm);
}

}  // namespace
}  // namespace ax::test
