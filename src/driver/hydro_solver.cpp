#include "driver/hydro_solver.hpp"

#include "config/config_error.hpp"
#include "fd/fd_hydro.hpp"
#include "fv/fv_hydro.hpp"

namespace ax {

std::unique_ptr<HydroSolver> make_hydro_solver(const Config& cfg, const Grid& grid) {
  if (cfg.family == "fd") return std::make_unique<FdHydro>(cfg, grid);
  return std::make_unique<FvHydro>(cfg, grid);
}

void HydroSolver::choose_path(const Config& cfg, bool fused_ok, const std::string& why,
                              const std::string& fused_path) {
  if (cfg.backend == Backend::fused && !fused_ok)
    throw ConfigError(cfg.file + ": solver.backend: 'fused' is not available for this run: " + why +
                      " (use 'auto' or 'native')");
  fused_ = cfg.backend != Backend::native && fused_ok;
  path_ = fused_ ? fused_path : "native";
  if (cfg.backend == Backend::native) reason_ = "solver.backend is native";
  else if (!fused_ok) reason_ = why;
  else reason_ = cfg.backend == Backend::fused ? "solver.backend is fused" : "supported, chosen by auto";
}

}  // namespace ax
