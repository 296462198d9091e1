// The Orszag-Tang vortex (2D, or the same field in every z-plane of a 3D
// box), in Athena++'s convention (pgen/orszag_tang.cpp) on [-0.5, 0.5]^2:
// rho = 25/(36 pi), p = 5/(12 pi), v = (sin 2 pi y, -sin 2 pi x),
// B = B0 (sin 2 pi y, sin 4 pi x) with B0 = 1/sqrt(4 pi), from
// A_z = B0/(4 pi)(cos 4 pi x - 2 cos 2 pi y). Point symmetric about the
// origin. (The classic form, v = (-sin 2 pi y, sin 2 pi x) and
// B = B0 (-sin 2 pi y, sin 4 pi x), is its mirror image.)
#include <cmath>
#include <sstream>

#include "config/config.hpp"
#include "config/section.hpp"
#include "problems/mhd_init.hpp"
#include "problems/problem.hpp"
#include "problems/problem_geometry.hpp"

namespace ax {

namespace problem_orszag_tang {
class OrszagTang final : public Problem {
 public:
  bool point_faces = false;  // FD MHD: faces hold point values (mhd_init.hpp)
  void initialize(const Grid& g, const IdealGas& eos, const Comm&, const State& state) const override {
    const Real pi = Real(M_PI), two_pi = Real(2 * M_PI), four_pi = Real(4 * M_PI);
    const Real b0 = Real(1) / math::sqrt(four_pi);
    const Real zero[3] = {0, 0, 0};
    set_faces_from_potential(g, zero, KOKKOS_LAMBDA(Real x, Real y, Real, Real* a) {
      a[0] = a[1] = 0;
      a[2] = b0 / four_pi * (math::cos(2 * two_pi * x) - 2 * math::cos(two_pi * y));
    }, state.b, point_faces);
    fill_mhd_cells(g, eos, state, KOKKOS_LAMBDA(Real x, Real y, Real, Real* w) {
      w[IDN] = Real(25) / (36 * pi);
      w[IVX] = math::sin(two_pi * y);
      w[IVY] = -math::sin(two_pi * x);
      w[IVZ] = 0;
      w[IPR] = Real(5) / (12 * pi);
    });
  }
};
}  // namespace problem_orszag_tang

std::shared_ptr<const Problem> make_orszag_tang(Section& p, const Config& cfg) {
  require_xy_plane(p, cfg, "the vortex lies in the x-y plane");
  // Period 1 along x and y: a periodic box of another length cuts the
  // flow and field at the seam into sheets.
  for (int d = 0; d < 2; ++d) {
    const double length = cfg.xmax[d] - cfg.xmin[d];
    if (cfg.bc[d][0] == BoundaryKind::periodic && std::fabs(length - std::round(length)) > 1e-12 * length) {
      std::ostringstream os;
      os << "the vortex has period 1 along x and y, but the periodic box is " << length << " long along " << "xy"[d]
         << ": expected mesh.lower and mesh.upper a whole number apart there (Athena++'s [-0.5, 0.5])";
      p.fail("name", os.str());
    }
  }
  auto s = std::make_shared<problem_orszag_tang::OrszagTang>();
  s->point_faces = cfg.family == "fd";
  return s;
}

}  // namespace ax
