// Linear waves after one period against the initial state, with Athena++'s
// error metric and regression thresholds (shared/REFERENCE.md section 2,
// tests/wave_error.hpp).
#include <gtest/gtest.h>

#include <cmath>

#include "backend/kokkos_compat.hpp"
#include "wave_error.hpp"

namespace ax::test {
namespace {

double rms_l1_error(const std::string& file, int n, std::vector<std::string> sets) {
  return wave_error(file, n, std::move(sets)).rms;
}

struct Case {
  const char* file;
  const char* wave;
  const char* limiter;
  double max_err_64;   // threshold at N = 64
  double max_ratio;    // err(64) / err(32)
};

void check(const Case& c) {
  const std::string wave = std::string("problem.wave=") + c.wave;
  const std::string limiter = std::string("solver.limiter=") + c.limiter;
  const std::vector<std::string> right = {wave, limiter, "problem.direction=right"};
  const std::vector<std::string> left = {wave, limiter, "problem.direction=left"};
  const double e32 = rms_l1_error(c.file, 32, right);
  const double e64 = rms_l1_error(c.file, 64, right);
  const double e64l = rms_l1_error(c.file, 64, left);
  std::printf("%s %s %s: err(32) = %.4e  err(64) = %.4e  ratio %.4f  left-going err(64) = %.4e\n", c.file,
              c.wave, c.limiter, e32, e64, e64 / e32, e64l);
  EXPECT_LE(e64, c.max_err_64);
  EXPECT_LE(e64 / e32, c.max_ratio);
  // A left-going wave is the mirror image of a right-going one with the
  // perturbation's sign flipped (1 - a instead of 1 + a): the same errors up
  // to the round-off of the O(1) background against O(1e-9) errors. When
  // written: entropy waves bitwise, sound waves with MC 7e-16..9e-16
  // relative, with van Leer (whose quotient rounds differently for
  // 1 + a and 1 - a) 2e-10..3.4e-9. So 1e-14 (MC, entropy), 1e-8 (van Leer).
  // GPU builds fuse the multiply-adds of the shared helpers (math::mul_add),
  // whose one rounding differs for 1 + a and 1 - a as van Leer's quotient
  // does: the 3D sound wave with MC 7.2e-10 on an H100 (2026-12-05). There
  // the van Leer bound holds for both limiters.
  const bool rounds_alike = std::string(c.limiter) != "van_leer" && !math::kDeviceFusesMulAdd;
  std::printf("  left / right - 1 = %.3e\n", e64l / e64 - 1);
  EXPECT_NEAR(e64l / e64, 1.0, rounds_alike ? 1e-14 : 1e-8);
}

// Athena++'s thresholds (hydro, VL2 + PLM + HLLC, CFL 0.3, oblique 3D on
// 3 x 1.5 x 1.5 with N x N/2 x N/2 cells): sound <= 3.7e-8 at N = 64 with ratio
// <= 0.325; entropy <= 2.7e-8 with ratio <= 0.33. Athena++ reaches them with
// static mesh refinement patches in the box; on a uniform grid its van Leer
// limiter gives about 5e-8, so the shipped smooth-flow configs use the MC
// limiter, which meets the thresholds with room to spare.
// In 1D the bar is AthenaK's 1D RK2 + PLM one (2.1e-8, ratio 0.28), tighter
// than Athena++'s 3D bars.
TEST(LinearWave, Sound1D) { check({"linear_wave1d.yaml", "sound", "mc", 2.1e-8, 0.28}); }
TEST(LinearWave, Entropy1D) { check({"linear_wave1d.yaml", "entropy", "mc", 2.1e-8, 0.28}); }
TEST(LinearWave, Sound2DOblique) { check({"linear_wave2d.yaml", "sound", "mc", 3.7e-8, 0.325}); }
TEST(LinearWave, Sound3DOblique) { check({"linear_wave3d.yaml", "sound", "mc", 3.7e-8, 0.325}); }
TEST(LinearWave, Entropy3DOblique) { check({"linear_wave3d.yaml", "entropy", "mc", 2.7e-8, 0.33}); }
// The Athena++-default van Leer limiter stays second order (our own
// uniform-grid regression bounds: 1D as AthenaK's RK2 + PLM, 2.1e-8 and
// 0.28; 3D measured 4.95e-8 and 0.346 when this test was written).
TEST(LinearWave, Sound1DVanLeer) { check({"linear_wave1d.yaml", "sound", "van_leer", 2.1e-8, 0.28}); }
TEST(LinearWave, Sound3DVanLeer) { check({"linear_wave3d.yaml", "sound", "van_leer", 5.2e-8, 0.36}); }

// A 1D grid along y or z carries the same wave as one along x: k along the
// one active axis. (It used to take the x-y diagonal of Athena++'s 2D
// set-up, which on such a grid is no eigenmode: the wave split in two, 1.7
// relative error at a quarter period, back to 6e-10 after a whole one.) The
// y and z runs' states are the x run's with the axes turned: density and
// energy the same, the momentum along the wave the x run's m_x, the others
// zero. Hydro FV and FD, MHD FV (the field from its vector potential).
HostState wave_state(const char* file, const std::string& cells, std::vector<std::string> sets) {
  sets.push_back("mesh.cells=" + cells);
  sets.push_back("time.end=0.25");
  return evolved_state(file, sets);
}

HostState wave_along(int axis, const std::vector<std::string>& sets) {
  std::string cells = "[1,1,1]";
  cells.replace(1 + 2 * axis, 1, "32");
  return wave_state("linear_wave1d.yaml", cells, sets);
}

void check_turned(const std::vector<std::string>& sets) {
  const HostState x = wave_along(0, sets);
  const int cells = 32, vectors = x.nvar > NHYDRO ? 2 : 1;  // momentum, and the field for MHD
  for (int axis = 1; axis < 3; ++axis) {
    const HostState t = wave_along(axis, sets);
    ASSERT_EQ(t.nvar, x.nvar);
    double worst = 0;
    auto at = [&](const HostState& s, int n, int c) { return s.v[std::size_t(n) * cells + c]; };
    for (int c = 0; c < cells; ++c) {
      worst = std::max({worst, std::fabs(at(t, IDN, c) - at(x, IDN, c)), std::fabs(at(t, IEN, c) - at(x, IEN, c))});
      for (int v = 0; v < vectors; ++v) {
        const int first = v == 0 ? IM1 : IB1;
        // The wave frame's (along k, first normal, second normal) in the
        // grid's axes, as WaveGeometry::to_grid turns it: along y,
        // (-n1, k, n2); along z, (-n2, n1, k).
        const int from[2][3] = {{1, 0, 2}, {2, 1, 0}};
        const double sign[2][3] = {{-1, 1, 1}, {-1, 1, 1}};
        for (int d = 0; d < 3; ++d)
          worst = std::max(worst, std::fabs(at(t, first + d, c) -
                                            sign[axis - 1][d] * at(x, first + from[axis - 1][d], c)));
      }
    }
    std::printf("1D wave along %c against along x: max difference %.3e\n", "xyz"[axis], worst);
    EXPECT_LE(worst, 1e-14) << "axis " << axis;
  }
}

TEST(LinearWave, Sound1DAlongYAndZIsTheXWaveTurned) { check_turned({"problem.wave=sound"}); }
TEST(LinearWave, Fd1DAlongYAndZIsTheXWaveTurned) {
  check_turned({"problem.wave=sound", "solver.family=fd", "time.integrator=rk3"});
}
TEST(LinearWave, Mhd1DAlongYAndZIsTheXWaveTurned) {
  check_turned({"physics.mhd=true", "problem.wave=fast", "solver.riemann=hlld"});
}

// An x-z plane carries the x-y plane's wave along its diagonal (it used to
// take Athena++'s 3D angle, atan(0.5), there: another wavelength, so one
// period of the config was 1.58 of the wave's): the same state with y and z
// swapped, the momentum's y component going to z.
TEST(LinearWave, Sound2DInTheXZPlaneIsTheXYWaveTurned) {
  const std::vector<std::string> sets = {"problem.wave=sound", "mesh.upper=[1.4142135623730951,1.4142135623730951,"
                                                               "1.4142135623730951]"};
  const HostState xy = wave_state("linear_wave2d.yaml", "[16,16,1]", sets);
  const HostState xz = wave_state("linear_wave2d.yaml", "[16,1,16]", sets);
  ASSERT_EQ(xy.v.size(), xz.v.size());
  double worst = 0;
  for (int n = 0; n < NHYDRO; ++n) {
    const int from = n == IM2 ? IM3 : n == IM3 ? IM2 : n;
    for (int b = 0; b < 16; ++b)
      for (int i = 0; i < 16; ++i) worst = std::max(worst, std::fabs(xz.at(n, b, 0, i) - xy.at(from, 0, b, i)));
  }
  std::printf("2D wave in the x-z plane against the x-y plane: max difference %.3e\n", worst);
  EXPECT_LE(worst, 1e-14);
}

// FD WENO5 (solver.family: fd) on the advected density (entropy) wave,
// an exact solution of the Euler equations at any amplitude: amplitude 1e-4
// keeps the smoothness indicators below epsilon (linear weights: the
// scheme's fifth order) and the errors far above round-off. SSP-RK(5,4) at
// CFL 0.4: CFL 0.1 gives the same errors to three digits, so time stepping
// does not limit the order.
double fd_entropy_error(const char* file, int n) {
  return rms_l1_error(file, n, {"solver.family=fd", "problem.wave=entropy", "problem.amplitude=1e-4",
                                "time.integrator=ssprk5_4", "time.cfl=0.4"});
}

// The bar: order >= 4.8 between the two finest resolutions tested.
void check_fd_order(const char* file, std::vector<int> ns) {
  std::vector<double> e;
  for (int n : ns) e.push_back(fd_entropy_error(file, n));
  for (std::size_t i = 0; i < ns.size(); ++i)
    std::printf("fd %s entropy: err(%d) = %.4e%s\n", file, ns[i], e[i],
                i ? (" order " + std::to_string(std::log2(e[i - 1] / e[i]))).c_str() : "");
  EXPECT_GE(std::log2(e[e.size() - 2] / e.back()), 4.8);
}

TEST(LinearWaveFd, FifthOrder1D) { check_fd_order("linear_wave1d.yaml", {32, 64, 128}); }
TEST(LinearWaveFd, FifthOrder2DOblique) { check_fd_order("linear_wave2d.yaml", {16, 32, 64}); }
TEST(LinearWaveFd, FifthOrder3DOblique) { check_fd_order("linear_wave3d.yaml", {16, 32}); }

// AthenaK's regression bar for its best hydro scheme (RK3 + WENO-Z, 1D
// sound wave of amplitude 1e-6, N = 32 and 64, CFL 0.4): err(64) <= 2.3e-11,
// err(64)/err(32) <= 0.11. The fourth-order integrators must meet the error
// bound too; their ratio is not comparable: at N = 64 they already reach the
// wave's own nonlinear steepening, 5.5 A^2 = 5.5e-12 after one period
// (measured: constant from N = 64 to 256 and for CFL 0.1 to 0.4).
TEST(LinearWaveFd, AthenaKWenoThresholds1D) {
  for (const char* integ : {"rk3", "ssprk5_4", "lsrk4"})
    for (const char* weno : {"z", "js"}) {
      const std::vector<std::string> sets = {"solver.family=fd", "problem.wave=sound", "time.cfl=0.4",
                                             std::string("time.integrator=") + integ,
                                             std::string("solver.weno=") + weno};
      const double e32 = rms_l1_error("linear_wave1d.yaml", 32, sets);
      const double e64 = rms_l1_error("linear_wave1d.yaml", 64, sets);
      std::printf("fd sound %s weno-%s, cfl 0.4: err(32) = %.4e  err(64) = %.4e  ratio %.4f\n", integ, weno, e32,
                  e64, e64 / e32);
      EXPECT_LE(e64, 2.3e-11) << integ;
      if (std::string(integ) == "rk3") {
        EXPECT_LE(e64 / e32, 0.11) << integ;
      }
    }
}

}  // namespace
}  // namespace ax::test
