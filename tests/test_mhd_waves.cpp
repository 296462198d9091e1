// MHD waves after one period against the initial state (tests/wave_error.hpp,
// Athena++'s RMS-L1 over the eight conserved cell variables), with the
// regression thresholds of Athena++ and AthenaK (shared/REFERENCE.md
// sections 2 and 4); and the eigenvectors the linear waves start from.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "mhd/mhd_riemann.hpp"
#include "mhd/mhd_wave_modes.hpp"
#include "wave_error.hpp"

namespace ax::test {
namespace {

// ---------------------------------------------------------------------------
// The eigenvectors: the flux Jacobian of the face-frame MHD equations maps
// each right eigenvector R onto speed * R (central differences of the
// physical flux, mhd/mhd_riemann.hpp), for states with and without flow.

void conserved_to_face_prim(const IdealGas& eos, const double u[7], double bn, Real w[NWAVE_FACE]) {
  Real c[NMHD] = {Real(u[0]), Real(u[1]), Real(u[2]), Real(u[3]), Real(u[4]), Real(bn), Real(u[5]), Real(u[6])};
  Real p[NMHD];
  mhd_cons_to_prim(eos, c, p);
  const Real face[NWAVE_FACE] = {p[IDN], p[IVX], p[IVY], p[IVZ], p[IPR], p[IB2], p[IB3]};
  for (int n = 0; n < NWAVE_FACE; ++n) w[n] = face[n];
}

TEST(MhdWaveModes, EigenvectorsOfTheFluxJacobian) {
  if (sizeof(Real) != 8) GTEST_SKIP() << "central differences need double precision";
  const double gamma = 5.0 / 3.0;
  const IdealGas eos{Real(gamma)};
  MhdUniformState states[3];
  states[0].p = 1 / gamma;  // Athena++'s linear-wave background
  states[0].b[1] = std::sqrt(2.0);
  states[0].b[2] = 0.5;
  states[1] = states[0];  // with flow and a negative normal field
  states[1].v[0] = 0.7, states[1].v[1] = -0.3, states[1].v[2] = 0.2, states[1].b[0] = -1.3;
  states[2].rho = 2.0, states[2].p = 0.05, states[2].b[0] = 0.4, states[2].b[1] = -0.9;  // low beta
  int checked = 0;
  for (const MhdUniformState& s : states)
    for (MhdWave wave : {MhdWave::fast, MhdWave::alfven, MhdWave::slow, MhdWave::entropy})
      for (int dir : {-1, 1}) {
        const MhdWaveMode m = mhd_wave_mode(gamma, s, wave, dir);
        double u0[7];
        // Background in conserved variables.
        const double vsq = s.v[0] * s.v[0] + s.v[1] * s.v[1] + s.v[2] * s.v[2];
        const double bsq = s.b[0] * s.b[0] + s.b[1] * s.b[1] + s.b[2] * s.b[2];
        u0[0] = s.rho;
        for (int d = 0; d < 3; ++d) u0[1 + d] = s.rho * s.v[d];
        u0[4] = s.p / (gamma - 1) + 0.5 * s.rho * vsq + 0.5 * bsq;
        u0[5] = s.b[1];
        u0[6] = s.b[2];
        const double eps = 1e-6;
        double up[7], um[7];
        for (int n = 0; n < 7; ++n) {
          up[n] = u0[n] + eps * m.r[n];
          um[n] = u0[n] - eps * m.r[n];
        }
        Real wpl[NWAVE_FACE], wmi[NWAVE_FACE], fp[NWAVE_FACE], fm[NWAVE_FACE], tmp[NWAVE_FACE];
        conserved_to_face_prim(eos, up, s.b[0], wpl);
        conserved_to_face_prim(eos, um, s.b[0], wmi);
        mhd_normal_flux(eos, wpl, Real(s.b[0]), fp, tmp);
        mhd_normal_flux(eos, wmi, Real(s.b[0]), fm, tmp);
        double norm = 0;
        for (int n = 0; n < 7; ++n) norm = std::max(norm, std::fabs(m.r[n]));
        EXPECT_GT(norm, 0.1);
        for (int n = 0; n < 7; ++n) {
          const double jr = (double(fp[n]) - double(fm[n])) / (2 * eps);
          EXPECT_NEAR(jr, m.speed * m.r[n], 1e-7 * (1 + std::fabs(m.speed)) * norm)
              << "wave " << int(wave) << " dir " << dir << " component " << n;
        }
        ++checked;
      }
  EXPECT_EQ(checked, 24);
}

// Athena++'s normalisation (Stone et al. 2008, eq. B21) at its background:
// fast waves carry density alpha_f, slow waves alpha_s, Alfven waves a unit
// transverse momentum, the entropy wave unit density; the speeds are 2, 1, 1/2.
TEST(MhdWaveModes, AthenaNormalisation) {
  const double gamma = 5.0 / 3.0;
  MhdUniformState s;
  s.p = 1 / gamma;
  s.b[1] = std::sqrt(2.0);
  s.b[2] = 0.5;
  double cf, cs;
  mhd_magnetosonic_speeds(gamma, s, &cf, &cs);
  EXPECT_NEAR(cf, 2.0, 1e-14);
  EXPECT_NEAR(cs, 0.5, 1e-14);
  const double alpha_f = std::sqrt((1 - cs * cs) / (cf * cf - cs * cs));
  const double alpha_s = std::sqrt((cf * cf - 1) / (cf * cf - cs * cs));
  EXPECT_NEAR(mhd_wave_mode(gamma, s, MhdWave::fast, 1).r[0], alpha_f, 1e-15);
  EXPECT_NEAR(mhd_wave_mode(gamma, s, MhdWave::slow, -1).r[0], alpha_s, 1e-15);
  const MhdWaveMode a = mhd_wave_mode(gamma, s, MhdWave::alfven, 1);
  EXPECT_NEAR(std::hypot(a.r[2], a.r[3]), 1.0, 1e-15);
  EXPECT_EQ(a.r[0], 0.0);
  EXPECT_NEAR(a.speed, 1.0, 1e-15);
  EXPECT_EQ(mhd_wave_mode(gamma, s, MhdWave::entropy, 1).r[0], 1.0);
}

// ---------------------------------------------------------------------------
// Linear waves.

struct WaveCase {
  const char* wave;
  double period;
  double max_err_64;
  double max_ratio;
};

// Athena++'s MHD regression (3D oblique, VL2 + PLM + HLLD, N = 32 and 64
// cells along the box's long side, N x N/2 x N/2 on 3 x 1.5 x 1.5): fast <=
// 4.5e-8, Alfven <= 4.0e-8, slow <= 5.0e-8, entropy <= 2.75e-8 at N = 64,
// ratio <= 0.4. Athena++ meets them with mesh refinement; this is a uniform
// grid with the MC limiter, as the shipped config.
void check_oblique(const WaveCase& c) {
  const std::vector<std::string> sets = {std::string("problem.wave=") + c.wave,
                                         "time.end=" + std::to_string(c.period)};
  const double e32 = wave_error("mhd_linear_wave3d.yaml", 32, sets).rms;
  const double e64 = wave_error("mhd_linear_wave3d.yaml", 64, sets).rms;
  std::printf("3D oblique %s (vl2 + plm(mc) + hlld): err(32) = %.4e  err(64) = %.4e  ratio %.4f\n", c.wave, e32,
              e64, e64 / e32);
  EXPECT_LE(e64, c.max_err_64) << c.wave;
  EXPECT_LE(e64 / e32, c.max_ratio) << c.wave;
}

TEST(MhdLinearWave, Fast3DOblique) { check_oblique({"fast", 0.5, 4.5e-8, 0.4}); }
TEST(MhdLinearWave, Alfven3DOblique) { check_oblique({"alfven", 1.0, 4.0e-8, 0.4}); }
TEST(MhdLinearWave, Slow3DOblique) { check_oblique({"slow", 2.0, 5.0e-8, 0.4}); }
TEST(MhdLinearWave, Entropy3DOblique) { check_oblique({"entropy", 1.0, 2.75e-8, 0.4}); }

// Left- and right-going fast waves are mirror images of each other: Athena++
// and AthenaK require their errors to be identical as printed (%e, seven
// significant digits).
TEST(MhdLinearWave, LeftRightFast3D) {
  const double r = wave_error("mhd_linear_wave3d.yaml", 32, {"problem.direction=right"}).rms;
  const double l = wave_error("mhd_linear_wave3d.yaml", 32, {"problem.direction=left"}).rms;
  std::printf("3D oblique fast, N = 32: right-going %.17g, left-going %.17g\n", r, l);
  char rs[32], ls[32];
  std::snprintf(rs, sizeof(rs), "%e", r);
  std::snprintf(ls, sizeof(ls), "%e", l);
  EXPECT_STREQ(ls, rs);
}

// AthenaK's 1D table (RK2 + PLM, CFL 0.4, N = 32 and 64) for every solver.
TEST(MhdLinearWave, AthenaK1D) {
  const WaveCase cases[] = {{"fast", 0.5, 2.5e-8, 0.28},
                            {"alfven", 1.0, 1.7e-8, 0.29},
                            {"slow", 2.0, 2.8e-8, 0.32},
                            {"entropy", 1.0, 2.2e-8, 0.30}};
  double llf64[4] = {0, 0, 0, 0};
  for (const char* rs : {"llf", "hlle", "hlld"})
    for (int w = 0; w < 4; ++w) {
      const WaveCase& c = cases[w];
      const std::vector<std::string> sets = {std::string("problem.wave=") + c.wave,
                                             "time.end=" + std::to_string(c.period),
                                             std::string("solver.riemann=") + rs};
      const double e32 = wave_error("mhd_linear_wave1d.yaml", 32, sets).rms;
      const double e64 = wave_error("mhd_linear_wave1d.yaml", 64, sets).rms;
      std::printf("1D %-7s rk2 + plm + %-4s: err(32) = %.4e  err(64) = %.4e  ratio %.4f\n", c.wave, rs, e32, e64,
                  e64 / e32);
      EXPECT_LE(e64, c.max_err_64) << c.wave << " " << rs;
      EXPECT_LE(e64 / e32, c.max_ratio) << c.wave << " " << rs;
      // HLLD resolves what LLF smears: the Alfven, slow and entropy waves
      // (the fast wave is LLF's own signal speed: no gain there).
      if (std::string(rs) == "llf") llf64[w] = e64;
      if (std::string(rs) == "hlld" && w > 0) {
        EXPECT_LT(e64, 0.8 * llf64[w]) << c.wave;
      }
    }
}

// Every integrator the FV MHD solver takes converges at second order (third
// for rk3 in time, second overall) on the 1D fast wave.
TEST(MhdLinearWave, Integrators1D) {
  for (const char* integ : {"vl2", "rk2", "rk3"}) {
    const std::vector<std::string> sets = {std::string("time.integrator=") + integ};
    const double e32 = wave_error("mhd_linear_wave1d.yaml", 32, sets).rms;
    const double e64 = wave_error("mhd_linear_wave1d.yaml", 64, sets).rms;
    std::printf("1D fast %s: err(32) = %.4e  err(64) = %.4e  ratio %.4f\n", integ, e32, e64, e64 / e32);
    EXPECT_LE(e64, 2.5e-8) << integ;
    EXPECT_LE(e64 / e32, 0.3) << integ;
  }
}

// ---------------------------------------------------------------------------
// The circularly polarised Alfven wave, an exact nonlinear solution.

// AthenaK's bars (its cpaw test: RK2 + PLM + LLF, CFL 0.3, N = 32 and 64):
// 1D <= 2.0e-3 (ratio <= 0.35), 2D on the 2 x 1 box <= 7.0e-3 (ratio
// <= 0.45). Ours run one full period on AthenaK's boxes (AthenaK stops at
// t = 1, half a period in 1D). HLLD cannot do much better here: with
// b_par = 1 and p = 0.1 the Alfven speed is within 0.6% of the fast speed
// that sets LLF's dissipation, so both damp the wave alike (measured: 0.4%
// apart; PCM alike); HLLD's gain on the Alfven, slow and entropy waves of
// the linear-wave test is asserted there.
TEST(MhdCpaw, AthenaKBars) {
  struct Bar {
    const char* file;
    double max_err, max_ratio;
  };
  for (const Bar& b : {Bar{"cpaw1d.yaml", 2.0e-3, 0.35}, Bar{"cpaw2d.yaml", 7.0e-3, 0.45}}) {
    const double l32 = wave_error(b.file, 32, {"solver.riemann=llf"}).rms;
    const double l64 = wave_error(b.file, 64, {"solver.riemann=llf"}).rms;
    const double h64 = wave_error(b.file, 64, {"solver.riemann=hlld"}).rms;
    std::printf("%s: llf err(32) = %.4e  err(64) = %.4e  ratio %.4f; hlld err(64) = %.4e\n", b.file, l32, l64,
                l64 / l32, h64);
    EXPECT_LE(l64, b.max_err) << b.file;
    EXPECT_LE(l64 / l32, b.max_ratio) << b.file;
    EXPECT_LE(h64, l64) << b.file;
  }
}

// Both edge-EMF averages converge at second order on the 2D wave, where the
// edge EMFs decide the field's transverse update (the conservation and
// div B tests cannot tell a wrong average: constrained transport keeps
// both whatever the EMFs are).
TEST(MhdCpaw, EveryCornerEmfConverges2D) {
  for (const char* emf : {"gs05", "uct_hlld"}) {
    const std::string set = std::string("solver.corner_emf=") + emf;
    const double e64 = wave_error("cpaw2d.yaml", 64, {"solver.riemann=hlld", set}).rms;
    const double e128 = wave_error("cpaw2d.yaml", 128, {"solver.riemann=hlld", set}).rms;
    std::printf("cpaw2d hlld %s: err(64) = %.4e  err(128) = %.4e  ratio %.4f\n", emf, e64, e128, e128 / e64);
    EXPECT_LE(e128 / e64, 0.32) << emf;  // measured 0.278 (gs05), 0.277 (uct_hlld)
    EXPECT_LE(e128, 2.0e-3) << emf;     // measured 1.66e-3, 1.68e-3
  }
}

// Athena++'s bar (N = 128 and 256): <= 2.0e-4, ratio <= 0.3, with the
// default HLLD in 1D; and the 2D wave at 256 x 128: second order from the
// 64 x 32 run (HLLD 5.95e-3) predicts 16 times less, 12 times is required.
TEST(MhdCpaw, AthenaPlusPlusBar) {
  const double e128 = wave_error("cpaw1d.yaml", 128, {}).rms;
  const double e256 = wave_error("cpaw1d.yaml", 256, {}).rms;
  const double e2d = wave_error("cpaw2d.yaml", 256, {}).rms;
  std::printf("cpaw 1D hlld: err(128) = %.4e  err(256) = %.4e  ratio %.4f; 2D 256 x 128: %.4e\n", e128, e256,
              e256 / e128, e2d);
  EXPECT_LE(e256, 2.0e-4);
  EXPECT_LE(e256 / e128, 0.3);
  EXPECT_LE(e2d, 5.0e-4);
}

// A flow along k carries the wave: at v_par = -v_A (b_par = rho = 1) it
// stands, at v_par = 0.5 it returns after 2 / 1.5 instead of 2. A v_par
// read but not applied would leave the wave a third or half a period off
// (errors near 0.1). The carried wave's error is the travelling one's; the
// standing wave, whose pattern does not move across the grid, keeps its
// shape far better (measured at N = 128: travelling 4.8e-4, carried 4.9e-4,
// standing 1.7e-6).
TEST(MhdCpaw, FlowAlongTheWaveVector) {
  const double moving = wave_error("cpaw1d.yaml", 128, {}).rms;
  const double standing = wave_error("cpaw1d.yaml", 128, {"problem.v_par=-1"}).rms;
  const double carried = wave_error("cpaw1d.yaml", 128, {"problem.v_par=0.5", "time.end=1.3333333333333333"}).rms;
  std::printf("cpaw 1D N = 128: v_par 0 %.4e, v_par -1 (standing) %.4e, v_par 0.5 %.4e\n", moving, standing,
              carried);
  EXPECT_LE(standing, 0.05 * moving);
  EXPECT_LE(carried, 2 * moving);
}

}  // namespace
}  // namespace ax::test
