#include "driver/hydro_solver.hpp"

#include "config/config_error.hpp"
#include "fd/fd_hydro.hpp"
#include "fv/fv_hydro.hpp"
#include "fv/fv_mhd.hpp"

namespace ax {

std::unique_ptr<HydroSolver> make_hydro_solver(const Config& cfg, const Grid& grid) {
  if (cfg.mhd) return std::make_unique<FvMhd>(cfg, grid);
  if (cfg.family == "fd") return std::make_unique<FdHydro>(cfg, grid);
  return std::make_unique<FvHydro>(cfg, grid);
}

std::int64_t hydro_solver_planned_bytes(const Config& cfg, const Grid& grid) {
  if (cfg.mhd) return FvMhd::planned_bytes(cfg, grid);
  if (cfg.family == "fd") return FdHydro::planned_bytes(cfg, grid);
  return FvHydro::planned_bytes(cfg, grid);
}

HydroPath planned_hydro_path(const Config& cfg, const Grid& grid) {
  if (cfg.mhd) return fv_mhd_path(cfg, grid);
  if (cfg.family == "fd") return fd_hydro_path(cfg, grid);
  return fv_hydro_plan(cfg, grid).path;
}

HydroPath choose_hydro_path(const Config& cfg, bool fused_ok, const std::string& why,
                            const std::string& fused_name) {
  if (cfg.backend == Backend::fused && !fused_ok)
    throw ConfigError(cfg.file + ": solver.backend: 'fused' is not available for this run: " + why +
                      " (use 'auto' or 'native')");
  HydroPath p;
  p.fused = cfg.backend != Backend::native && fused_ok;
  p.name = p.fused ? fused_name : "native";
  if (cfg.backend == Backend::native) p.reason = "solver.backend is native";
  else if (!fused_ok) p.reason = why;
  else p.reason = cfg.backend == Backend::fused ? "solver.backend is fused" : "supported, chosen by auto";
  return p;
}

}  // namespace ax
