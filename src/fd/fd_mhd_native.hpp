// Native (reference) FD WENO5 MHD fluxes: one simple kernel per step of the
// scheme (weno_mhd.hpp), every intermediate in a full-size array, and the
// face fluxes of all three axes kept (constrained transport reads them).
#pragma once

#include "backend/grid.hpp"
#include "fd/fd_options.hpp"

namespace ax {

struct FdMhdNativeWorkspace {
  explicit FdMhdNativeWorkspace(const Grid& g);
  // Per cell, face frame of the current axis: primitives (8), physical
  // flux (8), wave speeds (7).
  Array4 cell;
  // Per face of the current axis (node arrays, index f = the face between
  // cells f-1 and f): the mean primitive state (8), the LLF speeds (7), the
  // characteristic differences of U and F (5 x 7 each), the corrections (7).
  Array4 face_w, alpha, dw, dg, corr;
  Array4 flux[3];  // WENO face fluxes per axis (8, cell-variable order)
  // Constrained transport (ct/fd_ct.hpp): modified fluxes, edge EMFs and
  // their averages.
  Array4 fstar[3], omega[3], omega_bar[3];
  std::int64_t bytes() const;
  static std::int64_t planned_bytes(const Grid& g);
};

// The WENO face fluxes of axis d into ws.flux[d] over fd_mhd_flux_box.
void fd_mhd_fluxes_native(const FdOptions& opt, const Grid& g, int d, const Array4& u, FdMhdNativeWorkspace& ws);

// K = A K + dt L(u) for the cells, L the divergence of ws.flux over the
// active axes (z, y, x order, as the fused path).
void fd_mhd_accumulate_native(const Grid& g, Real dt, Real A, const Array4& k, const FdMhdNativeWorkspace& ws);

}  // namespace ax
