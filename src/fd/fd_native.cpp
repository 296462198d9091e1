#include "fd/fd_native.hpp"

#include "fd/fd_dispatch.hpp"
#include "fd/fd_stage.hpp"
#include "fd/weno.hpp"
#include "fv/fv_options.hpp"

namespace ax {

FdNativeWorkspace::FdNativeWorkspace(const Grid& g)
    : cell(g.make_array("fd_native_cell", 2 * NHYDRO + 1)),
      eigen(g.make_array("fd_native_eigen", 9)),
      alpha(g.make_array("fd_native_alpha", 3)),
      dw(g.make_array("fd_native_dw", kWenoDiffs * NHYDRO)),
      dg(g.make_array("fd_native_dg", kWenoDiffs * NHYDRO)),
      weights(g.make_array("fd_native_weights", 4 * NHYDRO)),
      flux(g.make_array("fd_native_flux", NHYDRO)) {}

std::int64_t FdNativeWorkspace::planned_bytes(const Grid& g) {
  // The widths of the arrays the constructor allocates, in its order.
  return g.array_bytes(2 * NHYDRO + 1) + g.array_bytes(9) + g.array_bytes(3) +
         2 * g.array_bytes(kWenoDiffs * NHYDRO) + g.array_bytes(4 * NHYDRO) + g.array_bytes(NHYDRO);
}

std::int64_t FdNativeWorkspace::bytes() const {
  std::int64_t b = 0;
  for (const Array4* a : {&cell, &eigen, &alpha, &dw, &dg, &weights, &flux}) b += std::int64_t(a->span());
  return b * std::int64_t(sizeof(Real));
}

namespace fd_native_detail {

// Slots of the cell array.
constexpr int kW = 0, kF = NHYDRO, kC = 2 * NHYDRO;

struct Axis {
  int d, di, dj, dk;
  explicit Axis(int d_) : d(d_), di(d_ == 0), dj(d_ == 1), dk(d_ == 2) {}
};

KOKKOS_INLINE_FUNCTION void eigen_store(const Array4& a, int k, int j, int i, const EigenSystem& e) {
  const Real v[9] = {e.un, e.ut1, e.ut2, e.c, e.inv_2c, e.h, e.q2h, e.hb1, e.hb2};
  for (int n = 0; n < 9; ++n) a(n, k, j, i) = v[n];
}
KOKKOS_INLINE_FUNCTION EigenSystem eigen_load(const Array4& a, int k, int j, int i) {
  return {a(0, k, j, i), a(1, k, j, i), a(2, k, j, i), a(3, k, j, i), a(4, k, j, i),
          a(5, k, j, i), a(6, k, j, i), a(7, k, j, i), a(8, k, j, i)};
}

// Primitives, physical flux and sound speed of every cell the faces read.
void cell_fluxes(const FdOptions& o, const Grid& g, Axis ax, const Array4& u, const Array4& cell) {
  const IdealGas eos = o.eos;
  const int d = ax.d;
  par_for("fd_native_cells", g.interior_along(d, -kFdGhost, kFdGhost), KOKKOS_LAMBDA(int k, int j, int i) {
    Real uc[NHYDRO], w[NHYDRO], f[NHYDRO], c;
    for (int s = 0; s < NHYDRO; ++s) uc[s] = u(face_slot(d, s), k, j, i);
    cell_flux(eos, d, uc, w, f, c);
    for (int s = 0; s < NHYDRO; ++s) {
      cell(kW + s, k, j, i) = w[s];
      cell(kF + s, k, j, i) = f[s];
    }
    cell(kC, k, j, i) = c;
  });
}

template <EigenAverage A>
void face_eigensystems(const FdOptions& o, const Grid& g, Axis ax, const Array4& cell, const Array4& eigen) {
  const IdealGas eos = o.eos;
  const int di = ax.di, dj = ax.dj, dk = ax.dk;
  par_for("fd_native_eigen", g.interior_along(ax.d, 0, 1), KOKKOS_LAMBDA(int k, int j, int i) {
    Real wl[NHYDRO], wr[NHYDRO];
    for (int s = 0; s < NHYDRO; ++s) {
      wl[s] = cell(kW + s, k - dk, j - dj, i - di);
      wr[s] = cell(kW + s, k, j, i);
    }
    eigen_store(eigen, k, j, i, face_eigensystem<A>(eos, wl, wr));
  });
}

void face_alphas(const Grid& g, Axis ax, const Array4& cell, const Array4& alpha) {
  const int di = ax.di, dj = ax.dj, dk = ax.dk;
  par_for("fd_native_alpha", g.interior_along(ax.d, 0, 1), KOKKOS_LAMBDA(int k, int j, int i) {
    Real a[3] = {0, 0, 0};
    for (int m = 0; m < kWenoStencil; ++m) {
      const int o = m - 3;
      alpha_update(a, cell(kW + 1, k + o * dk, j + o * dj, i + o * di), cell(kC, k + o * dk, j + o * dj, i + o * di));
    }
    for (int n = 0; n < 3; ++n) alpha(n, k, j, i) = a[n];
  });
}

void projections(const Grid& g, Axis ax, const Array4& u, const Array4& cell, const Array4& eigen,
                 const Array4& dw, const Array4& dg) {
  const int d = ax.d, di = ax.di, dj = ax.dj, dk = ax.dk;
  par_for("fd_native_project", g.interior_along(d, 0, 1), KOKKOS_LAMBDA(int k, int j, int i) {
    const EigenSystem e = eigen_load(eigen, k, j, i);
    for (int m = 0; m < kWenoDiffs; ++m) {
      const int oa = m - 3, ob = m - 2;
      Real ua[NHYDRO], ub[NHYDRO], fa[NHYDRO], fb[NHYDRO], w[NHYDRO], gv[NHYDRO];
      for (int s = 0; s < NHYDRO; ++s) {
        ua[s] = u(face_slot(d, s), k + oa * dk, j + oa * dj, i + oa * di);
        ub[s] = u(face_slot(d, s), k + ob * dk, j + ob * dj, i + ob * di);
        fa[s] = cell(kF + s, k + oa * dk, j + oa * dj, i + oa * di);
        fb[s] = cell(kF + s, k + ob * dk, j + ob * dj, i + ob * di);
      }
      characteristic_differences(e, ua, ub, fa, fb, w, gv);
      for (int s = 0; s < NHYDRO; ++s) {
        dw(m * NHYDRO + s, k, j, i) = w[s];
        dg(m * NHYDRO + s, k, j, i) = gv[s];
      }
    }
  });
}

KOKKOS_INLINE_FUNCTION void load_differences(const Array4& dw, const Array4& dg, int k, int j, int i,
                                             Real w[kWenoDiffs][NHYDRO], Real gv[kWenoDiffs][NHYDRO]) {
  for (int m = 0; m < kWenoDiffs; ++m)
    for (int s = 0; s < NHYDRO; ++s) {
      w[m][s] = dw(m * NHYDRO + s, k, j, i);
      gv[m][s] = dg(m * NHYDRO + s, k, j, i);
    }
}

template <WenoWeights W>
void nonlinear_weights(const FdOptions& o, const Grid& g, Axis ax, const Array4& alpha, const Array4& dw,
                       const Array4& dg, const Array4& weights) {
  const Real eps = o.epsilon;
  par_for("fd_native_weights", g.interior_along(ax.d, 0, 1), KOKKOS_LAMBDA(int k, int j, int i) {
    Real w[kWenoDiffs][NHYDRO], gv[kWenoDiffs][NHYDRO];
    load_differences(dw, dg, k, j, i, w, gv);
    const Real a[3] = {alpha(0, k, j, i), alpha(1, k, j, i), alpha(2, k, j, i)};
    for (int s = 0; s < NHYDRO; ++s) {
      Real ap[4], am[4], w0p, w2p, w0m, w2m;
      split_differences(w, gv, alpha_of_field(a, s), s, ap, am);
      weno_weights<W>(ap[0], ap[1], ap[2], ap[3], eps, w0p, w2p);
      weno_weights<W>(am[0], am[1], am[2], am[3], eps, w0m, w2m);
      weights(4 * s + 0, k, j, i) = w0p;
      weights(4 * s + 1, k, j, i) = w2p;
      weights(4 * s + 2, k, j, i) = w0m;
      weights(4 * s + 3, k, j, i) = w2m;
    }
  });
}

void face_fluxes(const Grid& g, Axis ax, const Array4& cell, const Array4& eigen, const Array4& alpha,
                 const Array4& dw, const Array4& dg, const Array4& weights, const Array4& flux) {
  const int d = ax.d, di = ax.di, dj = ax.dj, dk = ax.dk;
  par_for("fd_native_flux", g.interior_along(d, 0, 1), KOKKOS_LAMBDA(int k, int j, int i) {
    Real w[kWenoDiffs][NHYDRO], gv[kWenoDiffs][NHYDRO];
    load_differences(dw, dg, k, j, i, w, gv);
    const Real a[3] = {alpha(0, k, j, i), alpha(1, k, j, i), alpha(2, k, j, i)};
    Real corr[NHYDRO];
    for (int s = 0; s < NHYDRO; ++s) {
      Real ap[4], am[4];
      split_differences(w, gv, alpha_of_field(a, s), s, ap, am);
      corr[s] = weno_correction(weights(4 * s, k, j, i), weights(4 * s + 1, k, j, i), ap,
                                weights(4 * s + 2, k, j, i), weights(4 * s + 3, k, j, i), am);
    }
    Real f[4][NHYDRO];
    for (int m = 0; m < 4; ++m) {
      const int o = m - 2;
      for (int s = 0; s < NHYDRO; ++s) f[m][s] = cell(kF + s, k + o * dk, j + o * dj, i + o * di);
    }
    Real fhat[NHYDRO];
    assemble_face_flux(eigen_load(eigen, k, j, i), f[0], f[1], f[2], f[3], corr, fhat);
    for (int s = 0; s < NHYDRO; ++s) flux(face_slot(d, s), k, j, i) = fhat[s];
  });
}

void accumulate(const Grid& g, Axis ax, bool first, Real A, Real dtdx, const Array4& flux, const Array4& kacc) {
  const int di = ax.di, dj = ax.dj, dk = ax.dk;
  par_for("fd_native_divergence", g.interior(), KOKKOS_LAMBDA(int k, int j, int i) {
    for (int n = 0; n < NHYDRO; ++n) {
      const Real dv = flux_difference(dtdx, flux(n, k, j, i), flux(n, k + dk, j + dj, i + di));
      kacc(n, k, j, i) = first ? start_increment(A, kacc(n, k, j, i), dv) : kacc(n, k, j, i) + dv;
    }
  });
}

}  // namespace fd_native_detail

using namespace fd_native_detail;

void fd_increment_native(const FdOptions& opt, const Grid& g, Real dt, Real A, const Array4& u,
                         const Array4& k, FdNativeWorkspace& ws) {
  // Axes in the order of the fused path (z, y, x), so K sums the same way.
  bool first = true;
  for (int d = 2; d >= 0; --d) {
    if (!g.active(d)) continue;
    const Axis ax(d);
    with_weno_options(opt, [&](auto W, auto Av) {
      cell_fluxes(opt, g, ax, u, ws.cell);
      face_eigensystems<decltype(Av)::value>(opt, g, ax, ws.cell, ws.eigen);
      face_alphas(g, ax, ws.cell, ws.alpha);
      projections(g, ax, u, ws.cell, ws.eigen, ws.dw, ws.dg);
      nonlinear_weights<decltype(W)::value>(opt, g, ax, ws.alpha, ws.dw, ws.dg, ws.weights);
      face_fluxes(g, ax, ws.cell, ws.eigen, ws.alpha, ws.dw, ws.dg, ws.weights, ws.flux);
    });
    accumulate(g, ax, first, A, dt / g.dx[d], ws.flux, k);
    first = false;
  }
}

}  // namespace ax
