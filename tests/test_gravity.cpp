// Constant gravity (physics.gravity, hydro/gravity.hpp) and the
// Rayleigh-Taylor problem it drives.
//
// - A uniform medium in a periodic box falls freely: m = rho g t and
//   E = E0 + rho |g|^2 t^2 / 2. The source is linear in the state and the
//   solution quadratic in time, so every integrator of second order or more
//   gets it exactly: the comparison is to rounding, in each family.
// - A layer in hydrostatic balance between reflecting walls stays at rest
//   to rounding: its pressure is linear in height, which PLM and WENO5
//   reconstruct exactly, and the walls' ghosts carry the gradient on
//   (GhostExchange::set_hydrostatic_walls; mirrored ghosts alone leave the
//   first cell under half of gravity, a velocity of order g dt a step).
//   Van Leer's predictor is donor cell, whose HLLC contact moves at a
//   speed of order dp / (rho c) between unequal pressures: there the
//   balance holds to truncation (2.5e-9 after 40 steps, of 8 x 48 cells).
// - The fused paths add the source as the native path does: the same
//   bits, every layout and integrator, hydro and MHD, 2D and 3D, walls
//   included.
// - Rayleigh-Taylor's fingers grow at about linear theory's rate.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "config_text.hpp"
#include "run_helpers.hpp"

