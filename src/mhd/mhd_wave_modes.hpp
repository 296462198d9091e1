// The linear waves of ideal MHD about a uniform state: speeds and right
// eigenvectors in conserved variables, for initial conditions (linear-wave
// problems) and tests. Host code in double precision.
//
// The eigenvectors are worked out in primitive variables, where they are
// short, and mapped to conserved ones with dU/dW. Their scale is Athena++'s
// (Stone et al. 2008, appendix B), so an amplitude means the same as in its
// regression tests: density component alpha_f for fast and alpha_s for slow
// waves, a unit transverse momentum for Alfven waves, unit density for the
// entropy wave.
#pragma once

#include <array>

namespace ax {

enum class MhdWave { fast, alfven, slow, entropy };

// A uniform state in the wave frame: x along the wave vector.
struct MhdUniformState {
  double rho = 1, p = 0.6, v[3] = {0, 0, 0}, b[3] = {1, 0, 0};
};

struct MhdWaveMode {
  double speed = 0;  // phase speed along x (the eigenvalue), background flow included
  // (rho, m_x, m_y, m_z, E, b_y, b_z); b_x does not change in a plane wave.
  std::array<double, 7> r{};
};

// `direction` +1 for the wave running towards +x, -1 towards -x (for the
// entropy wave it only selects nothing: it moves with the flow).
MhdWaveMode mhd_wave_mode(double gamma, const MhdUniformState& s, MhdWave wave, int direction);

// Fast and slow magnetosonic speeds of the state along x.
void mhd_magnetosonic_speeds(double gamma, const MhdUniformState& s, double* cf, double* cs);

}  // namespace ax
