#include "fv/fv_mhd.hpp"

#include <stdexcept>

namespace ax {

bool fv_mhd_fused_supported(const Config& cfg, const Grid& grid, std::string* why) {
  auto no = [&](const std::string& reason) {
    if (why) *why = reason;
    return false;
  };
  if (!cfg.mhd) return no("physics.mhd is false");
  if (cfg.family != "fv") return no("solver.family is not fv");
  if (cfg.order != 1 && cfg.order != 2) return no("only pcm and plm reconstruction are fused");
  // UCT keeps six HLLD coefficients per face for the edge reconstruction:
  // 18 more arrays, which would take the fused path past 3x the state.
  if (cfg.fv.corner_emf != CornerEmf::gs05) return no("corner_emf uct_hlld runs native only (its per-face "
                                                       "coefficients would take 18 more arrays)");
  for (int d = 0; d < 3; ++d)
    if (grid.active(d) && grid.gh[d] < kFvGhost) return no("ghost zones shallower than the PLM stencil");
#ifdef ASTRONOMIX_FLAT_LOOPS
  // The sweeps layout keeps 4 rows of 8 primitives and 2 of 5 fluxes per
  // team in GPU scratch (shared) memory, 48 KiB by default.
  if (cfg.fused_layout == FusedLayout::sweeps &&
      std::size_t(4 * NMHD + 2 * NHYDRO) * (grid.extent(0) + 1) * sizeof(Real) > 48 * 1024)
    return no("fused_layout sweeps needs more GPU scratch memory than 48 KiB at this block width");
#endif
  if (why) why->clear();
  return true;
}

FvMhdPlan fv_mhd_plan(const Config& cfg, const Grid& grid) {
#ifdef ASTRONOMIX_FLAT_LOOPS
  const bool host = false;
#else
  const bool host = true;
#endif
  FvMhdPlan plan;
  switch (cfg.fused_layout) {
    case FusedLayout::cells: plan.layout = MhdFusedLayout::cells; break;
    case FusedLayout::tiles: plan.layout = MhdFusedLayout::tiles; break;
    case FusedLayout::sweeps: plan.layout = MhdFusedLayout::sweeps; break;
    case FusedLayout::automatic: plan.layout = host ? MhdFusedLayout::sweeps : MhdFusedLayout::tiles; break;
  }
  std::string why;
  const bool ok = fv_mhd_fused_supported(cfg, grid, &why);
  const char* names[] = {"fused (cells)", "fused (tiles)", "fused (sweeps)"};
  plan.path = choose_hydro_path(cfg, ok, why, names[int(plan.layout)]);
  return plan;
}

FvMhd::FvMhd(const Config& cfg, const Grid& grid) : FvMhd(cfg, grid, fv_mhd_plan(cfg, grid)) {}

FvMhd::FvMhd(const Config& cfg, const Grid& grid, const FvMhdPlan& plan)
    : HydroSolver(plan.path), order_(cfg.order), opt_(cfg.fv), grid_(grid) {
  opt_.eos = cfg.eos;
  floors_.density = Real(cfg.density_floor);
  floors_.pressure = Real(cfg.pressure_floor);
  opt_.gravity = gravity_of(cfg.gravity);
  if (fused())
    fused_ = std::make_unique<FvMhdFusedWorkspace>(grid, plan.layout);
  else
    native_ = std::make_unique<FvMhdNativeWorkspace>(grid, opt_.corner_emf == CornerEmf::uct_hlld);
}

std::int64_t FvMhd::planned_bytes(const Config& cfg, const Grid& grid) {
  const FvMhdPlan plan = fv_mhd_plan(cfg, grid);
  if (plan.path.fused) return FvMhdFusedWorkspace::planned_bytes(grid, plan.layout);
  return FvMhdNativeWorkspace::planned_bytes(grid, cfg.fv.corner_emf == CornerEmf::uct_hlld);
}

std::int64_t FvMhd::array_bytes() const { return fused_ ? fused_->bytes() : native_->bytes(); }

std::string FvMhd::scheme() const {
  return std::string(order_ == 2 ? "plm" : "pcm") + " + " + to_string(opt_.limiter) + " + " +
         to_string(opt_.mhd_riemann) + " + constrained transport (" +
         (opt_.corner_emf == CornerEmf::gs05                  ? "gs05"
          : opt_.mhd_riemann == MhdRiemannSolver::hlld ? "uct_hlld"
                                                       : "uct_hll, the HLL form of uct_hlld for this solver") +
         " edge EMFs)";
}

long long FvMhd::stage(const Stage& st, Real dt, const StageBuffers& b) {
  if (st.e != 0 || st.A != 0 || st.set_r)
    throw std::logic_error("FV MHD stages take the two-register form only");  // the config rejects others
  const int order = st.first_order ? 1 : order_;
  if (fused_) {
    fv_mhd_stage_fused(opt_, grid_, order, st.a, st.b, st.c * dt, floors_, b.u0, b.in, b.out, *fused_);
    return 0;  // counted in fused_->hits
  }
  return fv_mhd_stage_native(opt_, grid_, order, st.a, st.b, st.c * dt, floors_, b.u0, b.in, b.out, *native_);
}

long long FvMhd::take_device_floor_hits() { return fused_ ? take_count(fused_->hits) : 0; }

}  // namespace ax
