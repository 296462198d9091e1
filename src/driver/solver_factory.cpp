#include "driver/solver_factory.hpp"

#include "fd/fd_hydro.hpp"
#include "fd/fd_mhd.hpp"
#include "fv/fv_hydro.hpp"
#include "fv/fv_mhd.hpp"

namespace ax {

std::unique_ptr<HydroSolver> make_hydro_solver(const Config& cfg, const Grid& grid) {
  if (cfg.mhd && cfg.family == "fd") return std::make_unique<FdMhd>(cfg, grid);
  if (cfg.mhd) return std::make_unique<FvMhd>(cfg, grid);
  if (cfg.family == "fd") return std::make_unique<FdHydro>(cfg, grid);
  return std::make_unique<FvHydro>(cfg, grid);
}

std::int64_t hydro_solver_planned_bytes(const Config& cfg, const Grid& grid) {
  if (cfg.mhd && cfg.family == "fd") return FdMhd::planned_bytes(cfg, grid);
  if (cfg.mhd) return FvMhd::planned_bytes(cfg, grid);
  if (cfg.family == "fd") return FdHydro::planned_bytes(cfg, grid);
  return FvHydro::planned_bytes(cfg, grid);
}

HydroPath planned_hydro_path(const Config& cfg, const Grid& grid) {
  if (cfg.mhd && cfg.family == "fd") return fd_mhd_path(cfg, grid);
  if (cfg.mhd) return fv_mhd_path(cfg, grid);
  if (cfg.family == "fd") return fd_hydro_path(cfg, grid);
  return fv_hydro_plan(cfg, grid).path;
}

}  // namespace ax
