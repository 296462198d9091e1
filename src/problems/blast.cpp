// Athena++'s blast wave (pgen/blast.cpp): an over-pressured sphere of
// radius `radius` in a uniform medium, threaded by a uniform field `field`
// with physics.mhd: true (the MHD blast of Athena++ and AthenaK).
#include "config/config.hpp"
#include "config/section.hpp"
#include "problems/mhd_init.hpp"
#include "problems/problem.hpp"
#include "problems/problem_geometry.hpp"

namespace ax {

namespace problem_blast {
class Blast final : public Problem {
 public:
  Real radius = 0.1, d_amb = 1, p_amb = 0.1, d_ratio = 1, p_ratio = 100;
  CentreOffsets from;  // problem.center
  Real field[3] = {0, 0, 0};

  void initialize(const Grid& g, const IdealGas& eos, const Comm&, const State& state) const override {
    const Real r2 = radius * radius;
    const Real da = d_amb, pa = p_amb, di = d_amb * d_ratio, pi = p_amb * p_ratio;
    const CentreOffsets o = from;  // a circle in 2D, a slab in 1D (problem_geometry.hpp)
    auto prim = KOKKOS_LAMBDA(Real x, Real y, Real z, Real* w) {
      const bool in = o.squared(x, y, z) < r2;
      w[IDN] = in ? di : da;
      w[IVX] = w[IVY] = w[IVZ] = 0;
      w[IPR] = in ? pi : pa;
    };
    fill_in_uniform_field(g, eos, state, field, prim);
  }
};
}  // namespace problem_blast

std::shared_ptr<const Problem> make_blast(Section& p, const Config& cfg) {
  auto s = std::make_shared<problem_blast::Blast>();
  s->radius = p.real("radius", 0.1, 0, 1e300, true);
  s->d_amb = p.real("density", 1.0, 0, 1e300, true);
  s->p_amb = p.real("pressure", 0.1, 0, 1e300, true);
  s->d_ratio = p.real("density_ratio", 1.0, 0, 1e300, true);
  s->p_ratio = p.real("pressure_ratio", 100.0, 0, 1e300, true);
  Real center[3];
  read_center(p, cfg, center);
  s->from = centre_offsets(cfg, center);
  require_ball_cells(p, "radius", cfg, s->from, s->radius, true, "the blast's sphere");
  if (cfg.mhd || p.present("field")) {
    const auto b = p.reals("field", 3, std::vector<double>{1, 0, 0});
    if (!cfg.mhd) p.fail("field", "a magnetic field needs physics.mhd: true");
    for (int d = 0; d < 3; ++d) s->field[d] = Real(b[d]);
  }
  return s;
}

}  // namespace ax
