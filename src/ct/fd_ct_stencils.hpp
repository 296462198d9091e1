// The high-order stencils of the FD constrained transport (HOW-MHD, Seo &
// Ryu 2023), shared by the native and fused kernels. Index conventions: a
// face (or edge) index f along an axis is the lower face of cell f, so a
// cell c lies between faces c and c + 1.
#pragma once

#include "backend/types.hpp"

namespace ax {

// Fourth-order interpolation from cell centres to face f, from the cells
// f-2 .. f+1.
KOKKOS_FORCEINLINE_FUNCTION Real ct_i4(Real cm2, Real cm1, Real c0, Real c1) {
  return (Real(9) * (cm1 + c0) - (cm2 + c1)) * Real(0.0625);
}

// Sixth-order interpolation from faces to the centre of cell c, from the
// faces c-2 .. c+3.
KOKKOS_FORCEINLINE_FUNCTION Real ct_i6(Real fm2, Real fm1, Real f0, Real f1, Real f2, Real f3) {
  return (Real(150) * (f0 + f1) - Real(25) * (fm1 + f2) + Real(3) * (fm2 + f3)) * (Real(1) / Real(256));
}

// Sixth-order derivative (times the spacing) at the centre of cell c from
// point values on the faces c-2 .. c+3.
KOKKOS_FORCEINLINE_FUNCTION Real ct_d6(Real fm2, Real fm1, Real f0, Real f1, Real f2, Real f3) {
  return Real(75.0 / 64.0) * (f1 - f0) - Real(25.0 / 384.0) * (f2 - fm1) + Real(3.0 / 640.0) * (f3 - fm2);
}

// One axis' part of the point-value-to-average correction (Buchmueller &
// Helzel 2014): (q(-1) - 2 q + q(+1)) / 24.
KOKKOS_FORCEINLINE_FUNCTION Real ct_average_part(Real qm, Real q0, Real qp) {
  return (qm - Real(2) * q0 + qp) * (Real(1) / Real(24));
}

}  // namespace ax
