// The building blocks of the FD solver on their own: the Euler
// eigen-structure (src/fd/euler_eigen.hpp), the WENO5 flux of a smooth
// profile, the doubled split differences and halved projection factors
// against their textbook forms, the three orders of the fused face, and the order of every Runge-Kutta table
// (time/stages.hpp).
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "time/stage_combination.hpp"
#include "config/config.hpp"
#include "time/stages.hpp"
#include "fd/weno.hpp"
#include "fd/weno_face.hpp"

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
      cell_flux(eos, 0, up, wp, fp, c);
      cell_flux(eos, 0, um, wm, fm, c);
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

// A cell's pressure and sound speed are the same bits in the frames of all
// three axes: the fused path forms them once a stage, in the physical
// order, and each axis's native kernel from its own frame (fd_fused.cpp).
TEST(FdScheme, CellThermoIsTheSameInEveryFaceFrame) {
  const IdealGas eos(Real(5) / Real(3));
  std::mt19937 rng(5);
  for (int trial = 0; trial < 200; ++trial) {
    Real w[NHYDRO], u[NHYDRO];
    random_state(rng, eos, w, u);
    const CellThermo ref = cell_thermo(eos, u[IDN], u[IM1], u[IM2], u[IM3], u[IEN]);
    EXPECT_NEAR(ref.p, w[IPR], 1e-12 * w[IPR]);
    for (int d = 0; d < 3; ++d) {
      Real uf[NHYDRO];
      for (int s = 0; s < NHYDRO; ++s) uf[s] = u[face_slot(d, s)];
      const CellThermo t = cell_thermo_in_frame(eos, d, uf);
      EXPECT_EQ(t.inv_rho, ref.inv_rho) << "axis " << d;
      EXPECT_EQ(t.p, ref.p) << "axis " << d;
      EXPECT_EQ(t.c, ref.c) << "axis " << d;
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
    cell_flux(eos, 0, ul, tmp, fl, c);
    cell_flux(eos, 0, ur, tmp, fr, c);
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
    // The solver carries the differences doubled (weno.hpp).
    Real w0, w2, dd[4];
    for (int m = 0; m < 4; ++m) dd[m] = Real(2 * d[m]);
    weno_weights<WenoWeights::js>(dd[0], dd[1], dd[2], dd[3], Real(1e30), w0, w2);
    EXPECT_NEAR(w0, 0.1, 1e-12);
    EXPECT_NEAR(w2, 0.3, 1e-12);
    const double fhat =
        central4(Real(f[1]), Real(f[2]), Real(f[3]), Real(f[4])) - weno_phi(w0, w2, dd[0], dd[1], dd[2], dd[3]);
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

// weno.hpp's weights (Jiang & Shu's indicators times 12/13, one division)
// written for undoubled split differences a..d, against weno.hpp's forms,
// which take them doubled: the same bits, for both kinds of weights, over
// differences from rough to smooth and epsilon from 1e-40 to 1e-6; and
// both within rounding of Jiang & Shu's own formulas (eq. 2.9-2.10, and
// Borges et al.'s for WENO-Z), three divisions and all. The solver's
// epsilon is added to 12 times the paper's indicators, as it always was.
template <WenoWeights W>
void undoubled_weights(Real a, Real b, Real c, Real d, Real eps, Real& w0, Real& w2) {
  eps = Real(1.0 / 13.0) * eps;
  constexpr Real k = Real(3.0 / 13.0);
  const Real ab = a - b, a3b = math::mul_add(Real(-3), b, a);
  const Real bc = b - c, bpc = b + c;
  const Real cd = c - d, c3d = math::mul_add(Real(3), c, -d);
  const Real is0 = math::mul_add(ab, ab, k * a3b * a3b);
  const Real is1 = math::mul_add(bc, bc, k * bpc * bpc);
  const Real is2 = math::mul_add(cd, cd, k * c3d * c3d);
  const Real e0 = eps + is0, e1 = eps + is1, e2 = eps + is2;
  Real a0, a2, sum;
  if constexpr (W == WenoWeights::z) {
    const Real tau = math::fabs(is0 - is2);
    a0 = (e0 + tau) * (e1 * e2);
    a2 = Real(3) * ((e2 + tau) * (e0 * e1));
    sum = math::mul_add(Real(6) * (e1 + tau), e0 * e2, a0 + a2);
  } else {
    const Real s0 = e0 * e0, s1 = e1 * e1, s2 = e2 * e2;
    a0 = s1 * s2;
    a2 = Real(3) * (s0 * s1);
    sum = math::mul_add(Real(6) * s0, s2, a0 + a2);
  }
  const Real inv = Real(1) / sum;
  w0 = a0 * inv;
  w2 = a2 * inv;
}

// Jiang & Shu's weights as the paper writes them, in long double.
template <WenoWeights W>
void paper_weights(long double a, long double b, long double c, long double d, long double eps, long double& w0,
                   long double& w2) {
  const long double is0 = 13.0L / 12 * (a - b) * (a - b) + 0.25L * (a - 3 * b) * (a - 3 * b);
  const long double is1 = 13.0L / 12 * (b - c) * (b - c) + 0.25L * (b + c) * (b + c);
  const long double is2 = 13.0L / 12 * (c - d) * (c - d) + 0.25L * (3 * c - d) * (3 * c - d);
  long double a0, a1, a2;
  if constexpr (W == WenoWeights::z) {
    const long double tau = std::fabs(is0 - is2);
    a0 = 1 * (1 + tau / (eps + is0));
    a1 = 6 * (1 + tau / (eps + is1));
    a2 = 3 * (1 + tau / (eps + is2));
  } else {
    a0 = 1 / ((eps + is0) * (eps + is0));
    a1 = 6 / ((eps + is1) * (eps + is1));
    a2 = 3 / ((eps + is2) * (eps + is2));
  }
  w0 = a0 / (a0 + a1 + a2);
  w2 = a2 / (a0 + a1 + a2);
}

template <WenoWeights W>
void expect_doubled_form_is_textbook() {
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(-1, 1), scale(-12, 2), e(-40, -6);
  double worst = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    const Real s = Real(std::pow(10.0, scale(rng))), eps = Real(std::pow(10.0, e(rng)));
    Real x[4];
    for (Real& v : x) v = s * Real(u(rng));
    if (trial % 4 == 0) x[3] = x[2] = x[1] = x[0];  // smooth: the indicators vanish
    Real t0, t2, w0, w2;
    undoubled_weights<W>(x[0], x[1], x[2], x[3], eps, t0, t2);
    weno_weights<W>(2 * x[0], 2 * x[1], 2 * x[2], 2 * x[3], eps, w0, w2);
    ASSERT_EQ(w0, t0) << "trial " << trial;
    ASSERT_EQ(w2, t2) << "trial " << trial;
    const Real phi = math::mul_add(t0 * ((x[0] - x[1]) - (x[1] - x[2])), Real(1) / Real(3),
                                   (t2 - Real(0.5)) * ((x[1] - x[2]) - (x[2] - x[3])) * (Real(1) / Real(6)));
    ASSERT_EQ(weno_phi(w0, w2, 2 * x[0], 2 * x[1], 2 * x[2], 2 * x[3]), phi) << "trial " << trial;
    long double p0, p2;
    paper_weights<W>(x[0], x[1], x[2], x[3], (long double)eps / 12, p0, p2);  // eps is of 12 is_k
    worst = std::max({worst, double(std::fabs(w0 - p0)), double(std::fabs(w2 - p2))});
  }
  // Weights lie in [0, 1]: an absolute bound is a relative one for the
  // weights that matter. Measured: 4.4e-16 (JS and Z).
  EXPECT_LE(worst, 4e-15);
  std::printf("largest difference from the paper's weights: %.2e\n", worst);
}

TEST(FdScheme, DoubledSplitDifferencesGiveTheTextbookWeightsBitwise) {
  expect_doubled_form_is_textbook<WenoWeights::js>();
  expect_doubled_form_is_textbook<WenoWeights::z>();
}

// to_characteristic with the halved factors of EigenSystem against the
// textbook rows with b1 = (gamma - 1) / c^2, b2 = b1 q^2 / 2: the same bits.
TEST(FdScheme, ProjectionWithHalvedFactorsIsTheTextbookOne) {
  const IdealGas eos(Real(1.4));
  std::mt19937 rng(13);
  std::uniform_real_distribution<double> x(-10, 10);
  for (int trial = 0; trial < 2000; ++trial) {
    Real wl[NHYDRO], wr[NHYDRO], ul[NHYDRO], ur[NHYDRO], v[NHYDRO], w[NHYDRO];
    random_state(rng, eos, wl, ul);
    random_state(rng, eos, wr, ur);
    for (Real& c : v) c = Real(x(rng));
    const EigenSystem e = eigensystem_arithmetic(eos, wl, wr);
    const Real inv_c = Real(1) / e.c;
    const Real b1 = eos.gm1 * (inv_c * inv_c), b2 = b1 * e.q2h;
    const Real p = b1 * (math::mul_add(e.ut2, v[3], math::mul_add(e.un, v[1], e.ut1 * v[2])) - v[4]);
    const Real s = math::mul_add(e.un, v[0], -v[1]) * inv_c;
    const Real base = math::mul_add(b2, v[0], -p);
    const Real textbook[NHYDRO] = {Real(0.5) * (base + s), v[0] - base, math::mul_add(-e.ut1, v[0], v[2]),
                                   math::mul_add(-e.ut2, v[0], v[3]), Real(0.5) * (base - s)};
    to_characteristic(e, v, w);
    for (int n = 0; n < NHYDRO; ++n) ASSERT_EQ(w[n], textbook[n]) << "trial " << trial << " field " << n;
  }
}

// The fused face's three orders (fd/weno_face.hpp: stencil on CPUs, the
// others on GPUs) on rough and smooth stencils: the same bits, for both
// weight families and both averages.
// The face's cells and speeds from a stencil of conserved states. Structs
// with device-callable operators, not lambdas: the face is a host-device
// function, and nvcc (CUDA builds make this an error) refuses a host
// lambda's call from it.
struct StencilCell {
  const Real (*u)[NHYDRO];
  IdealGas eos;
  KOKKOS_INLINE_FUNCTION void operator()(int m, Real uc[NHYDRO], Real wc[NHYDRO], Real f[NHYDRO], Real& c) const {
    for (int n = 0; n < NHYDRO; ++n) uc[n] = u[m][n];
    cell_flux(eos, 0, uc, wc, f, c);
  }
};
struct StencilSpeed {
  StencilCell cell;
  KOKKOS_INLINE_FUNCTION void operator()(int m, Real& un, Real& c) const {
    Real uc[NHYDRO], wc[NHYDRO], f[NHYDRO];
    cell(m, uc, wc, f, c);
    un = wc[1];
  }
};

template <WenoWeights W, EigenAverage A>
void expect_face_orders_agree() {
  const IdealGas eos(Real(5) / Real(3));
  FdOptions o;
  o.eos = eos;
  std::mt19937 rng(29);
  std::uniform_real_distribution<double> slope(-0.3, 0.3);
  for (int trial = 0; trial < 4000; ++trial) {
    Real u[kWenoStencil][NHYDRO], w[NHYDRO];
    random_state(rng, eos, w, u[0]);
    const bool smooth = trial % 2 == 0;  // a gentle ramp; otherwise six unrelated states
    Real dw[NHYDRO];
    for (Real& d : dw) d = Real(slope(rng));
    for (int m = 1; m < kWenoStencil; ++m) {
      Real wm[NHYDRO];
      if (smooth) {
        for (int n = 0; n < NHYDRO; ++n) wm[n] = w[n] * (Real(1) + dw[n] * Real(m) / Real(5));
        prim_to_cons(eos, wm, u[m]);
      } else {
        random_state(rng, eos, wm, u[m]);
      }
    }
    const StencilCell cell{u, eos};
    const StencilSpeed speed{cell};
    Real stencil[NHYDRO], near[NHYDRO], speeds[NHYDRO];
    weno_face_flux_in_order<W, A, FaceOrder::stencil>(o, cell, speed, stencil);
    weno_face_flux_in_order<W, A, FaceOrder::near_cells>(o, cell, speed, near);
    weno_face_flux_in_order<W, A, FaceOrder::speeds_first>(o, cell, speed, speeds);
    for (int n = 0; n < NHYDRO; ++n) {
      ASSERT_TRUE(std::isfinite(stencil[n])) << "trial " << trial;
      ASSERT_EQ(near[n], stencil[n]) << "near_cells, trial " << trial << " component " << n;
      ASSERT_EQ(speeds[n], stencil[n]) << "speeds_first, trial " << trial << " component " << n;
    }
  }
}

TEST(FdScheme, FaceOrdersAgreeBitwise) {
  expect_face_orders_agree<WenoWeights::js, EigenAverage::arithmetic>();
  expect_face_orders_agree<WenoWeights::js, EigenAverage::roe>();
  expect_face_orders_agree<WenoWeights::z, EigenAverage::arithmetic>();
  expect_face_orders_agree<WenoWeights::z, EigenAverage::roe>();
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
