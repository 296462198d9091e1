#include "fv/fv_native.hpp"

#include "fv/fv_dispatch.hpp"
#include "fv/plm.hpp"

namespace ax {

FvNativeWorkspace::FvNativeWorkspace(const Grid& g)
    : w(g.make_array("fv_native_w", NHYDRO)),
      slope(g.make_array("fv_native_slope", NHYDRO)),
      wl(g.make_array("fv_native_wl", NHYDRO)),
      wr(g.make_array("fv_native_wr", NHYDRO)),
      flux(g.make_array("fv_native_flux", NHYDRO)) {}

std::int64_t FvNativeWorkspace::bytes() const {
  std::int64_t b = 0;
  for (const Array4* a : {&w, &slope, &wl, &wr, &flux}) b += std::int64_t(a->span());
  return b * std::int64_t(sizeof(Real));
}

namespace fv_native_detail {

void compute_primitives(const IdealGas& eos, const Grid& g, const Array4& u, const Array4& w) {
  par_for("fv_native_prim", g.all_cells(), KOKKOS_LAMBDA(int k, int j, int i) {
    Real uc[NHYDRO], wc[NHYDRO];
    for (int n = 0; n < NHYDRO; ++n) uc[n] = u(n, k, j, i);
    cons_to_prim(eos, uc, wc);
    for (int n = 0; n < NHYDRO; ++n) w(n, k, j, i) = wc[n];
  });
}

template <Limiter L>
void compute_slopes(const Grid& g, int d, const Array4& w, const Array4& slope) {
  const int di = d == 0, dj = d == 1, dk = d == 2;
  par_for("fv_native_slopes", g.interior_along(d, -1, 1), KOKKOS_LAMBDA(int k, int j, int i) {
    Real dl[NHYDRO], dr[NHYDRO], s[NHYDRO];  // in the face frame of d, as every path
    for (int f = 0; f < NHYDRO; ++f) {
      const int n = face_slot(d, f);
      dl[f] = w(n, k, j, i) - w(n, k - dk, j - dj, i - di);
      dr[f] = w(n, k + dk, j + dj, i + di) - w(n, k, j, i);
    }
    limited_slopes<L, NHYDRO>(dl, dr, s);
    for (int f = 0; f < NHYDRO; ++f) slope(face_slot(d, f), k, j, i) = s[f];
  });
}

void compute_face_states(const Grid& g, int d, int order, const Array4& w, const Array4& slope,
                         const Array4& wl, const Array4& wr) {
  const int di = d == 0, dj = d == 1, dk = d == 2;
  const bool plm = order == 2;
  par_for("fv_native_face_states", g.interior_along(d, 0, 1), KOKKOS_LAMBDA(int k, int j, int i) {
    for (int n = 0; n < NHYDRO; ++n) {
      const Real left = w(n, k - dk, j - dj, i - di), right = w(n, k, j, i);
      wl(n, k, j, i) = plm ? plm_upper(left, slope(n, k - dk, j - dj, i - di)) : left;
      wr(n, k, j, i) = plm ? plm_lower(right, slope(n, k, j, i)) : right;
    }
  });
}

template <RiemannSolver RS>
void compute_fluxes(const IdealGas& eos, const Grid& g, int d, const Array4& wl,
                    const Array4& wr, const Array4& flux) {
  par_for("fv_native_riemann", g.interior_along(d, 0, 1), KOKKOS_LAMBDA(int k, int j, int i) {
    Real l[NHYDRO], r[NHYDRO], f[NHYDRO];
    for (int s = 0; s < NHYDRO; ++s) {
      l[s] = wl(face_slot(d, s), k, j, i);
      r[s] = wr(face_slot(d, s), k, j, i);
    }
    riemann_flux<RS>(eos, l, r, f);
    for (int s = 0; s < NHYDRO; ++s) flux(face_slot(d, s), k, j, i) = f[s];
  });
}

void accumulate_divergence(const Grid& g, int d, const Array4& flux, const Array4& du) {
  const int di = d == 0, dj = d == 1, dk = d == 2;
  const Real inv_dx = Real(1) / g.dx[d];
  par_for("fv_native_divergence", g.interior(), KOKKOS_LAMBDA(int k, int j, int i) {
    for (int n = 0; n < NHYDRO; ++n)
      du(n, k, j, i) -= (flux(n, k + dk, j + dj, i + di) - flux(n, k, j, i)) * inv_dx;
  });
}

}  // namespace fv_native_detail

using namespace fv_native_detail;

void fv_rhs_native(const FvOptions& opt, const Grid& g, int order, const Array4& u,
                   const Array4& du, FvNativeWorkspace& ws) {
  compute_primitives(opt.eos, g, u, ws.w);
  Kokkos::deep_copy(du, Real(0));
  for (int d = 0; d < 3; ++d) {
    if (!g.active(d)) continue;
    if (order == 2) {
      with_limiter(opt.limiter, [&](auto L) { compute_slopes<decltype(L)::value>(g, d, ws.w, ws.slope); });
    }
    compute_face_states(g, d, order, ws.w, ws.slope, ws.wl, ws.wr);
    with_riemann(opt.riemann, [&](auto R) {
      compute_fluxes<decltype(R)::value>(opt.eos, g, d, ws.wl, ws.wr, ws.flux);
    });
    accumulate_divergence(g, d, ws.flux, du);
  }
}

}  // namespace ax
