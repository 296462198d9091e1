#include "fv/fv_mhd.hpp"

#include <stdexcept>

namespace ax {

bool fv_mhd_fused_supported(const Config& cfg, const Grid&, std::string* why) {
  if (why) *why = cfg.mhd ? "mhd: native only (no fused FV MHD kernels yet)" : "physics.mhd is false";
  return false;
}

HydroPath fv_mhd_path(const Config& cfg, const Grid& grid) {
  std::string why;
  const bool ok = fv_mhd_fused_supported(cfg, grid, &why);
  return choose_hydro_path(cfg, ok, why, "fused");
}

FvMhd::FvMhd(const Config& cfg, const Grid& grid)
    : HydroSolver(fv_mhd_path(cfg, grid)), order_(cfg.order), opt_(cfg.fv), grid_(grid) {
  opt_.eos = cfg.eos;
  floors_.density = Real(cfg.density_floor);
  floors_.pressure = Real(cfg.pressure_floor);
  native_ = std::make_unique<FvMhdNativeWorkspace>(grid, opt_.corner_emf == CornerEmf::uct_hlld);
}

std::int64_t FvMhd::planned_bytes(const Config& cfg, const Grid& grid) {
  return FvMhdNativeWorkspace::planned_bytes(grid, cfg.fv.corner_emf == CornerEmf::uct_hlld);
}

std::int64_t FvMhd::array_bytes() const { return native_->bytes(); }

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
  return fv_mhd_stage_native(opt_, grid_, order, st.a, st.b, st.c * dt, floors_, b.u0, b.in, b.out, *native_);
}

}  // namespace ax
