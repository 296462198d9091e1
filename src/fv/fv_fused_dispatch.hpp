// Turns the run-time options of a fused FV stage (order, limiter, Riemann
// solver) into template parameters, once per call, so the kernels carry no
// option branches in their loops.
#pragma once

#include <type_traits>

#include "fv/fv_options.hpp"

namespace ax {

// Calls Stage<ORDER, LIMITER, SOLVER>::run(args...).
template <template <int, Limiter, RiemannSolver> class Stage, class... Args>
long long dispatch_fused(const FvOptions& opt, int order, Args&&... args) {
  auto with_solver = [&](auto ord, auto lim) -> long long {
    constexpr int O = decltype(ord)::value;
    constexpr Limiter L = decltype(lim)::value;
    switch (opt.riemann) {
      case RiemannSolver::llf: return Stage<O, L, RiemannSolver::llf>::run(opt, args...);
      case RiemannSolver::hlle: return Stage<O, L, RiemannSolver::hlle>::run(opt, args...);
      case RiemannSolver::hllc: return Stage<O, L, RiemannSolver::hllc>::run(opt, args...);
    }
    return 0;
  };
  using O1 = std::integral_constant<int, 1>;
  using O2 = std::integral_constant<int, 2>;
  if (order == 1) return with_solver(O1{}, std::integral_constant<Limiter, Limiter::minmod>{});
  switch (opt.limiter) {
    case Limiter::minmod: return with_solver(O2{}, std::integral_constant<Limiter, Limiter::minmod>{});
    case Limiter::van_leer: return with_solver(O2{}, std::integral_constant<Limiter, Limiter::van_leer>{});
    case Limiter::mc: return with_solver(O2{}, std::integral_constant<Limiter, Limiter::mc>{});
    case Limiter::van_albada: return with_solver(O2{}, std::integral_constant<Limiter, Limiter::van_albada>{});
    case Limiter::superbee: return with_solver(O2{}, std::integral_constant<Limiter, Limiter::superbee>{});
  }
  return 0;
}

}  // namespace ax
