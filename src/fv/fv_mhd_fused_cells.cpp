// The first kernel of the fused FV MHD stage for GPUs: one thread per cell
// computes the Riemann fluxes of its six faces from PLM states in registers
// (each face twice, once by each neighbour, as the hydro `cells` layout),
// finishes the stage for the five hydro variables, and stores the EMFs and
// mass-flux sign of its three lower faces; a layer of cells around the
// interior only stores faces.
#include <vector>

#include "fv/fv_dispatch.hpp"
#include "fv/fv_mhd_fused_kernels.hpp"
#include "time/stage_combination.hpp"

namespace ax {

namespace fv_mhd_cells_detail {

// Blocks of 256 threads per multiprocessor the cell kernel must fit on GPUs
// (as the hydro cells kernel; set by CMake).
#ifndef ASTRONOMIX_FUSED_MIN_BLOCKS
#define ASTRONOMIX_FUSED_MIN_BLOCKS 2
#endif
constexpr int kMinBlocks = ASTRONOMIX_FUSED_MIN_BLOCKS;

// What the cell kernel knows about the grid.
struct Extent {
  bool active[3];
  int is[3], ie[3];
  Real inv_dx[3];
};

// Axis D of the cell kernel, with wc the cell's own primitives: the lower
// face's EMFs and mass-flux sign where CT needs them, and for interior cells
// the divergence of both faces. The four neighbours along D are converted
// here, so a cell converts 13 states, not the 24 of six independent faces.
template <int D, int ORDER, Limiter L, MhdRiemannSolver RS>
KOKKOS_FORCEINLINE_FUNCTION void axis(const IdealGas& eos, const Extent& x, const Array4& in, const Array4& bface,
                                      const Array4& face_e, const SignArray& sign, int k, int j, int i,
                                      bool interior, bool halo_only, const Real wc[NMHD], Real acc[NHYDRO]) {
  const int idx = D == 0 ? i : D == 1 ? j : k;
  if (!x.active[D] || idx < x.is[D]) return;  // no lower face of this cell is needed
  if (halo_only) {  // the faces between interior rows are the tiles kernel's
    const int t1 = D == 0 ? j : i, t2 = D == 2 ? j : k, d1 = D == 0 ? 1 : 0, d2 = D == 2 ? 1 : 2;
    if (t1 >= x.is[d1] && t1 < x.ie[d1] && t2 >= x.is[d2] && t2 < x.ie[d2]) return;
  }
  constexpr int di = D == 0, dj = D == 1, dk = D == 2;
  Real wm2[NMHD], wm1[NMHD], wp1[NMHD], wp2[NMHD];
  load_mhd_prim(eos, in, k - dk, j - dj, i - di, wm1);
  if constexpr (ORDER == 2) {
    load_mhd_prim(eos, in, k - 2 * dk, j - 2 * dj, i - 2 * di, wm2);
    load_mhd_prim(eos, in, k + dk, j + dj, i + di, wp1);
  } else {
    for (int n = 0; n < NMHD; ++n) wm2[n] = wp1[n] = Real(0);  // unused by donor cell
  }
  Real lo[NWAVE_FACE];
  mhd_face_flux<D, ORDER, L, RS>(eos, wm2, wm1, wc, wp1, bface(0, k, j, i), lo);
  store_face_emfs(lo, face_e, sign, k, j, i);
  if (!interior) return;
  if constexpr (ORDER == 2) {
    load_mhd_prim(eos, in, k + 2 * dk, j + 2 * dj, i + 2 * di, wp2);
  } else {
    load_mhd_prim(eos, in, k + dk, j + dj, i + di, wp1);
    for (int n = 0; n < NMHD; ++n) wp2[n] = Real(0);
  }
  Real hi[NWAVE_FACE];
  mhd_face_flux<D, ORDER, L, RS>(eos, wm1, wc, wp1, wp2, bface(0, k + dk, j + dj, i + di), hi);
  for (int s = 0; s < NHYDRO; ++s) acc[face_slot(D, s)] -= (hi[s] - lo[s]) * x.inv_dx[D];
}

int& box_lower(Box& b, int d) { return d == 0 ? b.ib : d == 1 ? b.jb : b.kb; }
int& box_upper(Box& b, int d) { return d == 0 ? b.ie : d == 1 ? b.je : b.ke; }

// ct_face_cells(g) less the interior, as disjoint slabs: the layers below
// and above the interior along z, then along y and x between them.
std::vector<Box> layer_slabs(const Grid& g) {
  Box rest = ct_face_cells(g);
  std::vector<Box> slabs;
  for (int d = 2; d >= 0; --d) {
    if (!g.active(d)) continue;
    Box lo = rest, hi = rest;
    box_upper(lo, d) = g.is(d);
    box_lower(hi, d) = g.ie(d);
    slabs.push_back(lo);
    slabs.push_back(hi);
    box_lower(rest, d) = g.is(d);
    box_upper(rest, d) = g.ie(d);
  }
  return slabs;
}

template <int ORDER, Limiter L, MhdRiemannSolver RS>
void cells(const FvOptions& opt, const Grid& g, Real a, Real b, Real c_dt, const Array4& u0, const State& in,
           const Array4& out, CtFusedWorkspace& ws, bool halo_only) {
  const IdealGas eos = opt.eos;
  const Gravity grav = opt.gravity;
  Extent x;
  for (int d = 0; d < 3; ++d) {
    x.active[d] = g.active(d);
    x.is[d] = g.is(d);
    x.ie[d] = g.ie(d);
    x.inv_dx[d] = Real(1) / g.dx[d];
  }
  const Array4 u = in.u, b1 = in.b.x1f, b2 = in.b.x2f, b3 = in.b.x3f;
  const Array4 e1 = ws.face_e.e[0], e2 = ws.face_e.e[1], e3 = ws.face_e.e[2];
  const SignArray s1 = ws.mass_sign[0], s2 = ws.mass_sign[1], s3 = ws.mass_sign[2];
  auto cell = KOKKOS_LAMBDA(int k, int j, int i) {
    const bool interior = i >= x.is[0] && i < x.ie[0] && j >= x.is[1] && j < x.ie[1] && k >= x.is[2] && k < x.ie[2];
    if (halo_only && interior) return;
    // x, then y, then z: the native path's order of accumulation.
    Real wc[NMHD];
    load_mhd_prim(eos, u, k, j, i, wc);
    Real acc[NHYDRO] = {0, 0, 0, 0, 0};
    axis<0, ORDER, L, RS>(eos, x, u, b1, e1, s1, k, j, i, interior, halo_only, wc, acc);
    axis<1, ORDER, L, RS>(eos, x, u, b2, e2, s2, k, j, i, interior, halo_only, wc, acc);
    axis<2, ORDER, L, RS>(eos, x, u, b3, e3, s3, k, j, i, interior, halo_only, wc, acc);
    if (!interior) return;
    add_gravity_to(grav, Real(1), u(IDN, k, j, i), u(IM1, k, j, i), u(IM2, k, j, i), u(IM3, k, j, i), acc);  // after the fluxes, as native
    for (int n = 0; n < NHYDRO; ++n)
      out(n, k, j, i) = stage_combination(a, u0(n, k, j, i), b, u(n, k, j, i), c_dt, acc[n]);
  };
  if (!halo_only) {
    par_for<kMinBlocks>("fv_mhd_fused_cells", ct_face_cells(g), cell);
    return;
  }
  // The layer around the interior as its own slabs: launched over the whole
  // box, most warps held one or two layer cells beside interior ones that
  // returned at once, and ran the Riemann solver for those alone (1.0 -
  // 1.4 ms a stage at 256^3 on the H200, 8% of a step). The slabs in one
  // launch: one at a time, each a layer of 66 thousand cells, they took
  // 15-19 us (z and y) and 76 us (x, whose threads read down columns) with
  // donor cell, 24-31 and 118-120 us with PLM, less than the GPU could
  // overlap.
  par_for_boxes<kMinBlocks>("fv_mhd_fused_cells_layer", layer_slabs(g), cell);
}

}  // namespace fv_mhd_cells_detail

void fv_mhd_fused_cells(const FvOptions& opt, const Grid& g, int order, Real a, Real b, Real c_dt,
                        const Array4& u0, const State& in, const Array4& out, CtFusedWorkspace& ws,
                        bool halo_only) {
  using namespace fv_mhd_cells_detail;
  with_mhd_riemann(opt.mhd_riemann, [&](auto R) {
    constexpr MhdRiemannSolver RS = decltype(R)::value;
    if (order == 1) {
      cells<1, Limiter::minmod, RS>(opt, g, a, b, c_dt, u0, in, out, ws, halo_only);
    } else {
      with_limiter(opt.limiter, [&](auto L) {
        cells<2, decltype(L)::value, RS>(opt, g, a, b, c_dt, u0, in, out, ws, halo_only);
      });
    }
  });
}

}  // namespace ax
