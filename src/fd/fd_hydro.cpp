#include "fd/fd_hydro.hpp"

#include <cstdio>

#include "fd/fd_stage.hpp"

namespace ax {

bool fd_hydro_fused_supported(const Config& cfg, const Grid& grid, std::string* why) {
  auto no = [&](const std::string& reason) {
    if (why) *why = reason;
    return false;
  };
  if (cfg.family != "fd") return no("solver.family is not fd");
  // The flux kernel reads three cells beyond each face of the block.
  for (int d = 0; d < 3; ++d)
    if (grid.active(d) && grid.gh[d] < kFdGhost) return no("ghost zones shallower than the WENO5 stencil");
  if (why) why->clear();
  return true;
}

namespace {

FdFusedPlan fd_fused_plan(const Config& cfg, const Grid& grid) {
  FdFusedPlan plan;
  plan.slabs = fd_fused_slab_count(grid);
  plan.store_k = scheme_of(cfg.integrator).in_place;
  // Opt-in: `auto` keeps the faces layout, 3.34e8 cell-updates/s on the
  // H200 against 3.02e8 for segments (256^3 blast, lsrk4, FdStep; one lease).
  plan.segments = fd_fused_layout(cfg) == FusedLayout::tiles;
  return plan;
}

}  // namespace

HydroPath fd_hydro_path(const Config& cfg, const Grid& grid) {
  std::string why;
  const bool ok = fd_hydro_fused_supported(cfg, grid, &why);
  return choose_fd_path(cfg, ok, why, fd_fused_plan(cfg, grid).segments ? "fused (segments)" : "fused (faces)");
}

std::int64_t FdHydro::planned_bytes(const Config& cfg, const Grid& grid) {
  const std::int64_t k = grid.array_bytes(NHYDRO);
  if (!fd_hydro_path(cfg, grid).fused) return k + FdNativeWorkspace::planned_bytes(grid);
  const FdFusedPlan plan = fd_fused_plan(cfg, grid);
  return k + fd_fused_face_bytes(grid, plan) + fd_fused_thermo_bytes(grid, plan);
}

FdHydro::FdHydro(const Config& cfg, const Grid& grid)
    : HydroSolver(fd_hydro_path(cfg, grid)), opt_(cfg.fd), grid_(grid) {
  opt_.eos = cfg.eos;
  floors_.density = Real(cfg.density_floor);
  floors_.pressure = Real(cfg.pressure_floor);
  opt_.gravity = gravity_of(cfg.gravity);
  plan_ = fd_fused_plan(cfg, grid);
  k_ = grid.make_array("fd_k", NHYDRO);
  Kokkos::deep_copy(k_, Real(0));
  if (!fused()) native_ = std::make_unique<FdNativeWorkspace>(grid);
  else if (!plan_.segments) {
    faces_ = fd_fused_face_array(grid, plan_);
    thermo_ = fd_fused_thermo_array(grid, plan_);
    hits_ = DeviceCount("fd_fused_floor_hits");
  }
}

std::string FdHydro::scheme() const {
  char eps[32];
  std::snprintf(eps, sizeof(eps), "%g", double(opt_.epsilon));
  std::string s = std::string("weno5 (") + (opt_.weights == WenoWeights::z ? "z" : "js") + " weights, epsilon " +
                  eps + ") + characteristic projection (" +
                  (opt_.average == EigenAverage::roe ? "roe" : "arithmetic") + " average) + lax-friedrichs splitting";
  if (fused() && !plan_.segments) s += ", " + std::to_string(plan_.slabs) + " z-slab(s)";
  return s;
}

std::int64_t FdHydro::array_bytes() const {
  std::int64_t bytes = (std::int64_t(k_.span()) + std::int64_t(faces_.span()) + std::int64_t(thermo_.span())) *
                       std::int64_t(sizeof(Real));
  if (native_) bytes += native_->bytes();
  return bytes;
}

long long FdHydro::take_device_floor_hits() { return hits_.data() ? take_count(hits_) : 0; }

long long FdHydro::stage(const Stage& st, Real dt, const StageBuffers& b) {
  if (fused() && plan_.segments)
    return fd_stage_fused_segments(opt_, grid_, plan_, st, dt, floors_, b.u0.u, b.in.u, b.out.u, b.r.u, k_);
  if (fused()) {
    fd_stage_fused(opt_, grid_, plan_, st, dt, floors_, b.u0.u, b.in.u, b.out.u, b.r.u, k_, faces_, thermo_, hits_);
    return 0;  // counted in hits_
  }
  fd_increment_native(opt_, grid_, dt, st.A, b.in.u, k_, *native_);
  if (opt_.gravity.on()) add_gravity(grid_, opt_.gravity, dt, b.in.u, k_);
  // The end of the stage as its own kernel (the fused path folds it into
  // the last divergence).
  return finish_stage<NHYDRO>(grid_, st, opt_.eos, floors_, b.u0.u, b.in.u, b.r.u, b.out.u, k_);
}

}  // namespace ax
