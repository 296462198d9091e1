// The options of the finite-difference WENO5 hydro solver, resolved from
// the config (solver.family: fd).
#pragma once

#include "hydro/eos.hpp"
#include "hydro/gravity.hpp"

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
  Gravity gravity;  // physics.gravity: a source in every stage
  // FD MHD: strength of the face-field filter (ct/fd_ct_point.hpp).
  Real field_filter = Real(0.02);
};

// field_filter times time.cfl at most (config.cpp says why).
constexpr double kMaxFieldFilterTimesCfl = 0.035;

// WENO5 reads three cells beyond each face of the block.
constexpr int kFdGhost = 3;
// FD MHD (ct/fd_ct.hpp) reads six: the curl's D6 and edge averages reach
// three edges out, the edge EMFs' I4 two faces more, their WENO fluxes
// three cells more along the flux axis; the cell-centred field of those
// cells is rebuilt from faces two more out. One exchange per stage then
// suffices. The field filter reads faces six out (the averages' edges two,
// its sixth difference three more, the edge current one face more).
constexpr int kFdMhdGhost = 8;

}  // namespace ax
