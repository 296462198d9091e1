#include "driver/stages.hpp"

namespace ax {

std::vector<Stage> stages_of(Integrator integrator) {
  switch (integrator) {
    case Integrator::rk1:
      return {{0, 1, 1, false}};
    case Integrator::rk2:  // SSP RK2 (Heun)
      return {{0, 1, 1, false}, {Real(0.5), Real(0.5), Real(0.5), false}};
    case Integrator::vl2:
      return {{0, 1, Real(0.5), true}, {1, 0, 1, false}};
    case Integrator::rk3:  // SSP RK3 (Shu & Osher)
      return {{0, 1, 1, false},
              {Real(0.75), Real(0.25), Real(0.25), false},
              {Real(1) / Real(3), Real(2) / Real(3), Real(2) / Real(3), false}};
  }
  return {};
}

}  // namespace ax
