#include "driver/hydro_solver.hpp"

#include "fd/fd_hydro.hpp"
#include "fv/fv_hydro.hpp"

namespace ax {

std::unique_ptr<HydroSolver> make_hydro_solver(const Config& cfg, const Grid& grid) {
  if (cfg.family == "fd") return std::make_unique<FdHydro>(cfg, grid);
  return std::make_unique<FvHydro>(cfg, grid);
}

}  // namespace ax
