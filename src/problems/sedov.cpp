// Sedov-Taylor point explosion: energy E deposited uniformly in the cells
// whose centres lie within `radius` of `center`, in a cold uniform medium.
// In 2D, E is the energy per unit length (the inactive axis has unit depth).
#include "config/config.hpp"
#include "config/config_error.hpp"
#include "config/section.hpp"
#include "problems/problem.hpp"
#include "problems/problem_geometry.hpp"

namespace ax {

namespace problem_sedov {
class Sedov final : public Problem {
 public:
  Real energy = 1, radius = 0, rho = 1, p_ambient = 1e-5;
  CentreOffsets from;  // problem.center

  void initialize(const Grid& g, const IdealGas& eos, const Comm& comm, const State& state) const override {
    const Array4& u = state.u;
    const Real r2 = radius * radius;
    const CentreOffsets o = from;  // a circle in 2D, a slab in 1D (problem_geometry.hpp)
    auto inside = KOKKOS_LAMBDA(Real x, Real y, Real z) { return o.squared(x, y, z) < r2; };
    // Count the hot cells over all ranks: an exact integer sum, so every
    // decomposition deposits bitwise the same pressure.
    long long local = 0;
    par_reduce("sedov_count", g.interior(), KOKKOS_LAMBDA(int k, int j, int i, long long& n) {
      if (inside(g.x_center(0, i), g.x_center(1, j), g.x_center(2, k))) ++n;
    }, Kokkos::Sum<long long>(local));
    const long long count = allreduce_sum(comm, local);
    // make_sedov refuses such a radius with its place (require_ball_cells);
    // this guards the division below should the device's centres round
    // otherwise at the edge. Every rank sees the same sum: all throw together.
    if (count == 0)
      throw ConfigError("problem.radius: no cell centre lies within " + std::to_string(radius) +
                        " of the centre; give a larger radius (a few cells)");
    Real volume = 1;
    for (int d = 0; d < 3; ++d)
      if (g.active(d)) volume *= g.dx[d];
    const Real p_in = eos.gm1 * energy / (Real(count) * volume);
    const Real d0 = rho, p0 = p_ambient;
    fill_from_primitives(g, eos, u, KOKKOS_LAMBDA(Real x, Real y, Real z, Real* w) {
      w[IDN] = d0;
      w[IVX] = w[IVY] = w[IVZ] = 0;
      w[IPR] = inside(x, y, z) ? p_in : p0;
    });
  }
};
}  // namespace problem_sedov

std::shared_ptr<const Problem> make_sedov(Section& p, const Config& cfg) {
  auto s = std::make_shared<problem_sedov::Sedov>();
  s->energy = p.real("energy", 1.0, 0, 1e300, true);
  Real dxmax = 0;
  for (int d = 0; d < 3; ++d)
    if (cfg.nx[d] > 1) dxmax = std::max<Real>(dxmax, (cfg.xmax[d] - cfg.xmin[d]) / cfg.nx[d]);
  // Default: 3.5 cells, enough for a round blast without smearing the energy.
  s->radius = p.real("radius", 3.5 * dxmax, 0, 1e300, true);
  if (s->radius < 0.5 * dxmax) p.fail("radius", "expected a radius of at least half a cell (" + std::to_string(0.5 * dxmax) + "), got " + std::to_string(s->radius));
  s->rho = p.real("density", 1.0, 0, 1e300, true);
  s->p_ambient = p.real("pressure", 1e-5, 0, 1e300, true);
  Real center[3];
  read_center(p, cfg, center);
  s->from = centre_offsets(cfg, center);
  require_ball_cells(p, "radius", cfg, s->from, s->radius, true, "the energy's sphere");
  return s;
}

}  // namespace ax
