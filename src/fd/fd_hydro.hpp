// The one entry point callers use for a finite-difference WENO5 hydro
// stage. It decides once per run between the fused kernels (fd_fused.cpp)
// and the native reference (fd_native.cpp), and says which path runs and why.
#pragma once

#include <memory>
#include <string>

#include "fd/fd_fused.hpp"
#include "fd/fd_native.hpp"
#include "hydro/floors.hpp"
#include "time/hydro_solver.hpp"

namespace ax {

// True when the fused kernels handle this configuration; otherwise `why`
// says what they lack.
bool fd_hydro_fused_supported(const Config& cfg, const Grid& grid, std::string* why);
// The path this run takes (the predicate's verdict under solver.backend).
HydroPath fd_hydro_path(const Config& cfg, const Grid& grid);

class FdHydro final : public HydroSolver {
 public:
  // Throws ConfigError if `solver.backend: fused` asks for an unsupported case.
  FdHydro(const Config& cfg, const Grid& grid);

  // What array_bytes() will report, from the config and grid alone.
  static std::int64_t planned_bytes(const Config& cfg, const Grid& grid);

  long long stage(const Stage& st, Real dt, const StageBuffers& b) override;
  std::int64_t array_bytes() const override;
  std::string scheme() const override;
  const char* family() const override { return "fd"; }
  long long take_device_floor_hits() override;

 private:
  FdOptions opt_;
  Grid grid_;
  Floors floors_;
  FdFusedPlan plan_;
  Array4 k_;      // the stage increment K = dt L (+ A K)
  Array4 faces_;  // fused: face fluxes of one slab
  Array4 thermo_;  // fused: 1/rho, p, c of the cells a slab's faces read
  DeviceCount hits_;  // fused faces layout: floor activations of whole stages, not yet taken
  std::unique_ptr<FdNativeWorkspace> native_;
};

}  // namespace ax
