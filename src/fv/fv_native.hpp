// Native (reference) finite-volume hydro right-hand side: a plain sequence of
// simple kernels with full-size intermediate arrays, each readable against
// the textbook. The fused twin (one kernel per axis) must agree with it to
// rounding.
#pragma once

#include "backend/grid.hpp"
#include "fv/fv_options.hpp"

namespace ax {

struct FvNativeWorkspace {
  Array4 w;       // primitives
  Array4 slope;   // limited slopes along the current axis
  Array4 wl, wr;  // face states; index f holds face f - 1/2
  Array4 flux;    // face fluxes, same indexing
  explicit FvNativeWorkspace(const Grid& g);
  std::int64_t bytes() const;
  static std::int64_t planned_bytes(const Grid& g) { return 5 * g.array_bytes(NHYDRO); }
};

// du = -div F(u) over the interior. `order` 1 is donor cell (piecewise
// constant), 2 is PLM. Ghost cells of u must be filled.
void fv_rhs_native(const FvOptions& opt, const Grid& g, int order, const Array4& u,
                   const Array4& du, FvNativeWorkspace& ws);

}  // namespace ax
