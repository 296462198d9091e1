// The time integrators a run can ask for (stage tables in time/stages.hpp).
#pragma once

namespace ax {

enum class Integrator { rk1, rk2, vl2, rk3, ssprk5_4, lsrk4 };

}  // namespace ax
