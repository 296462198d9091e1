// The circularly polarised Alfven wave (Toth 2000; Athena++'s cpaw): an
// exact nonlinear solution of ideal MHD that travels at the Alfven speed
// without changing shape. In the wave frame (x along k, the wave vector
// chosen as for linear_wave): B = (b_par, b_perp sin kx, b_perp cos kx),
// v_perp = -+ B_perp / sqrt(rho) for the wave running to +-x, uniform rho
// and p. One period is wavelength sqrt(rho) / |b_par|.
#include <cmath>

#include "config/config.hpp"
#include "config/section.hpp"
#include "problems/linear_wave.hpp"
#include "problems/mhd_init.hpp"
#include "problems/problem.hpp"

namespace ax {

namespace problem_cpaw {
class Cpaw final : public Problem {
 public:
  bool point_faces = false;  // FD MHD: faces hold point values (mhd_init.hpp)
  WaveGeometry geo;
  Real rho = 1, pressure = 0.1, b_par = 1, b_perp = 0.1, v_par = 0;
  Real v_factor = -1;  // v_perp = v_factor * B_perp / sqrt(rho)

  void initialize(const Grid& g, const IdealGas& eos, const Comm&, const State& state) const override {
    const WaveGeometry w = geo;
    const Real k = Real(2 * M_PI) / geo.wavelength;
    Real b_grid[3];
    w.to_grid(b_par, 0, 0, b_grid);
    // curl (0, bp/k sin kx, bp/k cos kx) = (0, bp sin kx, bp cos kx).
    const Real amp = b_perp / k;
    set_faces_from_potential(g, b_grid, KOKKOS_LAMBDA(Real x, Real y, Real z, Real* a) {
      const Real phase = k * w.along(x, y, z);
      w.to_grid(0, amp * math::sin(phase), amp * math::cos(phase), a);
    }, state.b, point_faces);
    const Real vf = v_factor / math::sqrt(rho), bp = b_perp, d = rho, p = pressure, vp = v_par;
    fill_mhd_cells(g, eos, state, KOKKOS_LAMBDA(Real x, Real y, Real z, Real* wc) {
      const Real phase = k * w.along(x, y, z);
      Real v[3];
      w.to_grid(vp, vf * bp * math::sin(phase), vf * bp * math::cos(phase), v);
      wc[IDN] = d;
      wc[IVX] = v[0];
      wc[IVY] = v[1];
      wc[IVZ] = v[2];
      wc[IPR] = p;
    });
  }
};
}  // namespace problem_cpaw

std::shared_ptr<const Problem> make_cpaw(Section& p, const Config& cfg) {
  auto s = std::make_shared<problem_cpaw::Cpaw>();
  s->point_faces = cfg.family == "fd";
  s->geo = wave_geometry(p, cfg);
  s->rho = p.real("density", 1.0, 0, 1e300, true);
  s->pressure = p.real("pressure", 0.1, 0, 1e300, true);
  s->b_par = p.real("b_par", 1.0, -1e300, 1e300);
  s->b_perp = p.real("b_perp", 0.1, -1e300, 1e300);
  if (s->b_par == 0) p.fail("b_par", "expected a field along the wave vector (b_par != 0): it sets the Alfven speed");
  // A uniform flow along k carries the wave at v_par +- v_A: -v_A for a
  // right-going wave makes it stand (Athena++'s standing cpaw).
  s->v_par = p.real("v_par", 0.0, -1e300, 1e300);
  const std::string dir = p.choice("direction", "right", {"right", "left"});
  // Alfven waves: delta v = -+ sgn(b_par) delta B / sqrt(rho) running to +-x.
  s->v_factor = (dir == "right" ? -1 : 1) * (s->b_par > 0 ? 1 : -1);
  return s;
}

}  // namespace ax
