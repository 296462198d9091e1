// The one entry point callers use for a finite-difference WENO5 MHD stage
// (characteristic projection on the seven MHD waves, constrained transport
// of HOW-MHD in src/ct/fd_ct.hpp). The predicate decides between the fused
// kernels (fd_mhd_fused.cpp) and the native reference (fd_mhd_native.cpp);
// the run header logs which and why.
#pragma once

#include <memory>
#include <string>

#include "fd/fd_mhd_fused.hpp"
#include "fd/fd_mhd_native.hpp"
#include "hydro/floors.hpp"
#include "time/hydro_solver.hpp"

namespace ax {

bool fd_mhd_fused_supported(const Config& cfg, const Grid& grid, std::string* why);
// The path, and the fused layout (solver.fused_layout: sweeps = pencils,
// tiles = segments; auto takes pencils on CPUs and segments on GPUs).
struct FdMhdPlan {
  HydroPath path;
  bool segments = false;
  bool store_k = true;  // keep K after the stage (2N schemes read it next stage)
};
FdMhdPlan fd_mhd_plan(const Config& cfg, const Grid& grid);
inline HydroPath fd_mhd_path(const Config& cfg, const Grid& grid) { return fd_mhd_plan(cfg, grid).path; }

class FdMhd final : public HydroSolver {
 public:
  FdMhd(const Config& cfg, const Grid& grid);
  FdMhd(const Config& cfg, const Grid& grid, const FdMhdPlan& plan);

  static std::int64_t planned_bytes(const Config& cfg, const Grid& grid);

  long long stage(const Stage& st, Real dt, const StageBuffers& b) override;
  void set_signal_rate(Real rate) override { signal_rate_ = rate; }
  std::int64_t array_bytes() const override;
  std::string scheme() const override;
  const char* family() const override { return "fd"; }
  // The cell-centred field is the sixth-order interpolation of the faces.
  bool rebuilds_cell_field() const override { return true; }
  void rebuild_cell_field(const State& s) override;

 private:
  FdOptions opt_;
  Real signal_rate_ = 0;
  Grid grid_;
  Floors floors_;
  Array4 k_;      // the stage increment of the cells, K = dt L (+ A K)
  FaceField kb_;  // and of the faces
  std::unique_ptr<FdMhdNativeWorkspace> native_;
  std::unique_ptr<FdMhdFusedWorkspace> fused_;
};

}  // namespace ax
