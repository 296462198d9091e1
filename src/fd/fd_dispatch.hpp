// Turns the run-time WENO options into template parameters once per call,
// so kernels never branch on options.
#pragma once

#include <type_traits>

#include "fd/fd_options.hpp"

namespace ax {

template <class F>
void with_weno_options(const FdOptions& o, F&& f) {
  using W = WenoWeights;
  using A = EigenAverage;
  if (o.weights == W::js && o.average == A::arithmetic)
    f(std::integral_constant<W, W::js>{}, std::integral_constant<A, A::arithmetic>{});
  else if (o.weights == W::js)
    f(std::integral_constant<W, W::js>{}, std::integral_constant<A, A::roe>{});
  else if (o.average == A::arithmetic)
    f(std::integral_constant<W, W::z>{}, std::integral_constant<A, A::arithmetic>{});
  else
    f(std::integral_constant<W, W::z>{}, std::integral_constant<A, A::roe>{});
}

}  // namespace ax
