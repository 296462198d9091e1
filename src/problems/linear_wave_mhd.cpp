// Linear waves of ideal MHD (fast, Alfven, slow, entropy) as Athena++'s
// linear_wave problem sets them up: background rho = 1, p = 1/gamma,
// B = (1, sqrt 2, 1/2) in the wave frame, U = U0 + A sin(k x) R with R the
// conserved right eigenvector (mhd/mhd_wave_modes.hpp); the transverse field
// of the wave comes from a vector potential on the edges, so the discrete
// div B is zero to rounding, and the cell-centred field is the face average.
#include <cmath>

#include "config/section.hpp"
#include "mhd/mhd_wave_modes.hpp"
#include "problems/linear_wave.hpp"
#include "problems/mhd_init.hpp"
#include "problems/problem.hpp"

namespace ax {

namespace problem_linear_wave_mhd {
class MhdLinearWave final : public Problem {
 public:
  bool point_faces = false;  // FD MHD: faces hold point values (mhd_init.hpp)
  WaveGeometry geo;
  Real amp = 1e-6, rho0 = 1, p0 = 0.6, v0 = 0;
  Real b0[3] = {1, 0, 0};  // wave frame
  Real eig[7] = {0, 0, 0, 0, 0, 0, 0};

  void initialize(const Grid& g, const IdealGas& eos, const Comm&, const State& state) const override {
    const WaveGeometry w = geo;
    const Real k = Real(2 * M_PI) / geo.wavelength;
    Real b_grid[3];
    w.to_grid(b0[0], b0[1], b0[2], b_grid);
    // A of the perturbation in the wave frame: (0, -dbz/k cos kx, dby/k cos kx),
    // whose curl is (0, dby sin kx, dbz sin kx).
    const Real ay = -amp * eig[6] / k, az = amp * eig[5] / k;
    set_faces_from_potential(g, b_grid, KOKKOS_LAMBDA(Real x, Real y, Real z, Real* a) {
      const Real c = math::cos(k * w.along(x, y, z));
      w.to_grid(0, ay * c, az * c, a);
    }, state.b, point_faces);
    if (point_faces) {
      // FD: the cells hold point values, and the energy below is the
      // linearised one, so the gas pressure the scheme keeps when it
      // rebuilds the field from the faces is that of the exact field here.
      const Real by = amp * eig[5], bz = amp * eig[6];
      const Array4 u = state.u;
      par_for("mhd_wave_point_field", g.interior(), KOKKOS_LAMBDA(int kk, int j, int i) {
        const Real sn = math::sin(k * w.along(g.x_center(0, i), g.x_center(1, j), g.x_center(2, kk)));
        Real db[3];
        w.to_grid(0, by * sn, bz * sn, db);
        for (int n = 0; n < 3; ++n) u(IB1 + n, kk, j, i) = b_grid[n] + db[n];
      });
    } else {
      ct_cell_centred_field(g, state.b, state.u);
    }
    // Cells as Athena++: the linearised energy of the eigenvector on top of
    // the background's, whose magnetic part is |B0|^2 / 2.
    const Real e0 = p0 / eos.gm1 + Real(0.5) * rho0 * v0 * v0 +
                    Real(0.5) * (b0[0] * b0[0] + b0[1] * b0[1] + b0[2] * b0[2]);
    fill_wave_cells(g, geo, amp, rho0, rho0 * v0, e0, eig, state.u);
  }
};
}  // namespace problem_linear_wave_mhd

std::shared_ptr<const Problem> make_mhd_linear_wave(Section& p, const Config& cfg) {
  auto s = std::make_shared<problem_linear_wave_mhd::MhdLinearWave>();
  s->point_faces = cfg.family == "fd";
  s->geo = wave_geometry(p, cfg);
  const std::string wave = p.choice("wave", "fast", {"fast", "alfven", "slow", "entropy"});
  const std::string dir = p.choice("direction", "right", {"right", "left"});
  const int sgn = dir == "right" ? 1 : -1;
  s->amp = p.real("amplitude", 1e-6, 0, 1e300, true);
  s->rho0 = p.real("density", 1.0, 0, 1e300, true);
  s->p0 = p.real("pressure", 1.0 / cfg.gamma, 0, 1e300, true);
  // The entropy wave is carried by the flow; the others propagate.
  s->v0 = p.real("velocity", wave == "entropy" ? sgn * 1.0 : 0.0, -1e300, 1e300);
  const auto b = p.reals("field", 3, std::vector<double>{1.0, std::sqrt(2.0), 0.5});
  MhdUniformState st;
  st.rho = s->rho0;
  st.p = s->p0;
  st.v[0] = s->v0;
  for (int d = 0; d < 3; ++d) st.b[d] = b[d];
  const MhdWave kind = wave == "fast"     ? MhdWave::fast
                       : wave == "alfven" ? MhdWave::alfven
                       : wave == "slow"   ? MhdWave::slow
                                          : MhdWave::entropy;
  if (kind != MhdWave::entropy && b[0] == 0)
    p.fail("field", "a " + wave + " wave needs a field component along the wave vector (field[0] != 0)");
  const MhdWaveMode mode = mhd_wave_mode(cfg.gamma, st, kind, sgn);
  for (int n = 0; n < 7; ++n) s->eig[n] = Real(mode.r[n]);
  for (int d = 0; d < 3; ++d) s->b0[d] = Real(b[d]);
  const double v0 = s->v0, e0 = s->p0 / (cfg.gamma - 1) + 0.5 * s->rho0 * v0 * v0 +
                               0.5 * (b[0] * b[0] + b[1] * b[1] + b[2] * b[2]);
  const double u0[8] = {s->rho0, s->rho0 * v0, 0, 0, e0, b[0], b[1], b[2]};
  const double r8[8] = {mode.r[0], mode.r[1], mode.r[2], mode.r[3], mode.r[4], 0, mode.r[5], mode.r[6]};
  require_positive_wave_extremes(p, cfg.gamma, u0, r8, s->amp);
  return s;
}

}  // namespace ax
