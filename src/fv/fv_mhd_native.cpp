#include "fv/fv_mhd_native.hpp"

#include "time/stage_combination.hpp"
#include "fv/fv_dispatch.hpp"
#include "ct/uct.hpp"
#include "fv/plm.hpp"
#include "mhd/mhd_eos.hpp"
#include "mhd/mhd_kernels.hpp"

namespace ax {

namespace {

constexpr int kFluxVars = NWAVE_FACE;  // rho, m1, m2, m3, E, F(b_t1), F(b_t2)

// Arrays of the workspace as (name, variables), in allocation order: the
// constructor and the memory plan read the same table.
struct ArraySpec {
  const char* name;
  int nvar;
};
constexpr ArraySpec kArrays[] = {
    {"fv_mhd_w", NMHD},          {"fv_mhd_slope", NMHD},        {"fv_mhd_wl", NMHD},
    {"fv_mhd_wr", NMHD},         {"fv_mhd_flux_x", kFluxVars},  {"fv_mhd_flux_y", kFluxVars},
    {"fv_mhd_flux_z", kFluxVars}, {"fv_mhd_du", NHYDRO},        {"fv_mhd_e_cell", 3},
    {"fv_mhd_face_e_x", 2},      {"fv_mhd_face_e_y", 2},        {"fv_mhd_face_e_z", 2},
    {"fv_mhd_edge_e1", 1},       {"fv_mhd_edge_e2", 1},         {"fv_mhd_edge_e3", 1}};

// Faces normal to d whose fluxes CT needs: the interior faces along d, and
// `w` more layers on each side along the other active axes (the edge EMFs
// of the boundary edges read one; UCT reconstructs along them and reads two).
Box flux_box(const Grid& g, int d, int w) {
  Box b = g.interior_along(d, 0, 1);
  if (d != 0 && g.active(0)) { b.ib -= w; b.ie += w; }
  if (d != 1 && g.active(1)) { b.jb -= w; b.je += w; }
  if (d != 2 && g.active(2)) { b.kb -= w; b.ke += w; }
  return b;
}

constexpr ArraySpec kUctArrays[] = {{"fv_mhd_uct_x", kUctVars}, {"fv_mhd_uct_y", kUctVars}, {"fv_mhd_uct_z", kUctVars}};

// The face frame of axis d: slot of the 8-variable state for each of the
// seven face-frame variables (rho, v_n, v_t1, v_t2, p, b_t1, b_t2).
KOKKOS_INLINE_FUNCTION int frame_slot(int d, int s) {
  return s < NHYDRO ? face_slot(d, s) : IB1 + (d + s - 4) % 3;
}

void compute_primitives(const IdealGas& eos, const Grid& g, const Array4& u, const Array4& w) {
  par_for("fv_mhd_prim", g.all_cells(), KOKKOS_LAMBDA(int k, int j, int i) {
    Real uc[NMHD], wc[NMHD];
    for (int n = 0; n < NMHD; ++n) uc[n] = u(n, k, j, i);
    mhd_cons_to_prim(eos, uc, wc);
    for (int n = 0; n < NMHD; ++n) w(n, k, j, i) = wc[n];
  });
}

template <Limiter L>
void compute_slopes(const Grid& g, int d, int widen, const Array4& w, const Array4& slope) {
  const int di = d == 0, dj = d == 1, dk = d == 2;
  Box box = g.interior_plus(widen);  // the face states' cells; along d one layer is enough
  if (d == 0) { box.ib = g.is(0) - 1; box.ie = g.ie(0) + 1; }
  if (d == 1) { box.jb = g.is(1) - 1; box.je = g.ie(1) + 1; }
  if (d == 2) { box.kb = g.is(2) - 1; box.ke = g.ie(2) + 1; }
  par_for("fv_mhd_slopes", box, KOKKOS_LAMBDA(int k, int j, int i) {
    auto dl = [&](int n) { return w(n, k, j, i) - w(n, k - dk, j - dj, i - di); };
    auto dr = [&](int n) { return w(n, k + dk, j + dj, i + di) - w(n, k, j, i); };
    // The seven face-frame variables of d together, as every path; the
    // normal field's slope (unused by the faces) alone.
    Real l[NWAVE_FACE], r[NWAVE_FACE], s[NWAVE_FACE];
    for (int f = 0; f < NWAVE_FACE; ++f) {
      l[f] = dl(frame_slot(d, f));
      r[f] = dr(frame_slot(d, f));
    }
    limited_slopes<L, NWAVE_FACE>(l, r, s);
    for (int f = 0; f < NWAVE_FACE; ++f) slope(frame_slot(d, f), k, j, i) = s[f];
    slope(IB1 + d, k, j, i) = limited_slope<L>(dl(IB1 + d), dr(IB1 + d));
  });
}

void compute_face_states(const Box& box, int d, int order, const Array4& w, const Array4& slope,
                         const Array4& wl, const Array4& wr) {
  const int di = d == 0, dj = d == 1, dk = d == 2;
  const bool plm = order == 2;
  par_for("fv_mhd_face_states", box, KOKKOS_LAMBDA(int k, int j, int i) {
    for (int n = 0; n < NMHD; ++n) {
      const Real left = w(n, k - dk, j - dj, i - di), right = w(n, k, j, i);
      wl(n, k, j, i) = plm ? plm_upper(left, slope(n, k - dk, j - dj, i - di)) : left;
      wr(n, k, j, i) = plm ? plm_lower(right, slope(n, k, j, i)) : right;
    }
  });
}

// The face frame of axis d: (rho, v_n, v_t1, v_t2, p, b_t1, b_t2), with
// (t1, t2) = ((d + 1) % 3, (d + 2) % 3); the normal field is the face's.
template <MhdRiemannSolver RS>
void compute_fluxes(const IdealGas& eos, const Box& box, int d, const Array4& wl, const Array4& wr,
                    const Array4& bface, const Array4& flux) {
  par_for("fv_mhd_riemann", box, KOKKOS_LAMBDA(int k, int j, int i) {
    Real l[NWAVE_FACE], r[NWAVE_FACE], f[NWAVE_FACE];
    for (int s = 0; s < NWAVE_FACE; ++s) {
      l[s] = wl(frame_slot(d, s), k, j, i);
      r[s] = wr(frame_slot(d, s), k, j, i);
    }
    mhd_riemann_flux<RS>(eos, l, r, bface(0, k, j, i), f);
    for (int s = 0; s < NHYDRO; ++s) flux(face_slot(d, s), k, j, i) = f[s];
    flux(5, k, j, i) = f[5];
    flux(6, k, j, i) = f[6];
  });
}

// UCT coefficients of the faces (ct/uct.hpp) from the same face states.
template <bool HLLD>
void compute_uct_coefficients(const IdealGas& eos, const Box& box, int d, const Array4& wl, const Array4& wr,
                              const Array4& bface, const Array4& uct) {
  par_for("fv_mhd_uct_coefficients", box, KOKKOS_LAMBDA(int k, int j, int i) {
    Real l[NWAVE_FACE], r[NWAVE_FACE], c[kUctVars];
    for (int s = 0; s < NWAVE_FACE; ++s) {
      l[s] = wl(frame_slot(d, s), k, j, i);
      r[s] = wr(frame_slot(d, s), k, j, i);
    }
    uct_face_coefficients<HLLD>(eos, l, r, bface(0, k, j, i), c);
    for (int s = 0; s < kUctVars; ++s) uct(s, k, j, i) = c[s];
  });
}

void accumulate_divergence(const Grid& g, int d, const Array4& flux, const Array4& du) {
  const int di = d == 0, dj = d == 1, dk = d == 2;
  const Real inv_dx = Real(1) / g.dx[d];
  par_for("fv_mhd_divergence", g.interior(), KOKKOS_LAMBDA(int k, int j, int i) {
    for (int n = 0; n < NHYDRO; ++n)
      du(n, k, j, i) -= (flux(n, k + dk, j + dj, i + di) - flux(n, k, j, i)) * inv_dx;
  });
}

void update_cells(const Grid& g, Real a, Real b, Real c_dt, const Array4& u0, const Array4& in,
                  const Array4& out, const Array4& du) {
  par_for("fv_mhd_stage_update", g.interior(), KOKKOS_LAMBDA(int k, int j, int i) {
    for (int n = 0; n < NHYDRO; ++n)
      out(n, k, j, i) = stage_combination(a, u0(n, k, j, i), b, in(n, k, j, i), c_dt, du(n, k, j, i));
  });
}

}  // namespace

FvMhdNativeWorkspace::FvMhdNativeWorkspace(const Grid& g, bool with_uct) {
  Array4* slots[] = {&w,          &slope,        &wl,           &wr,           &flux[0],
                     &flux[1],    &flux[2],      &du,           &e_cell,       &face_e.e[0],
                     &face_e.e[1], &face_e.e[2], &edge_e.ec[0], &edge_e.ec[1], &edge_e.ec[2]};
  static_assert(sizeof(slots) / sizeof(slots[0]) == sizeof(kArrays) / sizeof(kArrays[0]));
  int n = 0;
  for (const ArraySpec& a : kArrays) {
    *slots[n] = g.make_array(a.name, a.nvar);
    // Edges and faces of inactive axes are read at index 0 only; every
    // array starts defined so no kernel reads garbage there.
    Kokkos::deep_copy(*slots[n], Real(0));
    ++n;
  }
  for (int d = 0; with_uct && d < 3; ++d) {
    uct[d] = g.make_array(kUctArrays[d].name, kUctArrays[d].nvar);
    Kokkos::deep_copy(uct[d], Real(0));
  }
}

std::int64_t FvMhdNativeWorkspace::planned_bytes(const Grid& g, bool with_uct) {
  std::int64_t b = 0;
  for (const ArraySpec& a : kArrays) b += g.array_bytes(a.nvar);
  for (int d = 0; with_uct && d < 3; ++d) b += g.array_bytes(kUctArrays[d].nvar);
  return b;
}

std::int64_t FvMhdNativeWorkspace::bytes() const {
  std::int64_t b = 0;
  for (const Array4* a : {&w, &slope, &wl, &wr, &flux[0], &flux[1], &flux[2], &du, &e_cell, &face_e.e[0],
                          &face_e.e[1], &face_e.e[2], &edge_e.ec[0], &edge_e.ec[1], &edge_e.ec[2], &uct[0],
                          &uct[1], &uct[2]})
    b += std::int64_t(a->span());
  return b * std::int64_t(sizeof(Real));
}

long long fv_mhd_stage_native(const FvOptions& opt, const Grid& g, int order, Real a, Real b, Real c_dt,
                              const Floors& floors, const State& u0, const State& in, const State& out,
                              FvMhdNativeWorkspace& ws) {
  const bool uct = opt.corner_emf == CornerEmf::uct_hlld;
  compute_primitives(opt.eos, g, in.u, ws.w);
  Kokkos::deep_copy(ws.du, Real(0));
  for (int d = 0; d < 3; ++d) {
    if (!g.active(d)) continue;
    const Box faces = flux_box(g, d, uct ? 2 : 1);
    if (order == 2)
      with_limiter(opt.limiter, [&](auto L) { compute_slopes<decltype(L)::value>(g, d, uct ? 2 : 1, ws.w, ws.slope); });
    compute_face_states(faces, d, order, ws.w, ws.slope, ws.wl, ws.wr);
    with_mhd_riemann(opt.mhd_riemann, [&](auto R) {
      compute_fluxes<decltype(R)::value>(opt.eos, faces, d, ws.wl, ws.wr, in.b[d], ws.flux[d]);
    });
    ct_face_emfs(faces, ws.flux[d], ws.face_e.e[d]);  // CT stage 1
    if (uct && opt.mhd_riemann == MhdRiemannSolver::hlld)
      compute_uct_coefficients<true>(opt.eos, faces, d, ws.wl, ws.wr, in.b[d], ws.uct[d]);
    else if (uct)
      compute_uct_coefficients<false>(opt.eos, faces, d, ws.wl, ws.wr, in.b[d], ws.uct[d]);
    accumulate_divergence(g, d, ws.flux[d], ws.du);
  }
  ct_cell_emfs(g.interior_plus(1), ws.w, ws.e_cell);
  if (uct)  // CT stage 2
    with_limiter(opt.limiter, [&](auto L) {
      ct_edge_emfs_uct<decltype(L)::value>(g, ws.face_e, ws.uct, in.b, ws.e_cell, ws.edge_e);
    });
  else
    ct_edge_emfs_gs05(g, ws.face_e, ws.flux, ws.e_cell, ws.edge_e);
  if (opt.gravity.on()) add_gravity(g, opt.gravity, Real(1), in.u, ws.du);
  update_cells(g, a, b, c_dt, u0.u, in.u, out.u, ws.du);
  ct_curl_update(g, a, b, c_dt, u0.b, in.b, ws.edge_e, out.b);  // CT stage 3
  ct_cell_centred_field(g, out.b, out.u);
  return mhd_apply_floors(g, opt.eos, floors, out.u);
}

}  // namespace ax
