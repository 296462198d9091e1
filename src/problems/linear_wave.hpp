// Geometry of Athena++'s linear-wave test (pgen/linear_wave.cpp): the wave
// vector is chosen from the domain so the wave is periodic in every active
// direction, and along the long diagonal in 2D and 3D.
#pragma once

#include "config/config.hpp"

namespace ax {

struct WaveGeometry {
  Real sin_a2 = 0, cos_a2 = 1, sin_a3 = 0, cos_a3 = 1;
  Real wavelength = 1;
};

WaveGeometry wave_geometry(const Config& cfg);

}  // namespace ax
