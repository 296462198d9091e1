// Advection of a weak field loop (Gardiner & Stone 2005; Athena++'s
// field_loop, iprob 1): A_z = amplitude (radius - r) inside r < radius, in
// a uniform flow of unit density and pressure. The loop must keep its shape
// and energy, and with v_z != 0 the field must stay in the plane: dB_z/dt
// = v_z div B, so B_z measures the scheme's div B.
#include <cmath>

#include "config/config.hpp"
#include "config/section.hpp"
#include "problems/mhd_init.hpp"
#include "problems/problem.hpp"
#include "problems/problem_geometry.hpp"

namespace ax {

namespace problem_field_loop {
class FieldLoop final : public Problem {
 public:
  bool point_faces = false;  // FD MHD: faces hold point values (mhd_init.hpp)
  Real radius = Real(0.3), amplitude = Real(1e-3), rho = 1, pressure = 1;
  Real velocity[3] = {2, 1, 2};
  CentreOffsets from;  // problem.center; along z the loop is a cylinder

  void initialize(const Grid& g, const IdealGas& eos, const Comm&, const State& state) const override {
    const Real r0 = radius, amp = amplitude;
    const CentreOffsets o = from;
    const Real zero[3] = {0, 0, 0};
    set_faces_from_potential(g, zero, KOKKOS_LAMBDA(Real x, Real y, Real, Real* a) {
      const Real sx = o.along(0, x), sy = o.along(1, y), r = math::sqrt(sx * sx + sy * sy);
      a[0] = a[1] = 0;
      a[2] = r < r0 ? amp * (r0 - r) : Real(0);
    }, state.b, point_faces);
    const Real d = rho, p = pressure, vx = velocity[0], vy = velocity[1], vz = velocity[2];
    fill_mhd_cells(g, eos, state, KOKKOS_LAMBDA(Real, Real, Real, Real* w) {
      w[IDN] = d;
      w[IVX] = vx;
      w[IVY] = vy;
      w[IVZ] = vz;
      w[IPR] = p;
    });
  }
};
}  // namespace problem_field_loop

std::shared_ptr<const Problem> make_field_loop(Section& p, const Config& cfg) {
  require_xy_plane(p, cfg, "the field loop lies in the x-y plane");
  auto s = std::make_shared<problem_field_loop::FieldLoop>();
  s->point_faces = cfg.family == "fd";
  s->radius = Real(p.real("radius", 0.3, 0, 1e300, true));
  s->amplitude = Real(p.real("amplitude", 1e-3, -1e300, 1e300));
  s->rho = Real(p.real("density", 1.0, 0, 1e300, true));
  s->pressure = Real(p.real("pressure", 1.0, 0, 1e300, true));
  const auto v = p.reals("velocity", 3, std::vector<double>{2, 1, 2});
  for (int d = 0; d < 3; ++d) s->velocity[d] = Real(v[d]);
  Real center[3];
  read_center(p, cfg, center);
  s->from = centre_offsets(cfg, center);
  s->from.active[2] = false;
  require_ball_cells(p, "radius", cfg, s->from, s->radius, false, "the field loop");
  // Across a periodic seam the loop meets its own image; A_z then has a
  // kink that the curl turns into a current sheet.
  for (int d = 0; d < 2; ++d)
    if (s->from.period[d] > 0 && 2 * s->radius > s->from.period[d])
      p.fail("radius", std::string("the loop overlaps its periodic image along ") + "xy"[d] + ": expected a radius "
                       "of at most half the domain's length along it");
  return s;
}

}  // namespace ax
