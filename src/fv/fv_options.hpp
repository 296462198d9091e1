// The options of the finite-volume hydro solver, resolved from the config.
#pragma once

#include "backend/grid.hpp"
#include "fv/limiters.hpp"
#include "hydro/eos.hpp"
#include "hydro/face_frame.hpp"
#include "hydro/gravity.hpp"
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
  Gravity gravity;  // physics.gravity: a source in every stage
};

// Ghost depth the FV stencil needs: PLM reads two cells beyond each face.
constexpr int kFvGhost = 2;

}  // namespace ax
