// The one entry point callers use for a finite-volume MHD stage (PLM, an
// MHD Riemann solver, constrained transport in src/ct): the predicate
// decides between the fused kernels (fv_mhd_fused.cpp) and the native
// reference (fv_mhd_native.cpp), and the run header logs which and why.
#pragma once

#include <memory>
#include <string>

#include "fv/fv_mhd_fused.hpp"
#include "fv/fv_mhd_native.hpp"
#include "time/hydro_solver.hpp"

namespace ax {

// True when fused kernels handle this configuration; otherwise `why` says
// what they lack.
bool fv_mhd_fused_supported(const Config& cfg, const Grid& grid, std::string* why);

// The path this run takes, and the fused path's layout (solver.fused_layout;
// auto: sweeps on CPUs, tiles on GPUs).
struct FvMhdPlan {
  HydroPath path;
  MhdFusedLayout layout = MhdFusedLayout::cells;
};
FvMhdPlan fv_mhd_plan(const Config& cfg, const Grid& grid);
inline HydroPath fv_mhd_path(const Config& cfg, const Grid& grid) { return fv_mhd_plan(cfg, grid).path; }

class FvMhd final : public HydroSolver {
 public:
  FvMhd(const Config& cfg, const Grid& grid);
  FvMhd(const Config& cfg, const Grid& grid, const FvMhdPlan& plan);

  // Two-register stages only (a, b, c of time/stages.hpp).
  long long stage(const Stage& st, Real dt, const StageBuffers& b) override;
  long long take_device_floor_hits() override;
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
  std::unique_ptr<FvMhdFusedWorkspace> fused_;
};

}  // namespace ax
