// Geometry of Athena++'s linear-wave test (pgen/linear_wave.cpp): the wave
// vector is chosen from the domain so the wave is periodic in every active
// direction, and along the long diagonal in 2D (x-y or x-z) and 3D (from
// the x axis, which must then be active); along the one active axis in 1D.
#pragma once

#include <memory>

#include "backend/grid.hpp"
#include "config/config.hpp"

namespace ax {

struct WaveGeometry {
  Real sin_a2 = 0, cos_a2 = 1, sin_a3 = 0, cos_a3 = 1;
  Real wavelength = 1;

  // Distance along the wave vector of the point (x, y, z).
  KOKKOS_INLINE_FUNCTION Real along(Real x, Real y, Real z) const {
    return cos_a2 * (x * cos_a3 + y * sin_a3) + z * sin_a2;
  }
  // A vector given in the wave frame (along k, then the two normals) in
  // the grid's axes.
  KOKKOS_INLINE_FUNCTION void to_grid(Real par, Real perp, Real normal, Real out[3]) const {
    out[0] = par * cos_a2 * cos_a3 - perp * sin_a3 - normal * sin_a2 * cos_a3;
    out[1] = par * cos_a2 * sin_a3 + perp * cos_a3 - normal * sin_a2 * sin_a3;
    out[2] = par * sin_a2 + normal * cos_a2;
  }
};

class Section;
WaveGeometry wave_geometry(Section& p, const Config& cfg);

// U = U0 + A sin(k x) R for the five hydro variables over the interior, at
// cell centres: background density d0, momentum m0 along k and energy e0;
// r the eigenvector's (rho, m_par, m_perp, m_normal, E) in the wave frame.
void fill_wave_cells(const Grid& g, const WaveGeometry& geo, Real amp, Real d0, Real m0, Real e0,
                     const Real r[NHYDRO], const Array4& u);

// Refuses (at problem.amplitude) a wave whose crest or trough has a density
// or gas pressure <= 0: such a run broke down at step 0 (exit 3) without
// naming the key. The state U0 + amp s r for s = +-1, in the wave frame:
// u0 and r hold (rho, m_par, m_perp, m_normal, E, B_par, B_perp, B_normal),
// r's B_par 0 (zeros for hydro).
void require_positive_wave_extremes(Section& p, double gamma, const double u0[8], const double r[8], double amp);

class Problem;
// The MHD waves of `linear_wave` (physics.mhd: true), linear_wave_mhd.cpp.
std::shared_ptr<const Problem> make_mhd_linear_wave(Section& p, const Config& cfg);

}  // namespace ax
