// The uniform Cartesian grid as one rank sees it: global size and extent,
// this rank's interior block, and the ghost zones around it.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "backend/loops.hpp"
#include "backend/types.hpp"

namespace ax {

struct Grid {
  int nx_global[3] = {1, 1, 1};  // cells per axis over the whole domain
  int nx[3] = {1, 1, 1};         // interior cells of this rank
  int offset[3] = {0, 0, 0};     // global index of this rank's first interior cell
  int ng = 0;                    // ghost depth on active axes
  int gh[3] = {0, 0, 0};         // ghost depth per axis (0 on inactive axes)
  Real xmin[3] = {0, 0, 0};      // domain extent
  Real xmax[3] = {1, 1, 1};
  Real dx[3] = {1, 1, 1};

  KOKKOS_INLINE_FUNCTION bool active(int d) const { return nx_global[d] > 1; }
  KOKKOS_INLINE_FUNCTION int extent(int d) const { return nx[d] + 2 * gh[d]; }
  // Index of the first and one-past-last interior cell along axis d.
  KOKKOS_INLINE_FUNCTION int is(int d) const { return gh[d]; }
  KOKKOS_INLINE_FUNCTION int ie(int d) const { return gh[d] + nx[d]; }

  // Cell-centre coordinate from the global index, so that every rank computes
  // bitwise the same value for the same cell.
  KOKKOS_INLINE_FUNCTION Real x_center(int d, int local) const {
    const int global = offset[d] + local - gh[d];
    return xmin[d] + (Real(global) + Real(0.5)) * dx[d];
  }
  KOKKOS_INLINE_FUNCTION Real x_face(int d, int global_face) const {
    return xmin[d] + Real(global_face) * dx[d];
  }

  int dim() const { return int(active(0)) + int(active(1)) + int(active(2)); }
  std::int64_t cells_local() const { return std::int64_t(nx[0]) * nx[1] * nx[2]; }
  std::int64_t cells_global() const {
    return std::int64_t(nx_global[0]) * nx_global[1] * nx_global[2];
  }
  Real cell_volume() const {
    Real v = 1;
    for (int d = 0; d < 3; ++d) v *= dx[d];
    return v;
  }

  Box interior() const { return {is(2), ie(2), is(1), ie(1), is(0), ie(0)}; }
  // Interior with axis d widened to [is(d) + lo, ie(d) + hi) (faces: 0, 1).
  Box interior_along(int d, int lo, int hi) const {
    Box b = interior();
    if (d == 0) { b.ib += lo; b.ie += hi; }
    if (d == 1) { b.jb += lo; b.je += hi; }
    if (d == 2) { b.kb += lo; b.ke += hi; }
    return b;
  }
  Box all_cells() const { return {0, extent(2), 0, extent(1), 0, extent(0)}; }
  // Interior widened by `w` cells on every active axis (clipped to the array).
  Box interior_plus(int w) const {
    auto lo = [&](int d) { return gh[d] > 0 ? is(d) - (w < gh[d] ? w : gh[d]) : 0; };
    auto hi = [&](int d) { return gh[d] > 0 ? ie(d) + (w < gh[d] ? w : gh[d]) : 1; };
    return {lo(2), hi(2), lo(1), hi(1), lo(0), hi(0)};
  }

  // Bytes make_array(_, nvar) allocates (for memory plans, before allocating).
  std::int64_t array_bytes(int nvar) const {
    return std::int64_t(nvar) * extent(0) * extent(1) * extent(2) * std::int64_t(sizeof(Real));
  }

  Array4 make_array(const char* name, int nvar) const {
    return Array4(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(name)), nvar,
                  extent(2), extent(1), extent(0));
  }
};

// Builds the local grid of the rank at Cartesian `coords` of a `dims` process
// grid. Every axis must divide evenly (checked when the config is read).
Grid make_grid(const int nx_global[3], const Real xmin[3], const Real xmax[3],
               int ng, const int dims[3], const int coords[3]);

}  // namespace ax
