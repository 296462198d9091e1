// Native (reference) FD WENO5 right-hand side: one simple kernel per step
// of the scheme (weno.hpp), every intermediate in a full-size array, so
// each array can be inspected against the formulas. Supports every option.
#pragma once

#include "backend/grid.hpp"
#include "fd/fd_options.hpp"

namespace ax {

struct FdNativeWorkspace {
  explicit FdNativeWorkspace(const Grid& g);
  // Per cell, face frame of the current axis: primitives (5), physical
  // flux (5), sound speed (1).
  Array4 cell;
  // Per face (index f = face between cells f-1 and f along the axis):
  Array4 eigen;    // EigenSystem fields (9)
  Array4 alpha;    // LLF speeds (3)
  Array4 dw, dg;   // characteristic differences of U and F, 5 x 5 each
  Array4 weights;  // omega_0, omega_2 of the + and - splits, per field (20)
  Array4 flux;     // WENO face flux (5)
  std::int64_t bytes() const;
  static std::int64_t planned_bytes(const Grid& g);
};

// K = A K + dt L(u), L the WENO5 flux divergence over the active axes,
// added axis by axis. Ghosts of u must be filled.
void fd_increment_native(const FdOptions& opt, const Grid& g, Real dt, Real A, const Array4& u,
                         const Array4& k, FdNativeWorkspace& ws);

}  // namespace ax
