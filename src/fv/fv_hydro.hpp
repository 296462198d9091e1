// The one entry point callers use for the finite-volume hydro right-hand
// side. It decides once, per run, between the fused kernels and the native
// reference (fv_hydro_fused_supported), and says which path runs and why.
#pragma once

#include <memory>
#include <string>

#include "backend/grid.hpp"
#include "config/config.hpp"
#include "fv/fv_native.hpp"

namespace ax {

// True when the fused kernels handle this configuration; otherwise `why`
// says what they lack. The fused kernels arrive with issue 3; until then
// every configuration runs native.
bool fv_hydro_fused_supported(const Config& cfg, const Grid& grid, std::string* why);

class FvHydro {
 public:
  // Throws ConfigError if `solver.backend: fused` asks for an unsupported case.
  FvHydro(const Config& cfg, const Grid& grid);

  // du = -div F(u) with reconstruction of the given order (1 or 2).
  void rhs(int order, const Array4& u, const Array4& du);

  const std::string& path() const { return path_; }
  const std::string& reason() const { return reason_; }

 private:
  FvOptions opt_;
  Grid grid_;
  std::string path_, reason_;
  std::unique_ptr<FvNativeWorkspace> native_;
};

}  // namespace ax
