// The building blocks of the FD solver on their own: the Euler
// eigen-structure (src/fd/euler_eigen.hpp), the WENO5 flux of a smooth
// profile, and the order of every Runge-Kutta table (time/stages.hpp).
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "time/stage_combination.hpp"
#include "config/config.hpp"
#include "time/stages.hpp"
#include "fd/weno.hpp"

namespace ax::test {
namespace {

void random_state(std::mt19937& rng, const IdealGas& eos, Real w[NHYDRO], Real u[NHYDRO]) {
  std::uniform_real_distribution<double> pos(0.2, 5), vel(-3, 3);
  w[0] = Real(pos(rng));
  w[1] = Real(vel(rng));
  w[2] = Real(vel(rng));
  w[3] = Real(vel(rng));
  w[4] = Real(pos(rng));
  prim_to_cons(eos, w, u);
}

// A r_s = lambda_s r_s for the flux Jacobian A (central differences of the
// physical flux), and L R = I through the projection pair.
TEST(FdScheme, EigenvectorsDiagonaliseTheFluxJacobian) {
  const IdealGas eos(Real(5) / Real(3));
  std::mt19937 rng(7);
  for (int trial = 0; trial < 50; ++trial) {
    Real w[NHYDRO], u[NHYDRO];
    random_state(rng, eos, w, u);
    const EigenSystem e = eigensystem_arithmetic(eos, w, w);
    const Real lambda[NHYDRO] = {e.un - e.c, e.un, e.un, e.un, e.un + e.c};
    for (int s = 0; s < NHYDRO; ++s) {
      Real unit[NHYDRO] = {0, 0, 0, 0, 0}, r[NHYDRO];
      unit[s] = 1;
      from_characteristic(e, unit, r);
      const double h = 1e-6;
      Real up[NHYDRO], um[NHYDRO], wp[NHYDRO], wm[NHYDRO], fp[NHYDRO], fm[NHYDRO], c;
      for (int n = 0; n < NHYDRO; ++n) {
        up[n] = u[n] + Real(h) * r[n];
        um[n] = u[n] - Real(h) * r[n];
      }
      cell_flux(eos, up, wp, fp, c);
      cell_flux(eos, um, wm, fm, c);
      double norm = 0;
      for (int n = 0; n < NHYDRO; ++n) norm = std::max(norm, std::fabs(double(r[n])));
      for (int n = 0; n < NHYDRO; ++n)
        EXPECT_NEAR((fp[n] - fm[n]) / (2 * h), lambda[s] * r[n], 1e-6 * norm * (1 + std::fabs(lambda[s])))
            << "field " << s << " component " << n;
      Real back[NHYDRO];
      to_characteristic(e, r, back);
      for (int n = 0; n < NHYDRO; ++n) EXPECT_NEAR(back[n], n == s ? 1.0 : 0.0, 1e-12);
    }
  }
}

// The Roe average reproduces the jump condition that defines it:
// F(uR) - F(uL) = A_roe (uR - uL).
TEST(FdScheme, RoeAverageSatisfiesTheJumpCondition) {
  const IdealGas eos(Real(1.4));
  std::mt19937 rng(11);
  for (int trial = 0; trial < 50; ++trial) {
    Real wl[NHYDRO], ul[NHYDRO], wr[NHYDRO], ur[NHYDRO], fl[NHYDRO], fr[NHYDRO], tmp[NHYDRO], c;
    random_state(rng, eos, wl, ul);
    random_state(rng, eos, wr, ur);
    cell_flux(eos, ul, tmp, fl, c);
    cell_flux(eos, ur, tmp, fr, c);
    const EigenSystem e = eigensystem_roe(eos, wl, wr);
    const Real lambda[NHYDRO] = {e.un - e.c, e.un, e.un, e.un, e.un + e.c};
    Real du[NHYDRO], ch[NHYDRO], df[NHYDRO];
    for (int n = 0; n < NHYDRO; ++n) du[n] = ur[n] - ul[n];
    to_characteristic(e, du, ch);
    for (int s = 0; s < NHYDRO; ++s) ch[s] *= lambda[s];
    from_characteristic(e, ch, df);
    for (int n = 0; n < NHYDRO; ++n) EXPECT_NEAR(df[n], fr[n] - fl[n], 1e-11 * (1 + std::fabs(fr[n] - fl[n])));
  }
}

// With the linear weights, flux-difference WENO5 is the fifth-order upwind
// flux: for f = sin(x) the face value of the + split must converge at
// order 5 to the exact flux-difference target.
TEST(FdScheme, LinearWeightsGiveTheFifthOrderUpwindFlux) {
  double prev = 0;
  for (int n : {16, 32, 64}) {
    const double h = 2 * M_PI / n;
    // Differences of f(x) = sin(x) at points j-2..j+2 around the face x = h/2.
    double f[5], d[4];
    for (int m = 0; m < 5; ++m) f[m] = std::sin((m - 2) * h);
    for (int m = 0; m < 4; ++m) d[m] = f[m + 1] - f[m];
    Real w0, w2;
    weno_weights<WenoWeights::js>(Real(d[0]), Real(d[1]), Real(d[2]), Real(d[3]), Real(1e30), w0, w2);
    EXPECT_NEAR(w0, 0.1, 1e-12);
    EXPECT_NEAR(w2, 0.3, 1e-12);
    const double fhat = central4(Real(f[1]), Real(f[2]), Real(f[3]), Real(f[4])) -
                        weno_phi(w0, w2, Real(d[0]), Real(d[1]), Real(d[2]), Real(d[3]));
    // The flux H whose differences are exact derivatives,
    // H(x + h/2) - H(x - h/2) = h f'(x), is H = h sin(x) / (2 sin(h/2));
    // at the face x = h/2 it is h/2.
    const double exact = h / 2;
    const double err = std::fabs(fhat - exact);
    if (prev > 0) {
      std::printf("weno5 upwind flux, n = %d: error %.3e, order %.2f\n", n, err, std::log2(prev / err));
      EXPECT_GE(std::log2(prev / err), 4.7);
    }
    prev = err;
  }
}

// Integrates y' = -y + cos(t) (exact y = (sin t + cos t)/2 + C e^-t) through
// the registers exactly as the FD solver combines them.
double ode_error(Integrator integ, int steps) {
  const Scheme sc = scheme_of(integ);
  const double T = 2.0, dt = T / steps;
  auto L = [](double y, double t) { return -y + std::cos(t); };
  // Stage times from the tableau: track c_s by integrating y' = 1 too.
  Real y = Real(1.5), k = 0, r = 0;  // y(0) = 1.5: C = 1
  Real tt = 0, tk = 0, tr = 0;
  double t0 = 0;
  for (int n = 0; n < steps; ++n) {
    Real y0 = y, in = y, t_in = Real(t0), t_u0 = Real(t0);
    for (const Stage& st : sc.stages) {
      const Real kk = Real(dt) * Real(L(in, t_in));
      const Real kt = Real(dt);
      k = start_increment(st.A, k, kk);
      tk = start_increment(st.A, tk, kt);
      if (st.set_r) {
        r = stage_register(st, r, in, k);
        tr = stage_register(st, tr, t_in, tk);
      }
      const Real out = stage_output(st, y0, in, k, r);
      tt = stage_output(st, t_u0, t_in, tk, tr);
      in = out;
      t_in = tt;
    }
    y = in;
    t0 += dt;
  }
  const double exact = 0.5 * (std::sin(T) + std::cos(T)) + std::exp(-T);
  return std::fabs(double(y) - exact);
}

TEST(FdScheme, RungeKuttaOrders) {
  struct Case { Integrator i; double order; };
  for (const Case c : {Case{Integrator::rk3, 3}, Case{Integrator::ssprk5_4, 4}, Case{Integrator::lsrk4, 4}}) {
    const double e1 = ode_error(c.i, 20), e2 = ode_error(c.i, 40);
    std::printf("%s: err(20) = %.3e  err(40) = %.3e  order %.2f\n", to_string(c.i), e1, e2, std::log2(e1 / e2));
    EXPECT_GE(std::log2(e1 / e2), c.order - 0.15) << to_string(c.i);
  }
}

}  // namespace
}  // namespace ax::test
