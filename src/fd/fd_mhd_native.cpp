#include "fd/fd_mhd_native.hpp"

#include "ct/fd_ct.hpp"
#include "fd/fd_dispatch.hpp"
#include "fd/fd_stage.hpp"
#include "fd/weno_mhd.hpp"

namespace ax {

namespace {

constexpr int kCellVars = 8 + 8 + NMHD_WAVES;  // w, f, lambda
constexpr int kW = 0, kF = 8, kL = 16;
constexpr int kDiffVars = kWenoDiffs * NMHD_WAVES;

// Node arrays of the workspace as (variables) in allocation order; the
// constructor and the memory plan read the same table.
constexpr int kNodeVars[] = {8, NMHD_WAVES, kDiffVars, kDiffVars, NMHD_WAVES, 8, 8, 8, 2, 2, 2, 1, 1, 1, 1, 1, 1};

}  // namespace

FdMhdNativeWorkspace::FdMhdNativeWorkspace(const Grid& g) : cell(g.make_array("fd_mhd_cell", kCellVars)) {
  Array4* node[] = {&face_w,   &alpha,    &dw,       &dg,       &corr,     &flux[0],      &flux[1],      &flux[2],     &fstar[0],
                    &fstar[1], &fstar[2], &omega[0], &omega[1], &omega[2], &omega_bar[0], &omega_bar[1], &omega_bar[2]};
  static_assert(sizeof(kNodeVars) / sizeof(int) == 17, "one entry per node array");
  for (int n = 0; n < 17; ++n) *node[n] = make_node_array(g, "fd_mhd_native", kNodeVars[n]);
  // Edges and fluxes outside the boxes the kernels fill are never read, but
  // keep them numbers for inspection.
  for (int n = 0; n < 17; ++n) Kokkos::deep_copy(*node[n], Real(0));
}

std::int64_t FdMhdNativeWorkspace::planned_bytes(const Grid& g) {
  std::int64_t b = g.array_bytes(kCellVars);
  for (int v : kNodeVars) b += node_array_bytes(g, v);
  return b;
}

std::int64_t FdMhdNativeWorkspace::bytes() const {
  std::int64_t b = std::int64_t(cell.span());
  for (const Array4* a : {&face_w, &alpha, &dw, &dg, &corr}) b += std::int64_t(a->span());
  for (int d = 0; d < 3; ++d)
    b += std::int64_t(flux[d].span() + fstar[d].span() + omega[d].span() + omega_bar[d].span());
  return b * std::int64_t(sizeof(Real));
}

namespace fd_mhd_native_detail {

struct Axis {
  int d, di, dj, dk;
  explicit Axis(int d_) : d(d_), di(d_ == 0), dj(d_ == 1), dk(d_ == 2) {}
};

// The cells the faces of fd_mhd_flux_box read: three more below along d,
// two more above.
Box cell_box(const Grid& g, int d) {
  Box b = fd_mhd_flux_box(g, d);
  if (d == 0) { b.ib -= 3; b.ie += 2; }
  if (d == 1) { b.jb -= 3; b.je += 2; }
  if (d == 2) { b.kb -= 3; b.ke += 2; }
  return b;
}

void cells(const FdOptions& o, const Grid& g, Axis ax, const Array4& u, const Array4& cell) {
  const IdealGas eos = o.eos;
  const int d = ax.d;
  par_for("fd_mhd_native_cells", cell_box(g, d), KOKKOS_LAMBDA(int k, int j, int i) {
    Real uc[8], w[8], f[8], lam[NMHD_WAVES];
    for (int s = 0; s < 8; ++s) uc[s] = u(mhd_face_slot(d, s), k, j, i);
    mhd_cell_flux(eos, uc, w, f, lam);
    for (int s = 0; s < 8; ++s) {
      cell(kW + s, k, j, i) = w[s];
      cell(kF + s, k, j, i) = f[s];
    }
    for (int s = 0; s < NMHD_WAVES; ++s) cell(kL + s, k, j, i) = lam[s];
  });
}

void face_states(const Grid& g, Axis ax, const Array4& cell, const Array4& face_w) {
  const int di = ax.di, dj = ax.dj, dk = ax.dk;
  par_for("fd_mhd_native_face_state", fd_mhd_flux_box(g, ax.d), KOKKOS_LAMBDA(int k, int j, int i) {
    for (int s = 0; s < 8; ++s)
      face_w(s, k, j, i) = Real(0.5) * (cell(kW + s, k - dk, j - dj, i - di) + cell(kW + s, k, j, i));
  });
}

// The face's eigen-system at its mean state; the two cells give the
// direction used where its transverse field vanishes (mhd_eigen.hpp).
KOKKOS_INLINE_FUNCTION MhdEigenSystem eigen_at(const IdealGas& eos, Axis ax, const Array4& cell,
                                               const Array4& face_w, int k, int j, int i) {
  Real w[8], wl[8], wr[8], d[2];
  for (int s = 0; s < 8; ++s) {
    w[s] = face_w(s, k, j, i);
    wl[s] = cell(kW + s, k - ax.dk, j - ax.dj, i - ax.di);
    wr[s] = cell(kW + s, k, j, i);
  }
  degenerate_direction(wl, wr, d);
  return mhd_eigensystem_at(eos, w, d);
}

void alphas(const Grid& g, Axis ax, const Array4& cell, const Array4& alpha) {
  const int di = ax.di, dj = ax.dj, dk = ax.dk;
  par_for("fd_mhd_native_alpha", fd_mhd_flux_box(g, ax.d), KOKKOS_LAMBDA(int k, int j, int i) {
    Real a[NMHD_WAVES] = {0, 0, 0, 0, 0, 0, 0};
    for (int m = 0; m < kWenoStencil; ++m) {
      const int o = m - 3;
      Real lam[NMHD_WAVES];
      for (int s = 0; s < NMHD_WAVES; ++s) lam[s] = cell(kL + s, k + o * dk, j + o * dj, i + o * di);
      mhd_alpha_update(a, lam);
    }
    for (int s = 0; s < NMHD_WAVES; ++s) alpha(s, k, j, i) = a[s];
  });
}

void projections(const FdOptions& o, const Grid& g, Axis ax, const Array4& u, const Array4& cell,
                 const Array4& face_w, const Array4& dw, const Array4& dg) {
  const IdealGas eos = o.eos;
  const int d = ax.d, di = ax.di, dj = ax.dj, dk = ax.dk;
  par_for("fd_mhd_native_project", fd_mhd_flux_box(g, d), KOKKOS_LAMBDA(int k, int j, int i) {
    const MhdEigenSystem e = eigen_at(eos, ax, cell, face_w, k, j, i);
    for (int m = 0; m < kWenoDiffs; ++m) {
      const int oa = m - 3, ob = m - 2;
      Real ua[8], ub[8], fa[8], fb[8], w[NMHD_WAVES], gv[NMHD_WAVES];
      for (int s = 0; s < 8; ++s) {
        ua[s] = u(mhd_face_slot(d, s), k + oa * dk, j + oa * dj, i + oa * di);
        ub[s] = u(mhd_face_slot(d, s), k + ob * dk, j + ob * dj, i + ob * di);
        fa[s] = cell(kF + s, k + oa * dk, j + oa * dj, i + oa * di);
        fb[s] = cell(kF + s, k + ob * dk, j + ob * dj, i + ob * di);
      }
      mhd_characteristic_differences(e, ua, ub, fa, fb, w, gv);
      for (int s = 0; s < NMHD_WAVES; ++s) {
        dw(m * NMHD_WAVES + s, k, j, i) = w[s];
        dg(m * NMHD_WAVES + s, k, j, i) = gv[s];
      }
    }
  });
}

template <WenoWeights W>
void corrections(const FdOptions& o, const Grid& g, Axis ax, const Array4& alpha, const Array4& dw,
                 const Array4& dg, const Array4& corr) {
  const Real eps = o.epsilon;
  par_for("fd_mhd_native_corrections", fd_mhd_flux_box(g, ax.d), KOKKOS_LAMBDA(int k, int j, int i) {
    Real w[kWenoDiffs][NMHD_WAVES], gv[kWenoDiffs][NMHD_WAVES];
    for (int m = 0; m < kWenoDiffs; ++m)
      for (int s = 0; s < NMHD_WAVES; ++s) {
        w[m][s] = dw(m * NMHD_WAVES + s, k, j, i);
        gv[m][s] = dg(m * NMHD_WAVES + s, k, j, i);
      }
    for (int s = 0; s < NMHD_WAVES; ++s) corr(s, k, j, i) = mhd_wave_correction<W>(w, gv, alpha(s, k, j, i), s, eps);
  });
}

void face_fluxes(const FdOptions& o, const Grid& g, Axis ax, const Array4& cell, const Array4& face_w,
                 const Array4& corr, const Array4& flux) {
  const IdealGas eos = o.eos;
  const int d = ax.d, di = ax.di, dj = ax.dj, dk = ax.dk;
  par_for("fd_mhd_native_flux", fd_mhd_flux_box(g, d), KOKKOS_LAMBDA(int k, int j, int i) {
    Real f[4][8], c[NMHD_WAVES], fhat[8];
    for (int m = 0; m < 4; ++m) {
      const int off = m - 2;
      for (int s = 0; s < 8; ++s) f[m][s] = cell(kF + s, k + off * dk, j + off * dj, i + off * di);
    }
    for (int s = 0; s < NMHD_WAVES; ++s) c[s] = corr(s, k, j, i);
    mhd_assemble_face_flux(eigen_at(eos, ax, cell, face_w, k, j, i), f[0], f[1], f[2], f[3], c, fhat);
    for (int s = 0; s < 8; ++s) flux(mhd_face_slot(d, s), k, j, i) = fhat[s];
  });
}

}  // namespace fd_mhd_native_detail

using namespace fd_mhd_native_detail;

void fd_mhd_fluxes_native(const FdOptions& opt, const Grid& g, int d, const Array4& u, FdMhdNativeWorkspace& ws) {
  const Axis ax(d);
  cells(opt, g, ax, u, ws.cell);
  face_states(g, ax, ws.cell, ws.face_w);
  alphas(g, ax, ws.cell, ws.alpha);
  projections(opt, g, ax, u, ws.cell, ws.face_w, ws.dw, ws.dg);
  if (opt.weights == WenoWeights::z) corrections<WenoWeights::z>(opt, g, ax, ws.alpha, ws.dw, ws.dg, ws.corr);
  else corrections<WenoWeights::js>(opt, g, ax, ws.alpha, ws.dw, ws.dg, ws.corr);
  face_fluxes(opt, g, ax, ws.cell, ws.face_w, ws.corr, ws.flux[d]);
}

void fd_mhd_accumulate_native(const Grid& g, Real dt, Real A, const Array4& kacc, const FdMhdNativeWorkspace& ws) {
  bool first = true;
  for (int d = 2; d >= 0; --d) {
    if (!g.active(d)) continue;
    const Array4 flux = ws.flux[d];
    const int di = d == 0, dj = d == 1, dk = d == 2;
    const Real dtdx = dt / g.dx[d];
    const bool start = first;
    par_for("fd_mhd_native_divergence", g.interior(), KOKKOS_LAMBDA(int k, int j, int i) {
      for (int n = 0; n < NMHD; ++n) {
        const Real dv = flux_difference(dtdx, flux(n, k, j, i), flux(n, k + dk, j + dj, i + di));
        kacc(n, k, j, i) = start ? start_increment(A, kacc(n, k, j, i), dv) : kacc(n, k, j, i) + dv;
      }
    });
    first = false;
  }
}

}  // namespace ax
