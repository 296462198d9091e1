// Kelvin-Helmholtz instability in 2D with smooth shear layers (Lecoanet et
// al. 2016): two layers at y = y_lo and y_hi in a periodic box, seeded by a
// single sinusoidal mode. Deterministic, so any decomposition gives the same
// initial state.
#include <cstdio>

#include "config/config.hpp"
#include "config/section.hpp"
#include "problems/problem.hpp"
#include "problems/problem_geometry.hpp"

namespace ax {

namespace problem_kh {
class KelvinHelmholtz final : public Problem {
 public:
  Real flow = 1, drho = 1, width = 0.05, amp = 0.01, sigma = 0.2, p0 = 10;
  Real y_lo = 0.5, y_hi = 1.5;

  void initialize(const Grid& g, const IdealGas& eos, const Comm&, const State& state) const override {
    const Array4& u = state.u;
    const Real uf = flow, dr = drho, a = width, A = amp, s = sigma, p = p0, y1 = y_lo, y2 = y_hi;
    const Real lx = g.xmax[0] - g.xmin[0];
    fill_from_primitives(g, eos, u, KOKKOS_LAMBDA(Real x, Real y, Real, Real* w) {
      const Real t = math::tanh((y - y1) / a) - math::tanh((y - y2) / a);
      w[IDN] = Real(1) + Real(0.5) * dr * t;
      w[IVX] = uf * (t - Real(1));
      w[IVY] = A * math::sin(Real(2 * M_PI) * x / lx) *
               (math::exp(-(y - y1) * (y - y1) / (s * s)) + math::exp(-(y - y2) * (y - y2) / (s * s)));
      w[IVZ] = 0;
      w[IPR] = p;
    });
  }
};
}  // namespace problem_kh

std::shared_ptr<const Problem> make_kelvin_helmholtz(Section& p, const Config& cfg) {
  // The layers are planes of constant y and the seed a mode along x.
  require_xy_plane(p, cfg, "the shear layers lie along x at two heights in y");
  auto s = std::make_shared<problem_kh::KelvinHelmholtz>();
  s->flow = p.real("flow_velocity", 1.0, -1e300, 1e300);
  s->drho = p.real("density_contrast", 1.0, 0, 1e300);
  s->width = p.real("layer_width", 0.05, 0, 1e300, true);
  s->amp = p.real("perturbation", 0.01, -1e300, 1e300);
  s->sigma = p.real("perturbation_width", 0.2, 0, 1e300, true);
  s->p0 = p.real("pressure", 10.0, 0, 1e300, true);
  const double ly = cfg.xmax[1] - cfg.xmin[1];
  s->y_lo = p.real("lower_layer", cfg.xmin[1] + 0.25 * ly, -1e300, 1e300);
  s->y_hi = p.real("upper_layer", cfg.xmin[1] + 0.75 * ly, -1e300, 1e300);
  auto text = [](double y) {
    char b[32];
    std::snprintf(b, sizeof(b), "%g", y);
    return std::string(b);
  };
  require_inside(p, "lower_layer", double(s->y_lo), cfg, 1, "a shear layer lies inside the box");
  require_inside(p, "upper_layer", double(s->y_hi), cfg, 1, "a shear layer lies inside the box");
  // The profile is +flow_velocity and 1 + density_contrast between the
  // layers only if they come in this order.
  // The key given is blamed: lower_layer: 0.8 alone is wrong against
  // upper_layer's default, which the file does not hold.
  if (!(s->y_hi > s->y_lo) && !p.has("upper_layer"))
    p.fail("lower_layer", "expected a height below upper_layer (" + text(double(s->y_hi)) + ", its default), got " +
                              text(double(s->y_lo)));
  if (!(s->y_hi > s->y_lo))
    p.fail("upper_layer", "expected a height above lower_layer (" + text(double(s->y_lo)) + "), got " +
                              text(double(s->y_hi)));
  return s;
}

}  // namespace ax
