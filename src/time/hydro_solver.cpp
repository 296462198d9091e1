#include "time/hydro_solver.hpp"

#include "config/config_error.hpp"

#include <stdexcept>
#include <type_traits>

namespace ax {

HydroPath choose_hydro_path(const Config& cfg, bool fused_ok, const std::string& why,
                            const std::string& fused_name) {
  if (cfg.backend == Backend::fused && !fused_ok)
    throw ConfigError(cfg.backend_where + ": 'fused' is not available for this run: " + why +
                      " (use 'auto' or 'native')");
  HydroPath p;
  p.fused = cfg.backend != Backend::native && fused_ok;
  p.name = p.fused ? fused_name : "native";
  if (cfg.backend == Backend::native) p.reason = "solver.backend is native";
  else if (!fused_ok) p.reason = why;
  else p.reason = cfg.backend == Backend::fused ? "solver.backend is fused" : "supported, chosen by auto";
  // Where the layout came from: the user's solver.fused_layout, or auto's
  // choice for this device.
  if (p.fused)
    p.reason += cfg.fused_layout == FusedLayout::automatic
                    ? std::string("; layout by solver.fused_layout auto on ") +
                          (std::is_same_v<MemSpace, Kokkos::HostSpace> ? "CPUs" : "GPUs")
                    : "; layout as solver.fused_layout gives";
  return p;
}

HydroPath choose_fd_path(const Config& cfg, bool fused_ok, const std::string& why, const std::string& fused_name) {
  Config as_fd = cfg;
  as_fd.fused_layout = fd_fused_layout(cfg);
  HydroPath p = choose_hydro_path(as_fd, fused_ok, why, fused_name);
  if (p.fused && cfg.fused_layout == FusedLayout::cells) p.reason += " (cells is a finite-volume layout)";
  return p;
}

void HydroSolver::stage_box(const Stage&, Real, const StageBuffers&, const Box&, const DeviceCount&) {
  throw std::logic_error("stage_box called on a solver that refuses it: " + box_stage_refusal());
}

}  // namespace ax
