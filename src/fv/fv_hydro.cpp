#include "fv/fv_hydro.hpp"

#include "config/config_error.hpp"

namespace ax {

bool fv_hydro_fused_supported(const Config&, const Grid&, std::string* why) {
  if (why) *why = "no fused FV kernel is built yet";
  return false;
}

FvHydro::FvHydro(const Config& cfg, const Grid& grid) : opt_(cfg.fv), grid_(grid) {
  std::string why;
  const bool fused_ok = fv_hydro_fused_supported(cfg, grid, &why);
  if (cfg.backend == Backend::fused && !fused_ok)
    throw ConfigError(cfg.file + ": solver.backend: 'fused' is not available for this run: " + why +
                      " (use 'auto' or 'native')");
  path_ = "native";
  reason_ = cfg.backend == Backend::native ? "solver.backend is native" : why;
  native_ = std::make_unique<FvNativeWorkspace>(grid);
}

void FvHydro::rhs(int order, const Array4& u, const Array4& du) {
  fv_rhs_native(opt_, grid_, order, u, du, *native_);
}

}  // namespace ax
