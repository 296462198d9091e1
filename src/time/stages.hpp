// Time integrators as stage tables. Stage s turns the registers into
//   K   = dt L(in) + A K_previous              (A != 0: low-storage 2N schemes)
//   R   = ra R + rb in + rc K                  (if set_r, before out)
//   out = a U0 + b in + c K + e R
// with U0 the state at the start of the step and `in` the previous stage's
// output. Two-register schemes (rk1, rk2, vl2, rk3) use a, b, c only;
// SSP-RK(5,4) needs the third register R; the 2N scheme writes out = in.
// The weights of the states in `out` sum to one: b = 1 - a - e rw, with rw
// the total weight of the states R holds. The FD solver uses that
// difference form, out = in + (c K + a (U0 - in) + e (R - rw in)), so a
// uniform state stays bitwise uniform (no drift from rounded weights).
// VL2 (Athena++'s van Leer predictor-corrector) takes its half-step
// predictor with first-order reconstruction.
#pragma once

#include <vector>

#include "backend/types.hpp"
#include "time/integrator.hpp"

namespace ax {

struct Stage {
  Real a = 0, b = 0, c = 0;
  bool first_order = false;  // donor-cell reconstruction in this stage (FV)
  Real e = 0;                // weight of R in out
  Real A = 0;                // weight of the previous K (2N schemes)
  bool set_r = false;
  Real ra = 0, rb = 0, rc = 0;
  Real rw = 0;  // total weight of the states in R when `out` reads it
};

struct Scheme {
  std::vector<Stage> stages;
  bool in_place = false;  // every stage writes its input (2N storage: U and K only)
  bool uses_r = false;    // needs the register R
};

Scheme scheme_of(Integrator integrator);

// State-sized buffers a scheme needs besides the state itself: none for 2N
// schemes, one for two-stage integrators, two for more stages (whose last
// stage still needs the state at the start of the step), plus R.
inline int stage_buffer_count(const Scheme& s) {
  const int work = s.in_place ? 0 : s.stages.size() > 2 ? 2 : 1;
  return work + (s.uses_r ? 1 : 0);
}

}  // namespace ax
