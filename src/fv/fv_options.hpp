// The options of the finite-volume hydro solver, resolved from the config.
#pragma once

#include "backend/grid.hpp"
#include "fv/limiters.hpp"
#include "hydro/eos.hpp"
#include "hydro/riemann.hpp"
#include "mhd/mhd_riemann.hpp"

namespace ax {

// How constrained transport makes edge EMFs from face EMFs (src/ct):
// Gardiner & Stone 2005 upwinded by the mass flux, or the UCT-HLLD
// average of Mignone & Del Zanna 2021.
enum class CornerEmf { gs05, uct_hlld };

struct FvOptions {
  IdealGas eos;  // the config's, copied in when the solver is built
  Limiter limiter = Limiter::van_leer;
  RiemannSolver riemann = RiemannSolver::hllc;
  MhdRiemannSolver mhd_riemann = MhdRiemannSolver::hlld;
  CornerEmf corner_emf = CornerEmf::gs05;
};

// Ghost depth the FV stencil needs: PLM reads two cells beyond each face.
constexpr int kFvGhost = 2;

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
