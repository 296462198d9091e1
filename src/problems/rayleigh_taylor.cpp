// Rayleigh-Taylor instability (Athena++'s rt.cpp, with iprob = 1): a heavy
// layer above a light one in hydrostatic balance under physics.gravity,
// which points down the vertical axis (y in 2D, z in 3D), seeded by one
// mode of vertical velocity that vanishes at the walls. With `boundaries`
// reflecting along the vertical axis, the walls hold the layers up
// (GhostExchange::set_hydrostatic_walls). With physics.mhd a uniform
// `field` (Athena++'s b0; default none), whose pressure is uniform and
// keeps the balance; along x it holds the seeded mode back by its tension.
#include <cmath>
#include <cstdio>
#include <string>

#include "config/config.hpp"
#include "config/section.hpp"
#include "problems/mhd_init.hpp"
#include "problems/problem.hpp"
#include "problems/problem_geometry.hpp"

namespace ax {

namespace problem_rt {
class RayleighTaylor final : public Problem {
 public:
  int vertical = 1;            // axis of gravity: y in 2D, z in 3D
  Real g = -0.1;               // its component along that axis
  Real rho_below = 1, rho_above = 2, p0 = 2.5, height = 0, amp = 0.01;
  Real field[3] = {0, 0, 0};

  void initialize(const Grid& grid, const IdealGas& eos, const Comm&, const State& state) const override {
    const int v = vertical;
    const Real gv = g, lo = rho_below, hi = rho_above, p = p0, h = height, A = amp;
    Real k[3], mid[3];
    for (int d = 0; d < 3; ++d) {
      k[d] = grid.active(d) ? Real(2 * M_PI) / (grid.xmax[d] - grid.xmin[d]) : Real(0);
      mid[d] = Real(0.5) * (grid.xmin[d] + grid.xmax[d]);
    }
    const Real kx = k[0], ky = k[1], kz = k[2], mx = mid[0], my = mid[1], mz = mid[2];
    const int modes = v == 2 ? 3 : 2;  // factors of (1 + cos): 2D x and y, 3D x, y and z
    auto prim = KOKKOS_LAMBDA(Real x, Real y, Real z, Real* w) {
      const Real s = v == 2 ? z : y;  // height
      const Real rho = s > h ? hi : lo;
      // (1 + cos) of each axis, zero at the walls of a box centred on mid.
      Real shape = (Real(1) + math::cos(kx * (x - mx))) * (Real(1) + math::cos(ky * (y - my)));
      if (modes == 3) shape *= Real(1) + math::cos(kz * (z - mz));
      shape *= modes == 3 ? Real(0.125) : Real(0.25);
      w[IDN] = rho;
      w[IVX] = 0;
      w[IVY] = v == 1 ? A * shape : Real(0);
      w[IVZ] = v == 2 ? A * shape : Real(0);
      w[IPR] = p + gv * rho * (s - h);  // continuous at the interface, dp/ds = rho g
    };
    fill_in_uniform_field(grid, eos, state, field, prim);
  }
};
}  // namespace problem_rt

std::shared_ptr<const Problem> make_rayleigh_taylor(Section& p, const Config& cfg) {
  auto rt = std::make_shared<problem_rt::RayleighTaylor>();
  require_xy_plane(p, cfg, "the layers lie one above the other along y (2D) or z (3D) and the mode runs along x");
  rt->vertical = cfg.nx[2] > 1 ? 2 : 1;
  const int v = rt->vertical;
  const char* axis = v == 2 ? "z" : "y";
  auto text = [](double x) {
    char b[32];
    std::snprintf(b, sizeof(b), "%g", x);
    return std::string(b);
  };
  const std::string given = "[" + text(cfg.gravity[0]) + ", " + text(cfg.gravity[1]) + ", " + text(cfg.gravity[2]) + "]";
  // Errors about other sections' keys point at those keys (or say they were left at their default).
  auto fail_at = [&](const std::string& key, const std::string& msg) {
    throw ConfigError(key_place(cfg, key) + ": " + msg + " (problem.name: rayleigh_taylor)");
  };
  for (int d = 0; d < 3; ++d)
    if (d != v && cfg.gravity[d] != 0)
      fail_at("physics.gravity", std::string("gravity points down ") + axis + " only here: expected physics.gravity = " +
                         (v == 2 ? "[0, 0, g]" : "[0, g, 0]") + " with g < 0, got " + given);
  if (!(cfg.gravity[v] < 0))
    fail_at("physics.gravity", std::string("expected physics.gravity pointing down ") + axis + " (a negative " + axis +
                       " component, as Athena++'s grav_acc" + (v == 2 ? "3" : "2") + " = -0.1), got " + given);
  rt->g = cfg.gravity[v];
  rt->rho_below = p.real("density", 1.0, 0, 1e300, true);
  rt->rho_above = rt->rho_below * p.real("density_ratio", 2.0, 0, 1e300, true);
  rt->p0 = p.real("pressure", 2.5, 0, 1e300, true);
  rt->amp = p.real("perturbation", 0.01, -1e300, 1e300);
  rt->height = p.real("interface", 0.5 * (cfg.xmin[v] + cfg.xmax[v]), -1e300, 1e300);
  require_inside(p, "interface", double(rt->height), cfg, v, "the layers meet inside the box");
  if (cfg.mhd || p.present("field")) {
    const auto b = p.reals("field", 3, std::vector<double>{0, 0, 0});
    if (!cfg.mhd) p.fail("field", "a magnetic field needs physics.mhd: true");
    for (int d = 0; d < 3; ++d) rt->field[d] = Real(b[d]);
  }
  // Only walls hold the layers up (and keep them in balance: their ghosts
  // continue the pressure); a periodic axis would put the top on the bottom.
  for (int side = 0; side < 2; ++side) {
    if (cfg.bc[v][side] == BoundaryKind::reflecting) continue;
    const std::string face = std::string("boundaries.") + axis + (side ? "_outer" : "_inner");
    fail_at(cfg.key_where.count(face) ? face : std::string("boundaries.") + axis,
            std::string("the layers rest on walls: expected boundaries.") + axis + ": reflecting");
  }
  // The pressure falls with height: it must stay positive at the top, and
  // in the wall's ghost cells above it (ghost depth - 1/2 cells higher).
  const double dx = (cfg.xmax[v] - cfg.xmin[v]) / cfg.nx[v];
  const double top = cfg.xmax[v] + (cfg.ghost - 0.5) * dx;
  const double weight = -double(rt->g) * double(rt->rho_above) * (top - double(rt->height));
  if (!(double(rt->p0) > weight))
    p.fail("pressure", "expected a pressure at the interface above " + text(weight) +
                           " (the weight of the heavy layer above it, up to the wall's ghost cells), got " +
                           text(double(rt->p0)));
  return rt;
}

}  // namespace ax
