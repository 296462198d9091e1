#include "driver/hydro_solver.hpp"

#include "config/config_error.hpp"
#include "fd/fd_hydro.hpp"
#include "fv/fv_hydro.hpp"

namespace ax {

std::unique_ptr<HydroSolver> make_hydro_solver(const Config& cfg, const Grid& grid) {
  if (cfg.family == "fd") return std::make_unique<FdHydro>(cfg, grid);
  return std::make_unique<FvHydro>(cfg, grid);
}

PathChoice choose_path(const Config& cfg, bool fused_ok, const std::string& why) {
  if (cfg.backend == Backend::fused && !fused_ok)
    throw ConfigError(cfg.file + ": solver.backend: 'fused' is not available for this run: " + why +
                      " (use 'auto' or 'native')");
  if (cfg.backend == Backend::native) return {false, "solver.backend is native"};
  if (!fused_ok) return {false, why};
  return {true, cfg.backend == Backend::fused ? "solver.backend is fused" : "supported, chosen by auto"};
}

}  // namespace ax