namespace ax::test {
namespace {

struct Family {
  std::string label;
  std::vector<std::string> sets;
};

// Every family with the integrators of second order or more it takes.
std::vector<Family> families() {
  std::vector<Family> f;
  for (const char* i : {"vl2", "rk2", "rk3"}) f.push_back({std::string("fv ") + i, {std::string("time.integrator=") + i}});
  for (const char* i : {"rk3", "ssprk5_4", "lsrk4"})
    f.push_back({std::string("fd ") + i, {"solver.family=fd", std::string("time.integrator=") + i}});
  return f;
}

void check_free_fall(const char* file, const std::vector<std::string>& base) {
  const double g[3] = {0.3, -0.2, 0.1};
  for (const Family& fam : families()) {
    std::vector<std::string> sets = base;
    sets.insert(sets.end(), fam.sets.begin(), fam.sets.end());
    sets.insert(sets.end(), {"mesh.cells=[8,8,8]", "problem.pressure_ratio=1", "problem.radius=0.3",
                             "time.max_steps=12", "time.end=100", "physics.gravity=[0.3,-0.2,0.1]"});
    Config cfg = config_from(read_config(file), sets);
    Comm comm = comm_for(cfg);
    {
      Simulation sim(cfg, comm, false);
      EXPECT_TRUE(sim.hydro().fused()) << file << " " << fam.label << ": " << sim.hydro().reason();
      sim.initialize();
      const HostState s0 = interior(sim);
      evolve(sim);
      const HostState s = interior(sim);
      const double t = double(sim.time());
      ASSERT_EQ(sim.steps(), 12);
      double worst = 0;
      for (std::size_t c = 0; c < s.v.size() / s.nvar; ++c) {
        const std::size_t n = s.v.size() / s.nvar;
        const double rho = s0.v[IDN * n + c];
        EXPECT_EQ(s.v[IDN * n + c], rho);
        for (int d = 0; d < 3; ++d) {
          const double m = rho * g[d] * t;  // from rest
          worst = std::max(worst, std::fabs(s.v[(IM1 + d) * n + c] - m) / std::fabs(m));
        }
        const double e = s0.v[IEN * n + c] + 0.5 * rho * (g[0] * g[0] + g[1] * g[1] + g[2] * g[2]) * t * t;
        worst = std::max(worst, std::fabs(s.v[IEN * n + c] - e) / e);
        for (int v = IB1; v < s.nvar; ++v)  // a uniform field stays
          EXPECT_NEAR(s.v[v * n + c], s0.v[v * n + c], 1e-14 * std::fabs(s0.v[v * n + c]));
      }
      std::printf("free fall, %s %s: t = %.4f, largest relative error of momentum and energy %.2e\n", file,
                  fam.label.c_str(), t, worst);
      EXPECT_LE(worst, 1e-13) << file << " " << fam.label;
    }
    free_comm(comm);
  }
}

TEST(Gravity, UniformMediumFallsExactly) { check_free_fall("blast3d.yaml", {}); }

TEST(Gravity, MagnetisedUniformMediumFallsExactly) {
  check_free_fall("mhd_blast3d.yaml", {"mesh.lower=[-0.5,-0.5,-0.5]", "mesh.upper=[0.5,0.5,0.5]"});
}

// The largest speed in the state.
double max_speed(const HostState& s) {
  const std::size_t n = s.v.size() / s.nvar;
  double worst = 0;
  for (std::size_t c = 0; c < n; ++c) {
    double m2 = 0;
    for (int d = 0; d < 3; ++d) m2 += s.v[(IM1 + d) * n + c] * s.v[(IM1 + d) * n + c];
    worst = std::max(worst, std::sqrt(m2) / s.v[IDN * n + c]);
  }
  return worst;
}

void check_at_rest(const std::string& label, std::vector<std::string> sets) {
  // Uniform density 2 (the weight of the heavy layer throughout), no seed.
  sets.insert(sets.end(), {"problem.density_ratio=1", "problem.density=2", "problem.perturbation=0",
                           "time.max_steps=40"});
  for (const Family& fam : families()) {
    std::vector<std::string> s = sets;
    s.insert(s.end(), fam.sets.begin(), fam.sets.end());
    const HostState end = evolved_state("rayleigh_taylor.yaml", s);
    const double v = max_speed(end);
    std::printf("hydrostatic layer, %s %s: largest speed after 40 steps %.2e\n", label.c_str(), fam.label.c_str(), v);
    // g t is about 0.02 after 40 steps: balance holds to rounding, or to
    // truncation with vl2's donor-cell predictor.
    const bool donor_cell_stage = fam.label == "fv vl2";
    EXPECT_LE(v, donor_cell_stage ? 1e-8 : 1e-13) << label << " " << fam.label;
  }
}

TEST(Gravity, HydrostaticLayerStaysAtRest2D) { check_at_rest("2D", {"mesh.cells=[8,48,1]"}); }

TEST(Gravity, HydrostaticLayerStaysAtRest3D) {
  check_at_rest("3D", {"mesh.cells=[4,4,48]", "mesh.lower=[-0.25,-0.25,-0.75]", "mesh.upper=[0.25,0.25,0.75]",
                       "boundaries.y=periodic", "boundaries.z=reflecting", "physics.gravity=[0,0,-0.1]"});
}

TEST(Gravity, MagnetisedHydrostaticLayerStaysAtRest) {
  // A uniform field: its pressure is uniform, its tension zero. Parallel
  // to the walls: FD MHD refuses a field threading a reflecting wall.
  check_at_rest("2D MHD", {"mesh.cells=[8,48,1]", "physics.mhd=true", "solver.riemann=hlld",
                           "problem.field=[0.3,0,0.2]"});
}

// Rayleigh-Taylor with its seed (flows through every face, walls hit by
// them) for 8 steps: each fused layout against native, bitwise. With MHD a
// field along x (FD MHD's walls need one parallel to them).
void check_fused_equals_native(const std::string& label, std::vector<std::string> base, bool mhd = false) {
  if (mhd) base.insert(base.end(), {"physics.mhd=true", "solver.riemann=hlld", "problem.field=[0.05,0,0]"});
  struct Path {
    std::string label;
    std::vector<std::string> sets;
  };
  std::vector<Path> paths;
  for (const char* layout : {"cells", "sweeps", "tiles"})
    for (const char* i : {"vl2", "rk2", "rk3"})
      paths.push_back({std::string("fv ") + layout + " " + i,
                       {std::string("solver.fused_layout=") + layout, std::string("time.integrator=") + i}});
  // FD hydro: faces, segments; FD MHD: sweeps (pencils), tiles (segments).
  for (const char* layout : {mhd ? "sweeps" : "auto", "tiles"})
    for (const char* i : {"rk3", "ssprk5_4", "lsrk4"})
      paths.push_back({std::string("fd ") + layout + " " + i,
                       {"solver.family=fd", std::string("solver.fused_layout=") + layout,
                        std::string("time.integrator=") + i}});
  std::set<std::string> ran;
  for (const Path& p : paths) {
    std::vector<std::string> sets = base;
    sets.insert(sets.end(), p.sets.begin(), p.sets.end());
    sets.insert(sets.end(), {"time.max_steps=8", "problem.perturbation=0.2"});
    std::string fused_path, native_path;
    std::vector<std::string> fused = sets, native = sets;
    fused.push_back("solver.backend=fused");
    native.push_back("solver.backend=native");
    const HostState f = evolved_state("rayleigh_taylor.yaml", fused, &fused_path);
    const HostState n = evolved_state("rayleigh_taylor.yaml", native, &native_path);
    ASSERT_EQ(f.v.size(), n.v.size());
    std::size_t differ = 0;
    for (std::size_t c = 0; c < f.v.size(); ++c) differ += f.v[c] != n.v[c];
    EXPECT_EQ(differ, 0u) << label << " " << p.label << " (" << fused_path << " against " << native_path << ")";
    EXPECT_EQ(native_path, "native");
    EXPECT_GT(max_speed(n), 0.01) << "the seed moved nothing";
    ran.insert(fused_path);
  }
  // Each layout asked for ran as itself (a fused path that fell back to
  // another, or to native, would compare equal and prove nothing).
  EXPECT_EQ(ran, std::set<std::string>({"fused (cells)", "fused (sweeps)", "fused (tiles)",
                                        mhd ? "fused (pencils)" : "fused (faces)", "fused (segments)"}))
      << label;
}

const std::vector<std::string> k3D = {"mesh.cells=[8,8,24]", "mesh.lower=[-0.25,-0.25,-0.75]",
                                      "mesh.upper=[0.25,0.25,0.75]", "boundaries.y=periodic",
                                      "boundaries.z=reflecting", "physics.gravity=[0,0,-0.1]"};

TEST(Gravity, FusedEqualsNative2D) { check_fused_equals_native("2D", {"mesh.cells=[16,24,1]"}); }
TEST(Gravity, FusedEqualsNative3D) { check_fused_equals_native("3D", k3D); }
TEST(Gravity, FusedMhdEqualsNative2D) { check_fused_equals_native("2D MHD", {"mesh.cells=[16,24,1]"}, true); }
TEST(Gravity, FusedMhdEqualsNative3D) { check_fused_equals_native("3D MHD", k3D, true); }

// The energy of the vertical motion, sum of m_v^2 / (2 rho).
double vertical_kinetic_energy(const HostState& s, int v) {
  const std::size_t n = s.v.size() / s.nvar;
  double e = 0;
  for (std::size_t c = 0; c < n; ++c) e += 0.5 * s.v[(IM1 + v) * n + c] * s.v[(IM1 + v) * n + c] / s.v[IDN * n + c];
  return e;
}

// Athena++'s set-up: density 1 below 2, g = -0.1, mode k = 4 pi along x.
// Linear theory for two incompressible layers: sigma = sqrt(A k g), A =
// (2 - 1) / (2 + 1), here 0.647. Measured from the vertical kinetic
// energy between t = 3.5 and 5, once the seed's other parts (its uniform
// part along x, which the walls stop, and sound waves) have passed and
// before the fingers saturate: 0.80 (32 x 96) and 0.84 (64 x 192) of
// sigma, rising with resolution (the interface is a few cells wide, and
// the layers compressible).
TEST(Gravity, RayleighTaylorGrowsAtLinearTheorysRate) {
  const double sigma = std::sqrt(1.0 / 3.0 * 4 * M_PI * 0.1);
  std::vector<double> rate;
  for (int n : {32, 64}) {
    Config cfg = config_from(read_config("rayleigh_taylor.yaml"),
                             {"mesh.cells=[" + std::to_string(n) + "," + std::to_string(3 * n) + ",1]"});
    Comm comm = comm_for(cfg);
    {
      Simulation sim(cfg, comm, false);
      sim.initialize();
      auto energy_at = [&](double t) {
        while (sim.time() < t * (1 - 1e-14)) sim.step(std::min(next_dt_checked(sim), Real(t - sim.time())));
        return vertical_kinetic_energy(interior(sim), 1);
      };
      const double e0 = energy_at(3.5), e1 = energy_at(5.0);
      rate.push_back(0.5 * std::log(e1 / e0) / 1.5);
      std::printf("Rayleigh-Taylor %d x %d: growth rate %.4f, linear theory %.4f (%.2f of it)\n", n, 3 * n,
                  rate.back(), sigma, rate.back() / sigma);
    }
    free_comm(comm);
  }
  EXPECT_GE(rate[1], 0.75 * sigma);
  EXPECT_LE(rate[1], 1.05 * sigma);
  EXPECT_GT(rate[1], rate[0]);  // closer to theory on the finer grid
}

}  // namespace
}  // namespace ax::test
