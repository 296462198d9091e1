#include "fv/fv_hydro.hpp"

#include <stdexcept>

#include "hydro/hydro_kernels.hpp"
#include "fv/fv_fused.hpp"

namespace ax {

bool fv_hydro_fused_supported(const Config& cfg, const Grid& grid, std::string* why) {
  auto no = [&](const std::string& reason) {
    if (why) *why = reason;
    return false;
  };
  if (cfg.family != "fv") return no("solver.family is not fv");
  if (cfg.order != 1 && cfg.order != 2) return no("only pcm and plm reconstruction are fused");
  // The kernel reads two cells beyond each face of the block.
  for (int d = 0; d < 3; ++d)
    if (grid.active(d) && grid.gh[d] < kFvGhost) return no("ghost zones shallower than the PLM stencil");
#ifdef ASTRONOMIX_FLAT_LOOPS
  // The sweeps layout keeps 8 rows of 5 variables per team in GPU scratch
  // (shared) memory, 48 KiB by default.
  if (cfg.fused_layout == FusedLayout::sweeps &&
      std::size_t(8) * NHYDRO * (grid.extent(0) + 1) * sizeof(Real) > 48 * 1024)
    return no("fused_layout sweeps needs more GPU scratch memory than 48 KiB at this block width");
#endif
  if (why) why->clear();
  return true;
}

FvPlan fv_hydro_plan(const Config& cfg, const Grid& grid) {
#ifdef ASTRONOMIX_FLAT_LOOPS
  const bool host = false;
#else
  const bool host = true;
#endif
  FvPlan plan;
  plan.sweeps = cfg.fused_layout == FusedLayout::sweeps || (cfg.fused_layout == FusedLayout::automatic && host);
  // GPUs: tiles (each face once), 3.0e9 cell-updates/s on the H200
  // (256^3 blast, FvStep benchmark; cells 2.0e9 before the Riemann
  // solvers' divisions were cut, tiles 2.7e9 then); CPUs: sweeps.
  plan.tiles = cfg.fused_layout == FusedLayout::tiles || (cfg.fused_layout == FusedLayout::automatic && !host);
  std::string why;
  const bool ok = fv_hydro_fused_supported(cfg, grid, &why);
  plan.path = choose_hydro_path(cfg, ok, why,
                                plan.sweeps ? "fused (sweeps)" : (plan.tiles ? "fused (tiles)" : "fused (cells)"));
  return plan;
}

// Native: its workspace and the accumulator; fused sweeps: the accumulator;
// fused cells and tiles: nothing.
static bool needs_du(const FvPlan& plan) { return !plan.path.fused || plan.sweeps; }

std::int64_t FvHydro::planned_bytes(const Config& cfg, const Grid& grid) {
  const FvPlan plan = fv_hydro_plan(cfg, grid);
  std::int64_t b = needs_du(plan) ? grid.array_bytes(NHYDRO) : 0;
  if (!plan.path.fused) b += FvNativeWorkspace::planned_bytes(grid);
  return b;
}

FvHydro::FvHydro(const Config& cfg, const Grid& grid) : FvHydro(cfg, grid, fv_hydro_plan(cfg, grid)) {}

FvHydro::FvHydro(const Config& cfg, const Grid& grid, const FvPlan& plan)
    : HydroSolver(plan.path), opt_(cfg.fv), grid_(grid), sweeps_(plan.sweeps), tiles_(plan.tiles) {
  order_ = cfg.order;
  opt_.eos = cfg.eos;
  floors_.density = Real(cfg.density_floor);
  floors_.pressure = Real(cfg.pressure_floor);
  opt_.gravity = gravity_of(cfg.gravity);
  if (!fused()) native_ = std::make_unique<FvNativeWorkspace>(grid);
  if (needs_du(plan)) du_ = grid.make_array("fv_du", NHYDRO);
  else hits_ = DeviceCount("fv_fused_floor_hits");
}

std::int64_t FvHydro::array_bytes() const {
  std::int64_t bytes = std::int64_t(du_.span()) * sizeof(Real);
  if (native_) bytes += native_->bytes();
  return bytes;
}

std::string FvHydro::scheme() const {
  return std::string(order_ == 2 ? "plm" : "pcm") + " + " + to_string(opt_.limiter) + " + " + to_string(opt_.riemann);
}

long long FvHydro::stage(const Stage& st, Real dt, const StageBuffers& b) {
  if (st.e != 0 || st.A != 0 || st.set_r)
    throw std::logic_error("FV stages take the two-register form only");  // the config rejects such integrators
  return combine(st.first_order ? 1 : order_, st.a, st.b, st.c * dt, b.u0.u, b.in.u, b.out.u);
}

long long FvHydro::take_device_floor_hits() { return hits_.data() ? take_count(hits_) : 0; }

std::string FvHydro::box_stage_refusal() const {
  if (!fused()) return "the native path runs whole stages";
  if (sweeps_) return "fused_layout sweeps accumulates each axis over whole lines";
  return "";
}

void FvHydro::stage_box(const Stage& st, Real dt, const StageBuffers& b, const Box& box, const DeviceCount& hits) {
  if (!box_stage_refusal().empty()) HydroSolver::stage_box(st, dt, b, box, hits);
  if (st.e != 0 || st.A != 0 || st.set_r)
    throw std::logic_error("FV stages take the two-register form only");
  fused_box(st.first_order ? 1 : order_, st.a, st.b, st.c * dt, b.u0.u, b.in.u, b.out.u, box, hits);
}

void FvHydro::fused_box(int order, Real a, Real b, Real c_dt, const Array4& u0, const Array4& in, const Array4& out,
                        const Box& box, const DeviceCount& hits) {
  if (tiles_) fv_stage_fused_tiles(opt_, grid_, order, a, b, c_dt, floors_, u0, in, out, box, hits);
  else fv_stage_fused_cells(opt_, grid_, order, a, b, c_dt, floors_, u0, in, out, box, hits);
}

long long FvHydro::combine(int order, Real a, Real b, Real c_dt, const Array4& u0, const Array4& in,
                           const Array4& out) {
  if (fused() && sweeps_) return fv_stage_fused_sweeps(opt_, grid_, order, a, b, c_dt, floors_, u0, in, out, du_);
  if (fused()) {
    fused_box(order, a, b, c_dt, u0, in, out, grid_.interior(), hits_);
    return 0;  // counted in hits_
  }
  fv_rhs_native(opt_, grid_, order, in, du_, *native_);
  if (opt_.gravity.on()) add_gravity(grid_, opt_.gravity, Real(1), in, du_);
  stage_update(grid_, a, b, c_dt, u0, in, out, du_);
  return apply_floors(grid_, opt_.eos, floors_, out);
}

}  // namespace ax
