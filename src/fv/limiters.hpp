// Slope limiters for piecewise-linear reconstruction. Each takes the
// backward and forward differences of a cell and returns its limited slope.
#pragma once

#include "backend/kokkos_compat.hpp"
#include "backend/types.hpp"

namespace ax {

enum class Limiter { minmod, van_leer, mc, van_albada, superbee };

template <Limiter L>
KOKKOS_INLINE_FUNCTION Real limited_slope(Real dl, Real dr) {
  const Real prod = dl * dr;
  if (prod <= Real(0)) return Real(0);
  if constexpr (L == Limiter::minmod) {
    return math::sign(dl) * math::fmin(math::fabs(dl), math::fabs(dr));
  } else if constexpr (L == Limiter::van_leer) {
    // Harmonic mean, as Athena++'s default PLM on a uniform grid.
    return Real(2) * prod / (dl + dr);
  } else if constexpr (L == Limiter::mc) {
    return math::sign(dl) * math::fmin(Real(0.5) * math::fabs(dl + dr),
                                       Real(2) * math::fmin(math::fabs(dl), math::fabs(dr)));
  } else if constexpr (L == Limiter::van_albada) {
    return prod * (dl + dr) / (dl * dl + dr * dr);
  } else {
    const Real a = math::fabs(dl), b = math::fabs(dr);
    return math::sign(dl) * math::fmax(math::fmin(Real(2) * a, b), math::fmin(a, Real(2) * b));
  }
}

}  // namespace ax
