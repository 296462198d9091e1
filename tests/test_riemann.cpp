// Riemann solvers in isolation: consistency with the physical flux, and
// bitwise mirror symmetry (swapping the sides and reversing the normal
// velocity reverses the mass, normal-momentum-free and energy fluxes).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <random>

#include "hydro/riemann.hpp"

namespace ax {
namespace {

// Batched: the solvers' forms with reciprocals from one division
// (kBatchedReciprocals: what device code runs), or with a division each.
template <RiemannSolver RS, bool Batched = kBatchedReciprocals>
void check_solver(const char* name) {
  const IdealGas eos(Real(5) / Real(3));
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<Real> pos(Real(0.1), Real(10)), vel(Real(-3), Real(3)), tiny(Real(-1e-30), Real(1e-30));
  long long bad_mirror = 0, bad_consistent = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    auto dv = trial % 2 ? tiny : vel;  // half the trials near v = 0
    Real wl[NHYDRO] = {pos(rng), dv(rng), dv(rng), dv(rng), pos(rng)};
    Real wr[NHYDRO] = {pos(rng), dv(rng), dv(rng), dv(rng), pos(rng)};
    if (trial % 4 == 0) for (int n = 0; n < NHYDRO; ++n) wr[n] = wl[n];
    // A contact at rest: equal pressures and near-zero velocities give
    // am = 0 exactly, where the face and its mirror both take HLLC's left
    // branch (the mirror's left is the face's right).
    if (trial % 8 == 1) wr[4] = wl[4];
    Real f[NHYDRO], fm[NHYDRO];
    riemann_flux<RS, Batched>(eos, wl, wr, f);
    // Mirror: left and right swapped, normal velocities reversed.
    Real ml[NHYDRO] = {wr[0], -wr[1], wr[2], wr[3], wr[4]};
    Real mr[NHYDRO] = {wl[0], -wl[1], wl[2], wl[3], wl[4]};
    riemann_flux<RS, Batched>(eos, ml, mr, fm);
    const Real expect[NHYDRO] = {-f[0], f[1], -f[2], -f[3], -f[4]};
    for (int n = 0; n < NHYDRO; ++n)
      if (fm[n] != expect[n]) {
        if (bad_mirror < 3) std::printf("%s mirror trial %d var %d: %.17g vs %.17g\n", name, trial, n, fm[n], expect[n]);
        ++bad_mirror;
      }
    // Transverse mirror: both transverse-1 velocities reversed.
    Real tl[NHYDRO] = {wl[0], wl[1], -wl[2], wl[3], wl[4]};
    Real tr[NHYDRO] = {wr[0], wr[1], -wr[2], wr[3], wr[4]};
    riemann_flux<RS, Batched>(eos, tl, tr, fm);
    const Real expect_t[NHYDRO] = {f[0], f[1], -f[2], f[3], f[4]};
    for (int n = 0; n < NHYDRO; ++n)
      if (fm[n] != expect_t[n]) {
        if (bad_mirror < 3) std::printf("%s transverse trial %d var %d: %.17g vs %.17g\n", name, trial, n, fm[n], expect_t[n]);
        ++bad_mirror;
      }
    if (trial % 4 == 0) {
      Real fp[NHYDRO], u[NHYDRO];
      normal_flux(eos, wl, fp, u);
      for (int n = 0; n < NHYDRO; ++n)
        if (std::fabs(f[n] - fp[n]) > 1e-12 * (1 + std::fabs(fp[n]))) ++bad_consistent;
    }
  }
  EXPECT_EQ(bad_mirror, 0) << name;
  EXPECT_EQ(bad_consistent, 0) << name;
}

// Einfeldt's speeds (HLLE, and HLLC's outer waves) written out: the Roe
// averages u, v, w, h and c^2 = (gamma - 1)(h - |v|^2 / 2), then
// sl = min(u_l - c_l, u - c), sr = max(u_r + c_r, u + c). Cold gas running
// into hot makes the Roe speeds the outer ones; the transverse flow makes
// the kinetic term of c^2 count.
template <bool Batched>
void check_einfeldt() {
  const double g = 1.4;
  const IdealGas eos{Real(g)};
  const double l[NHYDRO] = {1, 1, 0.8, -0.3, 0.1}, r[NHYDRO] = {1.5, -1, 0.5, 0.6, 1};
  auto enthalpy = [&](const double* w) {
    return g / (g - 1) * w[4] / w[0] + 0.5 * (w[1] * w[1] + w[2] * w[2] + w[3] * w[3]);
  };
  const double sl_ = std::sqrt(l[0]), sr_ = std::sqrt(r[0]);
  auto roe = [&](double a, double b) { return (sl_ * a + sr_ * b) / (sl_ + sr_); };
  const double u = roe(l[1], r[1]), v = roe(l[2], r[2]), w = roe(l[3], r[3]), h = roe(enthalpy(l), enthalpy(r));
  const double c = std::sqrt((g - 1) * (h - 0.5 * (u * u + v * v + w * w)));
  const double cl = std::sqrt(g * l[4] / l[0]), cr = std::sqrt(g * r[4] / r[0]);
  ASSERT_LT(u - c, l[1] - cl);  // the Roe speeds bind on both sides
  ASSERT_GT(u + c, r[1] + cr);
  Real wl[NHYDRO], wr[NHYDRO], sl, sr;
  for (int n = 0; n < NHYDRO; ++n) wl[n] = Real(l[n]), wr[n] = Real(r[n]);
  einfeldt_speeds<Batched>(eos, wl, wr, sl, sr);
  const double tol = sizeof(Real) == 8 ? 1e-14 : 1e-6;
  EXPECT_NEAR(double(sl), u - c, tol) << "batched " << Batched;
  EXPECT_NEAR(double(sr), u + c, tol) << "batched " << Batched;
}
TEST(Riemann, EinfeldtSpeedsWrittenOut) {
  check_einfeldt<false>();
  check_einfeldt<true>();
}

TEST(Riemann, LLF) { check_solver<RiemannSolver::llf>("llf"); }
TEST(Riemann, HLLE) { check_solver<RiemannSolver::hlle>("hlle"); }
TEST(Riemann, HLLC) { check_solver<RiemannSolver::hllc>("hllc"); }
// These run on the host, where the solvers divide (kBatchedReciprocals);
// the device forms too, so that a CPU-only build checks what GPUs run.
TEST(Riemann, HLLEBatched) { check_solver<RiemannSolver::hlle, true>("hlle batched"); }
TEST(Riemann, HLLCBatched) { check_solver<RiemannSolver::hllc, true>("hllc batched"); }

// The batched forms agree with the division forms to round-off, each
// component against the size of the terms the solvers combine.
template <RiemannSolver RS>
void batched_matches_divisions(const char* name) {
  const IdealGas eos(Real(5) / Real(3));
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<Real> pos(Real(0.1), Real(10)), vel(Real(-3), Real(3));
  const Real tol = Real(450) * std::numeric_limits<Real>::epsilon();  // 1e-13 in double
  Real worst = 0;
  long long bad = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    const Real drift = trial % 4 == 1 ? Real(4) * vel(rng) : Real(0);  // some supersonic faces
    Real wl[NHYDRO] = {pos(rng), vel(rng) + drift, vel(rng), vel(rng), pos(rng)};
    Real wr[NHYDRO] = {pos(rng), vel(rng) + drift, vel(rng), vel(rng), pos(rng)};
    Real fb[NHYDRO], fd[NHYDRO], fl[NHYDRO], fr[NHYDRO], ul[NHYDRO], ur[NHYDRO];
    riemann_flux<RS, true>(eos, wl, wr, fb);
    riemann_flux<RS, false>(eos, wl, wr, fd);
    normal_flux(eos, wl, fl, ul);
    normal_flux(eos, wr, fr, ur);
    const Real smax = std::fmax(std::fabs(wl[1]) + eos.sound_speed(wl[0], wl[4]),
                                std::fabs(wr[1]) + eos.sound_speed(wr[0], wr[4]));
    for (int n = 0; n < NHYDRO; ++n) {
      const Real scale = std::fabs(fl[n]) + std::fabs(fr[n]) + smax * (std::fabs(ul[n]) + std::fabs(ur[n]));
      const Real err = std::fabs(fb[n] - fd[n]) / scale;
      worst = std::fmax(worst, err);
      if (!(err <= tol)) {
        if (bad < 5) std::printf("%s trial %d var %d: batched %.17g divisions %.17g\n", name, trial, n, double(fb[n]), double(fd[n]));
        ++bad;
      }
    }
  }
  std::printf("%s: batched against divisions, worst relative difference %.3g\n", name, double(worst));
  EXPECT_EQ(bad, 0) << name;
  EXPECT_GT(worst, Real(0)) << name << ": the two forms should differ somewhere (else the test compares a form with itself)";
}

TEST(Riemann, BatchedReciprocalsMatchDivisions) {
  batched_matches_divisions<RiemannSolver::hlle>("hlle");
  batched_matches_divisions<RiemannSolver::hllc>("hllc");
}

}  // namespace
}  // namespace ax
