// Linear waves of the Euler equations (sound, entropy, shear) on a uniform
// background, as Athena++'s linear_wave problem: U = U0 + A sin(k x) R, with R
// the right eigenvector of the chosen wave, set at cell centres.
#include "problems/linear_wave.hpp"

#include <cmath>
#include <cstdio>

#include "config/section.hpp"
#include "problems/problem.hpp"

namespace ax {

WaveGeometry wave_geometry(Section& p, const Config& cfg) {
  WaveGeometry w;
  const double l1 = cfg.xmax[0] - cfg.xmin[0], l2 = cfg.xmax[1] - cfg.xmin[1],
               l3 = cfg.xmax[2] - cfg.xmin[2];
  const bool f1 = cfg.nx[0] > 1, f2 = cfg.nx[1] > 1, f3 = cfg.nx[2] > 1;
  if (!f1 && (f2 || f3)) {
    // Athena++ always has x active. A 1D grid along y or z gets k along
    // that axis, exactly (the angles' cosines would leave 6e-17 of it on x);
    // the diagonal of a y-z plane is not defined here.
    if (f2 && f3)
      p.fail("name", "the wave vector lies along the grid's diagonal from the x axis (as Athena++): expected "
                     "mesh.cells with x active in 2D and 3D, got a y-z plane");
    if (f2) {
      w.sin_a3 = 1;
      w.cos_a3 = 0;
      w.wavelength = l2;
    } else {
      w.sin_a2 = 1;
      w.cos_a2 = 0;
      w.wavelength = l3;
    }
    return w;
  }
  double a3 = 0, a2 = 0;
  if (f2) a3 = std::atan(l1 / l2);
  // 3D as Athena++; an x-z plane along its diagonal, as the x-y plane.
  if (f3) a2 = f2 ? std::atan(0.5 * (l1 * std::cos(a3) + l2 * std::sin(a3)) / l3) : std::atan(l1 / l3);
  w.sin_a2 = std::sin(a2);
  w.cos_a2 = std::cos(a2);
  w.sin_a3 = std::sin(a3);
  w.cos_a3 = std::cos(a3);
  const double x1 = l1 * w.cos_a2 * w.cos_a3, x2 = l2 * w.cos_a2 * w.sin_a3, x3 = l3 * w.sin_a2;
  double lambda = x1;
  if (f2 && a3 != 0) lambda = std::min(lambda, x2);
  if (f3 && a2 != 0) lambda = std::min(lambda, x3);
  w.wavelength = lambda;
  return w;
}

void fill_wave_cells(const Grid& g, const WaveGeometry& geo, Real amp, Real d0, Real m0, Real e0,
                     const Real r[NHYDRO], const Array4& u) {
  const Real k = Real(2 * M_PI) / geo.wavelength;
  const Real a = amp, r0 = r[0], r1 = r[1], r2 = r[2], r3 = r[3], r4 = r[4];
  const WaveGeometry w = geo;
  par_for("linear_wave_init", g.interior(), KOKKOS_LAMBDA(int kk, int j, int i) {
    const Real sn = math::sin(k * w.along(g.x_center(0, i), g.x_center(1, j), g.x_center(2, kk)));
    Real m[3];
    w.to_grid(m0 + a * sn * r1, a * sn * r2, a * sn * r3, m);
    u(IDN, kk, j, i) = d0 + a * sn * r0;
    u(IM1, kk, j, i) = m[0];
    u(IM2, kk, j, i) = m[1];
    u(IM3, kk, j, i) = m[2];
    u(IEN, kk, j, i) = e0 + a * sn * r4;
  });
}

namespace {
// The smaller of the density and the gas pressure at the crest and trough.
double wave_extreme_low(double gamma, const double u0[8], const double r[8], double amp) {
  double low = HUGE_VAL;
  for (double s : {-1.0, 1.0}) {
    double u[8];
    for (int n = 0; n < 8; ++n) u[n] = u0[n] + amp * s * r[n];
    const double m2 = u[1] * u[1] + u[2] * u[2] + u[3] * u[3], b2 = u[5] * u[5] + u[6] * u[6] + u[7] * u[7];
    const double p = u[0] > 0 ? (gamma - 1) * (u[4] - 0.5 * m2 / u[0] - 0.5 * b2) : -HUGE_VAL;
    low = std::fmin(low, std::fmin(u[0], p));
  }
  return low;
}
}  // namespace

void require_positive_wave_extremes(Section& p, double gamma, const double u0[8], const double r[8], double amp) {
  if (wave_extreme_low(gamma, u0, r, amp) > 0) return;
  double ok = 0, bad = amp;  // the largest amplitude that keeps both positive, by bisection
  for (int i = 0; i < 200 && bad - ok > 1e-6 * bad; ++i) {
    const double mid = 0.5 * (ok + bad);
    (wave_extreme_low(gamma, u0, r, mid) > 0 ? ok : bad) = mid;
  }
  char msg[200];
  std::snprintf(msg, sizeof(msg),
                "the wave's crest or trough has a density or gas pressure <= 0 at amplitude %g; expected an amplitude "
                "below %.3g (a linear wave: Athena++ uses 1e-6)",
                amp, ok);
  p.fail("amplitude", msg);
}

namespace problem_linear_wave {
class LinearWave final : public Problem {
 public:
  WaveGeometry geo;
  Real amp = 1e-6, rho0 = 1, p0 = 0.6, v0 = 0;
  Real eig[NHYDRO] = {0, 0, 0, 0, 0};  // right eigenvector in the wave frame

