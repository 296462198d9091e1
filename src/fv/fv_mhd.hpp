// The one entry point callers use for a finite-volume MHD stage (PLM, an
// MHD Riemann solver, constrained transport in src/ct). Only the native
// path exists so far: the predicate says so, and the run header logs it.
#pragma once

#include <memory>
#include <string>

#include "time/hydro_solver.hpp"
#include "fv/fv_mhd_native.hpp"

namespace ax {

// True when fused kernels handle this configuration; otherwise `why` says
// what they lack.
bool fv_mhd_fused_supported(const Config& cfg, const Grid& grid, std::string* why);
HydroPath fv_mhd_path(const Config& cfg, const Grid& grid);

class FvMhd final : public HydroSolver {
 public:
  FvMhd(const Config& cfg, const Grid& grid);

  // Two-register stages only (a, b, c of time/stages.hpp).
  long long stage(const Stage& st, Real dt, const StageBuffers& b) override;
  std::int64_t array_bytes() const override;
  std::string scheme() const override;
  const char* family() const override { return "fv"; }

  static std::int64_t planned_bytes(const Config& cfg, const Grid& grid);

 private:
  int order_ = 2;
  FvOptions opt_;
  Grid grid_;
  Floors floors_;
  std::unique_ptr<FvMhdNativeWorkspace> native_;
};

}  // namespace ax
