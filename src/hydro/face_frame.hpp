// The frame of a face: the slots of a cell's variables with the velocity
// (and momentum) components rotated so that the face normal comes first.
#pragma once

#include "backend/kokkos_compat.hpp"
#include "backend/types.hpp"

namespace ax {

// Rotation of velocity slots into the frame of a face normal to axis d:
// (normal, transverse 1, transverse 2) = cyclic permutation of (x, y, z).
KOKKOS_INLINE_FUNCTION int face_slot(int d, int s) {
  return s == 0 || s == IPR ? s : 1 + (d + s - 1) % 3;
}
// Its inverse: the face-frame slot of variable v. A loop over v with this
// index keeps a per-variable array in registers where d is a run-time value.
KOKKOS_INLINE_FUNCTION int frame_slot(int d, int v) {
  return v == 0 || v == IPR ? v : 1 + (v - 1 - d + 3) % 3;
}

}  // namespace ax
