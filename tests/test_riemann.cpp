// Riemann solvers in isolation: consistency with the physical flux, and
// bitwise mirror symmetry (swapping the sides and reversing the normal
// velocity reverses the mass, normal-momentum-free and energy fluxes).
#include <gtest/gtest.h>

#include <random>

#include "hydro/riemann.hpp"

namespace ax {
namespace {

template <RiemannSolver RS>
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
    Real f[NHYDRO], fm[NHYDRO];
    riemann_flux<RS>(eos, wl, wr, f);
    // Mirror: left and right swapped, normal velocities reversed.
    Real ml[NHYDRO] = {wr[0], -wr[1], wr[2], wr[3], wr[4]};
    Real mr[NHYDRO] = {wl[0], -wl[1], wl[2], wl[3], wl[4]};
    riemann_flux<RS>(eos, ml, mr, fm);
    const Real expect[NHYDRO] = {-f[0], f[1], -f[2], -f[3], -f[4]};
    for (int n = 0; n < NHYDRO; ++n)
      if (fm[n] != expect[n]) {
        if (bad_mirror < 3) std::printf("%s mirror trial %d var %d: %.17g vs %.17g\n", name, trial, n, fm[n], expect[n]);
        ++bad_mirror;
      }
    // Transverse mirror: both transverse-1 velocities reversed.
    Real tl[NHYDRO] = {wl[0], wl[1], -wl[2], wl[3], wl[4]};
    Real tr[NHYDRO] = {wr[0], wr[1], -wr[2], wr[3], wr[4]};
    riemann_flux<RS>(eos, tl, tr, fm);
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

TEST(Riemann, LLF) { check_solver<RiemannSolver::llf>("llf"); }
TEST(Riemann, HLLE) { check_solver<RiemannSolver::hlle>("hlle"); }
TEST(Riemann, HLLC) { check_solver<RiemannSolver::hllc>("hllc"); }

}  // namespace
}  // namespace ax