  void initialize(const Grid& g, const IdealGas& eos, const Comm&, const State& state) const override {
    const Real e0 = p0 / eos.gm1 + Real(0.5) * rho0 * v0 * v0;
    fill_wave_cells(g, geo, amp, rho0, rho0 * v0, e0, eig, state.u);
  }
};
}  // namespace problem_linear_wave

std::shared_ptr<const Problem> make_linear_wave(Section& p, const Config& cfg) {
  if (cfg.mhd) return make_mhd_linear_wave(p, cfg);
  auto s = std::make_shared<problem_linear_wave::LinearWave>();
  s->geo = wave_geometry(p, cfg);
  const std::string wave = p.choice("wave", "sound", {"sound", "entropy", "shear"});
  const std::string dir = p.choice("direction", "right", {"right", "left"});
  const double sgn = dir == "right" ? 1.0 : -1.0;
  s->amp = p.real("amplitude", 1e-6, 0, 1e300, true);
  s->rho0 = p.real("density", 1.0, 0, 1e300, true);
  // Default background pressure 1/gamma: sound speed 1, period = wavelength.
  s->p0 = p.real("pressure", 1.0 / cfg.gamma, 0, 1e300, true);
  // Sound waves propagate on their own; entropy and shear waves are carried
  // by the background flow.
  s->v0 = p.real("velocity", wave == "sound" ? 0.0 : sgn * 1.0, -1e300, 1e300);
  const double gm1 = cfg.gamma - 1, u = s->v0;
  const double c = std::sqrt(cfg.gamma * s->p0 / s->rho0);
  const double h = c * c / gm1 + 0.5 * u * u;
  if (wave == "sound") {
    const double a = sgn * c;
    const double r[NHYDRO] = {1, u + a, 0, 0, h + u * a};
    for (int n = 0; n < NHYDRO; ++n) s->eig[n] = r[n];
  } else if (wave == "entropy") {
    const double r[NHYDRO] = {1, u, 0, 0, 0.5 * u * u};
    for (int n = 0; n < NHYDRO; ++n) s->eig[n] = r[n];
  } else {
    const double r[NHYDRO] = {0, 0, 1, 0, 0};
    for (int n = 0; n < NHYDRO; ++n) s->eig[n] = r[n];
  }
  const double u0[8] = {s->rho0, s->rho0 * u, 0, 0, s->p0 / gm1 + 0.5 * s->rho0 * u * u, 0, 0, 0};
  const double r8[8] = {s->eig[0], s->eig[1], s->eig[2], s->eig[3], s->eig[4], 0, 0, 0};
  require_positive_wave_extremes(p, cfg.gamma, u0, r8, s->amp);
  return s;
}

}  // namespace ax
