// The options of the finite-difference WENO5 hydro solver, resolved from
// the config (solver.family: fd).
#pragma once

#include "hydro/eos.hpp"

namespace ax {

// Nonlinear weights: Jiang & Shu (1996), or WENO-Z (Borges et al. 2008).
enum class WenoWeights { js, z };
// State at which the characteristic eigenvectors of a face are evaluated.
enum class EigenAverage { arithmetic, roe };

struct FdOptions {
  IdealGas eos;  // the config's, copied in when the solver is built
  WenoWeights weights = WenoWeights::js;
  Real epsilon = Real(1e-7);  // added to the smoothness indicators
  EigenAverage average = EigenAverage::arithmetic;
};

// WENO5 reads three cells beyond each face of the block.
constexpr int kFdGhost = 3;

}  // namespace ax
