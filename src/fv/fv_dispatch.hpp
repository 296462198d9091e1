// Run-time FV options (limiter, Riemann solver) turned into template
// parameters once per call, shared by the native and fused paths, so the
// kernels carry no option branches in their loops.
#pragma once

#include <type_traits>

#include "fv/fv_options.hpp"

namespace ax {

template <class F>
void with_limiter(Limiter l, F&& f) {
  switch (l) {
    case Limiter::minmod: f(std::integral_constant<Limiter, Limiter::minmod>{}); break;
    case Limiter::van_leer: f(std::integral_constant<Limiter, Limiter::van_leer>{}); break;
    case Limiter::mc: f(std::integral_constant<Limiter, Limiter::mc>{}); break;
    case Limiter::van_albada: f(std::integral_constant<Limiter, Limiter::van_albada>{}); break;
    case Limiter::superbee: f(std::integral_constant<Limiter, Limiter::superbee>{}); break;
  }
}

template <class F>
void with_riemann(RiemannSolver r, F&& f) {
  switch (r) {
    case RiemannSolver::llf: f(std::integral_constant<RiemannSolver, RiemannSolver::llf>{}); break;
    case RiemannSolver::hlle: f(std::integral_constant<RiemannSolver, RiemannSolver::hlle>{}); break;
    case RiemannSolver::hllc: f(std::integral_constant<RiemannSolver, RiemannSolver::hllc>{}); break;
  }
}

template <class F>
void with_mhd_riemann(MhdRiemannSolver r, F&& f) {
  using M = MhdRiemannSolver;
  switch (r) {
    case M::llf: f(std::integral_constant<M, M::llf>{}); break;
    case M::hlle: f(std::integral_constant<M, M::hlle>{}); break;
    case M::hlld: f(std::integral_constant<M, M::hlld>{}); break;
  }
}

}  // namespace ax
