#include "fd/fd_mhd.hpp"

#include <cstdio>

#include "ct/fd_ct.hpp"
#include "ct/fd_ct_point.hpp"
#include "fd/fd_stage.hpp"

namespace ax {

// The fused kernels take every option the native path does (both weight
// families, every integrator, any block shape the ghost depth allows); they
// keep no shared-memory buffer, so no block width is too large.
bool fd_mhd_fused_supported(const Config& cfg, const Grid& grid, std::string* why) {
  auto no = [&](const std::string& reason) {
    if (why) *why = reason;
    return false;
  };
  if (!cfg.mhd) return no("physics.mhd is false");
  if (cfg.family != "fd") return no("solver.family is not fd");
  for (int d = 0; d < 3; ++d)
    if (grid.active(d) && grid.gh[d] < kFdMhdGhost) return no("ghost zones shallower than the FD MHD stencils");
  if (why) why->clear();
  return true;
}

FdMhdPlan fd_mhd_plan(const Config& cfg, const Grid& grid) {
#ifdef ASTRONOMIX_FLAT_LOOPS
  const bool gpu = true;
#else
  const bool gpu = false;
#endif
  FdMhdPlan plan;
  plan.store_k = scheme_of(cfg.integrator).in_place;
  const FusedLayout layout = fd_fused_layout(cfg);
  plan.segments = layout == FusedLayout::tiles || (layout == FusedLayout::automatic && gpu);
  std::string why;
  const bool ok = fd_mhd_fused_supported(cfg, grid, &why);
  plan.path = choose_fd_path(cfg, ok, why, plan.segments ? "fused (segments)" : "fused (pencils)");
  return plan;
}

std::int64_t FdMhd::planned_bytes(const Config& cfg, const Grid& grid) {
  const std::int64_t k = grid.array_bytes(NMHD) + face_field_bytes(grid);
  if (fd_mhd_path(cfg, grid).fused) return k + FdMhdFusedWorkspace::planned_bytes(grid);
  return k + FdMhdNativeWorkspace::planned_bytes(grid);
}

FdMhd::FdMhd(const Config& cfg, const Grid& grid) : FdMhd(cfg, grid, fd_mhd_plan(cfg, grid)) {}

FdMhd::FdMhd(const Config& cfg, const Grid& grid, const FdMhdPlan& plan)
    : HydroSolver(plan.path), opt_(cfg.fd), grid_(grid) {
  opt_.eos = cfg.eos;
  floors_.density = Real(cfg.density_floor);
  floors_.pressure = Real(cfg.pressure_floor);
  opt_.gravity = gravity_of(cfg.gravity);
  k_ = grid.make_array("fd_mhd_k", NMHD);
  kb_ = make_face_field(grid, "fd_mhd_kb");
  Kokkos::deep_copy(k_, Real(0));
  for (int d = 0; d < 3; ++d) Kokkos::deep_copy(kb_[d], Real(0));
  if (fused()) fused_ = std::make_unique<FdMhdFusedWorkspace>(grid, plan.segments, plan.store_k);
  else native_ = std::make_unique<FdMhdNativeWorkspace>(grid);
}

std::string FdMhd::scheme() const {
  char eps[32];
  std::snprintf(eps, sizeof(eps), "%g", double(opt_.epsilon));
  char strength[32];
  std::snprintf(strength, sizeof(strength), "%g", double(opt_.field_filter));
  const std::string filter =
      fd_field_filter_nu(grid_, opt_.field_filter, Real(1)) > 0
          ? std::string(" + field filter ") + strength + " (the faces' grid-scale mode)"
          : "";
  return std::string("weno5 (") + (opt_.weights == WenoWeights::z ? "z" : "js") + " weights, epsilon " + eps +
         ") + characteristic projection (7 MHD waves, arithmetic average) + lax-friedrichs splitting + "
         "HOW-MHD constrained transport (sixth-order curl of face point values)" + filter;
}

std::int64_t FdMhd::array_bytes() const {
  std::int64_t bytes = std::int64_t(k_.span()) * std::int64_t(sizeof(Real)) + kb_.bytes();
  if (native_) bytes += native_->bytes();
  if (fused_) bytes += fused_->bytes();
  return bytes;
}

void FdMhd::rebuild_cell_field(const State& s) {
  // Every cell whose six faces are filled: the stencils reach six cells out.
  fd_ct_cell_field(grid_, s.b, s.u, grid_.interior_plus(kFdMhdGhost - 2));
}

long long FdMhd::stage(const Stage& st, Real dt, const StageBuffers& b) {
  rebuild_cell_field(b.in);
  if (fused_)
    return fd_mhd_stage_fused(opt_, grid_, st, dt, fd_field_filter_nu(grid_, opt_.field_filter, signal_rate_),
                              floors_, b.u0, b.in, b.out, b.r, k_, kb_, *fused_);
  FdMhdNativeWorkspace& ws = *native_;
  for (int d = 0; d < 3; ++d)
    if (grid_.active(d)) fd_mhd_fluxes_native(opt_, grid_, d, b.in.u, ws);
  fd_mhd_accumulate_native(grid_, dt, st.A, k_, ws);
  if (opt_.gravity.on()) add_gravity(grid_, opt_.gravity, dt, b.in.u, k_);
  fd_ct_modified_fluxes_native(grid_, b.in.u, ws.flux, ws.fstar);
  fd_ct_edge_emfs_native(grid_, ws.fstar, ws.omega);
  fd_ct_edge_averages_native(grid_, ws.omega, ws.omega_bar);
  const Real nu = fd_field_filter_nu(grid_, opt_.field_filter, signal_rate_);
  if (nu > 0) {
    fd_ct_edge_currents_native(grid_, b.in.b, ws.fstar);
    fd_ct_field_filter_native(grid_, nu, ws.fstar, ws.omega_bar);
  }
  fd_ct_face_increments_native(grid_, dt, st.A, ws.omega_bar, kb_);
  // The end of the stage as its own kernels (the fused path folds it into
  // the last axis and the curl).
  fd_ct_finish_faces(grid_, st, b.u0.b, b.in.b, b.r.b, b.out.b, kb_);
  return finish_stage<NMHD>(grid_, st, opt_.eos, floors_, b.u0.u, b.in.u, b.r.u, b.out.u, k_);
}

}  // namespace ax
