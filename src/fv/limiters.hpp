// Slope limiters for piecewise-linear reconstruction. Each takes the
// backward and forward differences of a cell and returns its limited slope.
#pragma once

#include "backend/kokkos_compat.hpp"
#include "backend/types.hpp"

namespace ax {

enum class Limiter { minmod, van_leer, mc, van_albada, superbee };

// Written without early returns: the limited value is computed and then
// selected, so loops over faces vectorise. (Where dl dr <= 0 the discarded
// value may be 0/0; it is never used.)
template <Limiter L>
KOKKOS_INLINE_FUNCTION Real limited_slope(Real dl, Real dr) {
  const Real prod = dl * dr;
  Real slope;
  if constexpr (L == Limiter::minmod) {
    slope = math::sign(dl) * math::fmin(math::fabs(dl), math::fabs(dr));
  } else if constexpr (L == Limiter::van_leer) {
    // Harmonic mean, as Athena++'s default PLM on a uniform grid.
    slope = Real(2) * prod / (dl + dr);
  } else if constexpr (L == Limiter::mc) {
    slope = math::sign(dl) * math::fmin(Real(0.5) * math::fabs(dl + dr),
                                        Real(2) * math::fmin(math::fabs(dl), math::fabs(dr)));
  } else if constexpr (L == Limiter::van_albada) {
    slope = prod * (dl + dr) / (dl * dl + dr * dr);
  } else {
    const Real a = math::fabs(dl), b = math::fabs(dr);
    slope = math::sign(dl) * math::fmax(math::fmin(Real(2) * a, b), math::fmin(a, Real(2) * b));
  }
  return prod > Real(0) ? slope : Real(0);
}

}  // namespace ax
