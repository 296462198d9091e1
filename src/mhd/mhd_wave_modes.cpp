#include "mhd/mhd_wave_modes.hpp"

#include <algorithm>
#include <cmath>

namespace ax {

void mhd_magnetosonic_speeds(double gamma, const MhdUniformState& s, double* cf, double* cs) {
  const double asq = gamma * s.p / s.rho;
  const double casq = s.b[0] * s.b[0] / s.rho;
  const double bsq = (s.b[0] * s.b[0] + s.b[1] * s.b[1] + s.b[2] * s.b[2]) / s.rho;
  const double sum = asq + bsq;
  // (a^2 - b^2)^2 + 4 a^2 bt^2 / rho: the discriminant without cancellation.
  const double disc = (asq - bsq) * (asq - bsq) + 4 * asq * (bsq - casq);
  const double cfsq = 0.5 * (sum + std::sqrt(disc));
  *cf = std::sqrt(cfsq);
  *cs = std::sqrt(asq * casq / cfsq);
}

MhdWaveMode mhd_wave_mode(double gamma, const MhdUniformState& s, MhdWave wave, int direction) {
  const double rho = s.rho, sqrt_rho = std::sqrt(rho);
  const double asq = gamma * s.p / rho, a = std::sqrt(asq);
  const double bt = std::hypot(s.b[1], s.b[2]);
  // Direction of the transverse field; any unit vector when it vanishes.
  const double beta[2] = {bt > 0 ? s.b[1] / bt : 1.0, bt > 0 ? s.b[2] / bt : 0.0};
  const double sgn_bx = s.b[0] >= 0 ? 1.0 : -1.0;
  const double dir = direction >= 0 ? 1.0 : -1.0;
  double cf, cs;
  mhd_magnetosonic_speeds(gamma, s, &cf, &cs);
  double alpha_f = 1, alpha_s = 0;  // degenerate limits as in Athena++
  if (cf * cf - cs * cs > 0) {
    alpha_f = std::sqrt(std::clamp((asq - cs * cs) / (cf * cf - cs * cs), 0.0, 1.0));
    alpha_s = std::sqrt(std::clamp((cf * cf - asq) / (cf * cf - cs * cs), 0.0, 1.0));
  }

  // Primitive perturbation (rho, v_x, v_y, v_z, p, b_y, b_z) and the phase
  // speed relative to the flow.
  double w[7] = {0, 0, 0, 0, 0, 0, 0}, c = 0;
  switch (wave) {
    case MhdWave::fast:
      c = dir * cf;
      w[0] = alpha_f;
      w[1] = c * alpha_f / rho;
      w[4] = asq * alpha_f;
      for (int t = 0; t < 2; ++t) {
        w[2 + t] = -dir * cs * alpha_s * sgn_bx * beta[t] / rho;
        w[5 + t] = a * alpha_s * beta[t] / sqrt_rho;
      }
      break;
    case MhdWave::slow:
      c = dir * cs;
      w[0] = alpha_s;
      w[1] = c * alpha_s / rho;
      w[4] = asq * alpha_s;
      for (int t = 0; t < 2; ++t) {
        w[2 + t] = dir * cf * alpha_f * sgn_bx * beta[t] / rho;
        w[5 + t] = -a * alpha_f * beta[t] / sqrt_rho;
      }
      break;
    case MhdWave::alfven: {
      c = dir * std::fabs(s.b[0]) / sqrt_rho;
      const double perp[2] = {-beta[1], beta[0]};  // normal to the transverse field
      for (int t = 0; t < 2; ++t) {
        w[2 + t] = -dir * perp[t] / rho;
        w[5 + t] = sgn_bx * perp[t] / sqrt_rho;
      }
      break;
    }
    case MhdWave::entropy:
      c = 0;
      w[0] = 1;
      break;
  }

  // dU/dW at the background state.
  const double* v = s.v;
  MhdWaveMode m;
  m.speed = v[0] + c;
  m.r[0] = w[0];
  for (int d = 0; d < 3; ++d) m.r[1 + d] = rho * w[1 + d] + v[d] * w[0];
  const double vsq = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
  m.r[4] = w[4] / (gamma - 1) + 0.5 * vsq * w[0] + rho * (v[0] * w[1] + v[1] * w[2] + v[2] * w[3]) +
           s.b[1] * w[5] + s.b[2] * w[6];
  m.r[5] = w[5];
  m.r[6] = w[6];
  return m;
}

}  // namespace ax
