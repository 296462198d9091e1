// MHD Riemann problems (Athena++'s shock_tube with a field): two uniform
// states separated at `position` along x, y or z. Velocities and fields are
// given in the tube's frame (normal, then the two transverse axes in cyclic
// order), so a tube along y or z is the same problem rotated. The defaults
// are Brio & Wu (1988); configs/rj2a.yaml holds Ryu & Jones' 2a.
#include <cmath>

#include "config/config.hpp"
#include "config/section.hpp"
#include "problems/mhd_init.hpp"
#include "problems/problem.hpp"
#include "problems/problem_geometry.hpp"

namespace ax {

namespace problem_mhd_shock_tube {
struct Side {
  Real rho, p, v[3], b[3];  // tube frame
};

class MhdShockTube final : public Problem {
 public:
  int axis = 0;
  Real x0 = 0;
  Side left{}, right{};

  void initialize(const Grid& g, const IdealGas& eos, const Comm&, const State& state) const override {
    const int n = axis;
    const Real pos = x0;
    const Side l = left, r = right;
    // Grid axis e holds tube-frame component (e - n) mod 3.
    set_faces_pointwise(g, KOKKOS_LAMBDA(int e, Real x, Real y, Real z) {
      const Real s = n == 0 ? x : (n == 1 ? y : z);
      return s < pos ? l.b[(e - n + 3) % 3] : r.b[(e - n + 3) % 3];
    }, state.b);
    fill_mhd_cells(g, eos, state, KOKKOS_LAMBDA(Real x, Real y, Real z, Real* w) {
      const Real s = n == 0 ? x : (n == 1 ? y : z);
      const Side& side = s < pos ? l : r;
      w[IDN] = side.rho;
      for (int t = 0; t < 3; ++t) w[IVX + (n + t) % 3] = side.v[t];
      w[IPR] = side.p;
    });
  }
};

bool same(const Side& a, const Side& b) {
  bool eq = a.rho == b.rho && a.p == b.p;
  for (int t = 0; t < 3; ++t) eq = eq && a.v[t] == b.v[t] && a.b[t] == b.b[t];
  return eq;
}

Side read_side(Section& p, const std::string& key, const Side& def) {
  Section s = p.section(key, false);
  Side out;
  out.rho = Real(s.real("density", def.rho, 0, 1e300, true));
  out.p = Real(s.real("pressure", def.p, 0, 1e300, true));
  const auto v = s.reals("velocity", 3, std::vector<double>{def.v[0], def.v[1], def.v[2]});
  const auto b = s.reals("field", 3, std::vector<double>{def.b[0], def.b[1], def.b[2]});
  for (int t = 0; t < 3; ++t) {
    out.v[t] = Real(v[t]);
    out.b[t] = Real(b[t]);
  }
  s.finish();
  return out;
}
}  // namespace problem_mhd_shock_tube

std::shared_ptr<const Problem> make_mhd_shock_tube(Section& p, const Config& cfg) {
  using namespace problem_mhd_shock_tube;
  auto s = std::make_shared<MhdShockTube>();
  s->axis = int(std::string("xyz").find(p.choice("direction", "x", {"x", "y", "z"})));
  s->x0 = Real(p.real("position", 0.5 * (cfg.xmin[s->axis] + cfg.xmax[s->axis]), -1e300, 1e300));
  require_tube(p, cfg, s->axis, double(s->x0));
  // Brio & Wu (1988), gamma = 2.
  const Side bw_left{1, 1, {0, 0, 0}, {Real(0.75), 1, 0}};
  const Side bw_right{Real(0.125), Real(0.1), {0, 0, 0}, {Real(0.75), -1, 0}};
  s->left = read_side(p, "left", bw_left);
  s->right = read_side(p, "right", bw_right);
  // Brio & Wu's solution is for gamma = 2; physics.gamma's default (5/3)
  // would give another one without a word, however the states were given.
  if (same(s->left, bw_left) && same(s->right, bw_right) && !cfg.key_where.count("physics.gamma"))
    p.fail("name", "the states are Brio & Wu's (1988), whose solution is for gamma = 2, but physics.gamma "
                   "is not given (its default is 5/3): set physics.gamma (2 for Brio & Wu), or give other "
                   "problem.left and problem.right");
  if (s->left.b[0] != s->right.b[0])
    p.fail("right", "the normal field must be the same on both sides (div B = 0): left field[0] = " +
                        std::to_string(double(s->left.b[0])) + ", right field[0] = " +
                        std::to_string(double(s->right.b[0])));
  return s;
}

}  // namespace ax
