// The one entry point callers use for a finite-volume hydro stage. It
// decides once per run between the fused kernel (fv_fused.cpp) and the
// native reference (fv_native.cpp), and says which path runs and why.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "backend/grid.hpp"
#include "config/config.hpp"
#include "fv/fv_native.hpp"
#include "hydro/floors.hpp"
#include "time/hydro_solver.hpp"

namespace ax {

// True when the fused kernel handles this configuration; otherwise `why`
// says what it lacks.
bool fv_hydro_fused_supported(const Config& cfg, const Grid& grid, std::string* why);

// The path this run takes, and the layout of a fused path (cells unless
// sweeps or tiles).
struct FvPlan {
  HydroPath path;
  bool sweeps = false;
  bool tiles = false;
};
FvPlan fv_hydro_plan(const Config& cfg, const Grid& grid);

class FvHydro final : public HydroSolver {
 public:
  // Throws ConfigError if `solver.backend: fused` asks for an unsupported case.
  FvHydro(const Config& cfg, const Grid& grid);
  FvHydro(const Config& cfg, const Grid& grid, const FvPlan& plan);

  // What array_bytes() will report, from the plan alone.
  static std::int64_t planned_bytes(const Config& cfg, const Grid& grid);

  // Two-register stages only (a, b, c of time/stages.hpp): the config
  // admits no other integrator for this family.
  long long stage(const Stage& st, Real dt, const StageBuffers& b) override;
  long long take_device_floor_hits() override;
  std::int64_t array_bytes() const override;
  std::string scheme() const override;
  const char* family() const override { return "fv"; }
  // The fused cells layout computes each cell on its own.
  std::string box_stage_refusal() const override;
  void stage_box(const Stage& st, Real dt, const StageBuffers& b, const Box& box, const DeviceCount& hits) override;

 private:
  // out = a u0 + b in + c_dt L(in), then floors; returns the floor
  // activations. `order` 1 is donor cell, 2 PLM. Ghosts of `in` must be
  // filled; `out` may be `u0` but not `in`.
  long long combine(int order, Real a, Real b, Real c_dt, const Array4& u0, const Array4& in, const Array4& out);
  // The fused cells or tiles kernel on `box`, its floor count added to `hits`.
  void fused_box(int order, Real a, Real b, Real c_dt, const Array4& u0, const Array4& in, const Array4& out,
                 const Box& box, const DeviceCount& hits);

  int order_ = 2;
  FvOptions opt_;
  Grid grid_;
  Floors floors_;
  bool sweeps_ = false;  // fused layout: sweeps
  bool tiles_ = false;   // fused layout: tiles (else cells)
  std::unique_ptr<FvNativeWorkspace> native_;
  Array4 du_;  // native, and the in-place accumulator of fused sweeps
  DeviceCount hits_;  // fused cells and tiles: floor activations of whole stages, not yet taken
};

}  // namespace ax
