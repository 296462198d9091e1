// Shock tube (Sod 1978 by default) along x, y or z: a left and a right
// state separated at `position`.
#include "config/config.hpp"
#include "config/section.hpp"
#include "problems/problem.hpp"
#include "problems/problem_geometry.hpp"

namespace ax {

namespace problem_sod {
class Sod final : public Problem {
 public:
  int axis = 0;
  Real x0 = 0.5;
  Real wl[NHYDRO] = {1, 0, 0, 0, 1};
  Real wr[NHYDRO] = {Real(0.125), 0, 0, 0, Real(0.1)};

  void initialize(const Grid& g, const IdealGas& eos, const Comm&, const State& state) const override {
    const Array4& u = state.u;
    const int d = axis;
    const Real pos = x0;
    const Real l0 = wl[0], l1 = wl[1], l4 = wl[4], r0 = wr[0], r1 = wr[1], r4 = wr[4];
    fill_from_primitives(g, eos, u, KOKKOS_LAMBDA(Real x, Real y, Real z, Real* w) {
      const Real s = d == 0 ? x : (d == 1 ? y : z);
      const bool left = s < pos;
      for (int n = 0; n < NHYDRO; ++n) w[n] = 0;
      w[IDN] = left ? l0 : r0;
      w[IVX + d] = left ? l1 : r1;
      w[IPR] = left ? l4 : r4;
    });
  }
};
}  // namespace problem_sod
using problem_sod::Sod;

std::shared_ptr<const Problem> make_sod(Section& p, const Config& cfg) {
  auto s = std::make_shared<Sod>();
  s->axis = int(std::string("xyz").find(p.choice("direction", "x", {"x", "y", "z"})));
  // The middle of the domain by default, as mhd_shock_tube (0.5 on [0, 1]).
  s->x0 = Real(p.real("position", 0.5 * (cfg.xmin[s->axis] + cfg.xmax[s->axis]), -1e300, 1e300));
  require_tube(p, cfg, s->axis, double(s->x0));
  s->wl[IDN] = p.real("left_density", 1.0, 0, 1e300, true);
  s->wl[IVX] = p.real("left_velocity", 0.0, -1e300, 1e300);
  s->wl[IPR] = p.real("left_pressure", 1.0, 0, 1e300, true);
  s->wr[IDN] = p.real("right_density", 0.125, 0, 1e300, true);
  s->wr[IVX] = p.real("right_velocity", 0.0, -1e300, 1e300);
  s->wr[IPR] = p.real("right_pressure", 0.1, 0, 1e300, true);
  return s;
}

}  // namespace ax
