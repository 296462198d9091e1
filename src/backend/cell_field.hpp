// The cell-centred magnetic field from the face field, shared by the CT
// solvers (ct/) and the ghost exchange (backend/halo.cpp), which sets the
// ghost cells of physical boundaries from their faces.
#pragma once

#include "backend/kokkos_compat.hpp"
#include "backend/types.hpp"

namespace ax {

// The cell-centred field component from its two faces.
KOKKOS_INLINE_FUNCTION Real face_average(Real lower, Real upper) { return Real(0.5) * (lower + upper); }

// Sets the cell-centred field of cell (k, j, i) to bc, changing the total
// energy by the change of magnetic energy (the gas pressure is kept).
KOKKOS_INLINE_FUNCTION void keep_pressure_set_field(const Array4& u, int k, int j, int i, const Real bc[3]) {
  Real b2_old = 0, b2_new = 0;
  for (int d = 0; d < 3; ++d) {
    const Real bo = u(IB1 + d, k, j, i);
    b2_old += bo * bo;
    b2_new += bc[d] * bc[d];
  }
  u(IEN, k, j, i) += Real(0.5) * (b2_new - b2_old);
  for (int d = 0; d < 3; ++d) u(IB1 + d, k, j, i) = bc[d];
}

}  // namespace ax
