// Time integrators as stage tables: after stage s the state becomes
//   U = a_s U0 + b_s U + c_s dt L(U)
// with U0 the state at the start of the step. VL2 (Athena++'s van Leer
// predictor-corrector) takes its half-step predictor with first-order
// reconstruction.
#pragma once

#include <vector>

#include "config/config.hpp"

namespace ax {

struct Stage {
  Real a, b, c;
  bool first_order;  // donor-cell reconstruction in this stage
};

std::vector<Stage> stages_of(Integrator integrator);

}  // namespace ax
