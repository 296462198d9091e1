// Shu & Osher's shock-entropy wave (1989, problem 8; Athena++'s shu_osher):
// a Mach 3 shock running into a sinusoidal density, whose compressed
// wiggles behind the shock show how much a scheme smears fine structure.
// On [-5, 5] with the shock at x = -4 and rho = 1 + 0.2 sin(5 x) ahead of
// it, the usual end time is 1.8.
#include <cmath>
#include <cstdio>
#include <string>

#include "config/config.hpp"
#include "config/section.hpp"
#include "problems/problem.hpp"
#include "problems/problem_geometry.hpp"

namespace ax {

namespace problem_shu_osher {
class ShuOsher final : public Problem {
 public:
  int axis = 0;
  Real x0 = -4;
  // Behind the shock: the post-shock state of a Mach 3 shock in gamma = 1.4
  // gas, as Shu & Osher round it.
  Real rho_l = Real(3.857143), v_l = Real(2.629369), p_l = Real(10.33333);
  Real rho_r = 1, p_r = 1, amplitude = Real(0.2), wavenumber = 5;

  void initialize(const Grid& g, const IdealGas& eos, const Comm&,
                  const State& state) const override {
    const int d = axis;
    const Real pos = x0, l0 = rho_l, l1 = v_l, l4 = p_l, r0 = rho_r, r4 = p_r, a = amplitude,
               k = wavenumber;
    fill_from_primitives(
        g, eos, state.u, KOKKOS_LAMBDA(Real x, Real y, Real z, Real * w) {
          const Real s = d == 0 ? x : (d == 1 ? y : z);
          const bool behind = s < pos;
          for (int n = 0; n < NHYDRO; ++n) w[n] = 0;
          w[IDN] = behind ? l0 : math::mul_add(a, math::sin(k * s), r0);
          w[IVX + d] = behind ? l1 : Real(0);
          w[IPR] = behind ? l4 : r4;
        });
  }
};
}  // namespace problem_shu_osher
using problem_shu_osher::ShuOsher;

std::shared_ptr<const Problem> make_shu_osher(Section& p, const Config& cfg) {
  auto s = std::make_shared<ShuOsher>();
  s->axis = int(std::string("xyz").find(p.choice("direction", "x", {"x", "y", "z"})));
  const double lo = cfg.xmin[s->axis], hi = cfg.xmax[s->axis];
  // A tenth of the way along the tube by default: x = -4 on [-5, 5].
  s->x0 = Real(p.real("position", lo + 0.1 * (hi - lo), -1e300, 1e300));
  require_tube(p, cfg, s->axis, double(s->x0));
  s->rho_l = Real(p.real("left_density", 3.857143, 0, 1e300, true));
  s->v_l = Real(p.real("left_velocity", 2.629369, -1e300, 1e300));
  s->p_l = Real(p.real("left_pressure", 10.33333, 0, 1e300, true));
  s->rho_r = Real(p.real("right_density", 1.0, 0, 1e300, true));
  s->p_r = Real(p.real("right_pressure", 1.0, 0, 1e300, true));
  s->wavenumber = Real(p.real("wavenumber", 5.0, -1e300, 1e300));
  // |amplitude| < right_density keeps the density ahead of the shock positive.
  s->amplitude = Real(p.real("amplitude", 0.2, -1e300, 1e300));
  if (!(std::fabs(double(s->amplitude)) < double(s->rho_r))) {
    char msg[200];
    std::snprintf(msg, sizeof(msg),
                  "expected |amplitude| < right_density (%g) so that the density ahead of the "
                  "shock stays positive, got %g",
                  double(s->rho_r), double(s->amplitude));
    p.fail("amplitude", msg);
  }
  return s;
}

}  // namespace ax
