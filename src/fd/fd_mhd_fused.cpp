#include "fd/fd_mhd_fused.hpp"

#include "ct/fd_ct.hpp"
#include "ct/fd_ct_point.hpp"
#include "fd/fd_stage.hpp"
#include "fd/weno_mhd.hpp"

namespace ax {

FdMhdFusedWorkspace::FdMhdFusedWorkspace(const Grid& g, bool segments_, bool store_k_)
    : segments(segments_), store_k(store_k_), hits("fd_mhd_fused_hits") {
  for (int d = 0; d < 3; ++d) {
    fstar[d] = make_node_array(g, "fd_mhd_fstar", 2);
    omega[d] = make_node_array(g, "fd_mhd_omega", 1);
    Kokkos::deep_copy(fstar[d], Real(0));
    Kokkos::deep_copy(omega[d], Real(0));
  }
}

std::int64_t FdMhdFusedWorkspace::planned_bytes(const Grid& g) {
  return 3 * (node_array_bytes(g, 2) + node_array_bytes(g, 1));
}

std::int64_t FdMhdFusedWorkspace::bytes() const {
  std::int64_t b = 0;
  for (int d = 0; d < 3; ++d) b += std::int64_t(fstar[d].span() + omega[d].span());
  return b * std::int64_t(sizeof(Real));
}

namespace fd_mhd_fused_detail {

// One cell of the register stencil: its face-frame conserved state, the
// primitives, flux and wave speeds, and B_d v_t of the modified fluxes.
struct StencilCell {
  Real u[8], w[8], f[8], lam[NMHD_WAVES], bv[2];
};

KOKKOS_FORCEINLINE_FUNCTION void load_cell(const IdealGas& eos, const Array4& u, int d, int k, int j, int i,
                                           StencilCell& c) {
  for (int s = 0; s < 8; ++s) c.u[s] = u(mhd_face_slot(d, s), k, j, i);
  mhd_cell_flux(eos, c.u, c.w, c.f, c.lam);
  // As ct_bv: B_d v_t of the cell, v_t from the primitives.
  for (int s = 0; s < 2; ++s) c.bv[s] = c.u[kMhdN] * c.w[2 + s];
}

// Axis d: pencils along d over fd_mhd_flux_box; `last` ends the stage.
template <WenoWeights W>
long long pencils(const FdOptions& o, const Grid& g, int d, bool first, bool last, bool store_k,
                  const Stage& st, Real dt, const Floors& floors, const State& u0, const State& in,
                  const State& out, const State& r, const Array4& kacc, const Array4& fstar) {
  const FdOptions opt = o;
  const IdealGas eos = o.eos;
  const Gravity grav = o.gravity;
  const Box faces = fd_mhd_flux_box(g, d);
  Box lines = faces;
  int lo = 0, hi = 0;
  if (d == 0) { lo = faces.ib; hi = faces.ie; lines.ie = lines.ib + 1; }
  if (d == 1) { lo = faces.jb; hi = faces.je; lines.je = lines.jb + 1; }
  if (d == 2) { lo = faces.kb; hi = faces.ke; lines.ke = lines.kb + 1; }
  const Box inner = g.interior();
  const int ilo0 = inner.ib, ilo1 = inner.jb, ilo2 = inner.kb, ihi0 = inner.ie, ihi1 = inner.je, ihi2 = inner.ke;
  const int is = g.is(d), ie = g.ie(d);
  const Real dtdx = dt / g.dx[d], A = st.A;
  const bool read_u0 = stage_reads_u0(st), read_r = stage_reads_r(st), read_k = stage_reads_k(st);
  const Array4 u = in.u, a0 = u0.u, ar = r.u, ao = out.u;
  long long hits = 0;
  par_reduce("fd_mhd_fused_pencils", lines, KOKKOS_LAMBDA(int k, int j, int i, long long& n_hit) {
    int p[3] = {i, j, k};
    const int ilo[3] = {ilo0, ilo1, ilo2}, ihi[3] = {ihi0, ihi1, ihi2};
    // Pencils outside the interior only feed constrained transport.
    bool inside = true;
    for (int e = 0; e < 3; ++e)
      if (e != d && (p[e] < ilo[e] || p[e] >= ihi[e])) inside = false;
    StencilCell c[kWenoStencil];
    // Cells lo-3 .. lo+1 into slots 0..4; each face loads the sixth.
    for (int m = 0; m < kWenoStencil - 1; ++m) {
      p[d] = lo - 3 + m;
      load_cell(eos, u, d, p[2], p[1], p[0], c[m]);
    }
    Real prev[8];
    for (int f = lo; f < hi; ++f) {
      p[d] = f + 2;
      load_cell(eos, u, d, p[2], p[1], p[0], c[kWenoStencil - 1]);
      p[d] = f;
      Real uu[kWenoStencil][8], ww[kWenoStencil][8], ff[kWenoStencil][8], ll[kWenoStencil][NMHD_WAVES];
      for (int m = 0; m < kWenoStencil; ++m) {
        for (int s = 0; s < 8; ++s) {
          uu[m][s] = c[m].u[s];
          ww[m][s] = c[m].w[s];
          ff[m][s] = c[m].f[s];
        }
        for (int s = 0; s < NMHD_WAVES; ++s) ll[m][s] = c[m].lam[s];
      }
      Real fhat[8];
      mhd_weno_face_flux<W>(opt, uu, ww, ff, ll, fhat);
      // Stage 1 of the constrained transport (fd_modified_flux): cells
      // f-2 .. f+1 are slots 1..4.
      for (int s = 0; s < 2; ++s)
        fstar(s, p[2], p[1], p[0]) = fhat[kMhdT1 + s] + ct_i4(c[1].bv[s], c[2].bv[s], c[3].bv[s], c[4].bv[s]);
      if (inside && f > is && f <= ie) {
        // The cell below this face has both its fluxes.
        p[d] = f - 1;
        Real kv[NMHD];
        for (int s = 0; s < 8; ++s) {
          const int n = mhd_face_slot(d, s);
          const Real dv = flux_difference(dtdx, prev[s], fhat[s]);
          kv[n] = first ? start_increment(A, read_k ? kacc(n, p[2], p[1], p[0]) : Real(0), dv)
                        : kacc(n, p[2], p[1], p[0]) + dv;
        }
        // Gravity after every axis' flux differences, as the native path.
        if (last)
          add_gravity_to(grav, dt, u(IDN, p[2], p[1], p[0]), u(IM1, p[2], p[1], p[0]), u(IM2, p[2], p[1], p[0]),
                         u(IM3, p[2], p[1], p[0]), kv);
        if (!last || store_k)  // the 2N scheme's next stage reads K
          for (int n = 0; n < NMHD; ++n) kacc(n, p[2], p[1], p[0]) = kv[n];
        if (last) {
          // K is complete: end the stage at this cell.
          if (finish_stage_cell<NMHD>(st, read_u0, read_r, eos, floors, a0, u, ar, ao, kv, p[2], p[1], p[0])) ++n_hit;
        }
      }
      for (int s = 0; s < 8; ++s) prev[s] = fhat[s];
      for (int m = 0; m < kWenoStencil - 1; ++m) c[m] = c[m + 1];
    }
  }, Kokkos::Sum<long long>(hits));
  return hits;
}

// The smallest box holding a and b.
Box box_hull(const Box& a, const Box& b) {
  Box h = a;
  h.ib = b.ib < h.ib ? b.ib : h.ib; h.ie = b.ie > h.ie ? b.ie : h.ie;
  h.jb = b.jb < h.jb ? b.jb : h.jb; h.je = b.je > h.je ? b.je : h.je;
  h.kb = b.kb < h.kb ? b.kb : h.kb; h.ke = b.ke > h.ke ? b.ke : h.ke;
  return h;
}

// The union of the three edge axes' boxes fd_ct_edge_box(g, c, w).
Box edge_union(const Grid& g, int w) {
  return box_hull(box_hull(fd_ct_edge_box(g, 0, w), fd_ct_edge_box(g, 1, w)), fd_ct_edge_box(g, 2, w));
}

KOKKOS_FORCEINLINE_FUNCTION bool in_box(const Box& b, int k, int j, int i) {
  return k >= b.kb && k < b.ke && j >= b.jb && j < b.je && i >= b.ib && i < b.ie;
}

// Stage 2 for the three edge axes in one kernel, over the union of their boxes.
void edge_emfs(const Grid& g, const Array4 fstar[3], const Array4 omega[3]) {
  const CtAxes ax(g);
  const Box b0 = fd_ct_edge_box(g, 0, 3), b1 = fd_ct_edge_box(g, 1, 3), b2 = fd_ct_edge_box(g, 2, 3);
  const Array4 f0 = fstar[0], f1 = fstar[1], f2 = fstar[2], o0 = omega[0], o1 = omega[1], o2 = omega[2];
  par_for("fd_mhd_fused_edge_emfs", edge_union(g, 3), KOKKOS_LAMBDA(int k, int j, int i) {
    const int p[3] = {i, j, k};
    if (in_box(b0, k, j, i)) o0(0, k, j, i) = fd_edge_emf(ax, f1, f2, 1, 2, p);
    if (in_box(b1, k, j, i)) o1(0, k, j, i) = fd_edge_emf(ax, f2, f0, 2, 0, p);
    if (in_box(b2, k, j, i)) o2(0, k, j, i) = fd_edge_emf(ax, f0, f1, 0, 1, p);
  });
}

// The field filter's edge currents for the three edge axes in one kernel,
// into slot 1 of the modified-flux arrays (dead once the EMFs are formed).
// Formed inside the averages instead, 13 a component and edge, the CPU
// step took 30% longer (64^3 blast, one core).
void edge_currents(const Grid& g, const FaceField& bf, const Array4 jc[3]) {
  const CtAxes ax(g);
  const Box b0 = fd_ct_edge_box(g, 0, 5), b1 = fd_ct_edge_box(g, 1, 5), b2 = fd_ct_edge_box(g, 2, 5);
  const Array4 f0 = bf[0], f1 = bf[1], f2 = bf[2], j0 = jc[0], j1 = jc[1], j2 = jc[2];
  const Real idx[3] = {1 / g.dx[0], 1 / g.dx[1], 1 / g.dx[2]};
  const bool use[3] = {ax.filtered_edge(0), ax.filtered_edge(1), ax.filtered_edge(2)};
  par_for("fd_mhd_fused_edge_currents", edge_union(g, 5), KOKKOS_LAMBDA(int k, int j, int i) {
    const int p[3] = {i, j, k};
    if (use[0] && in_box(b0, k, j, i)) j0(1, k, j, i) = fd_edge_current(ax, f1, f2, 1, 2, idx, p);
    if (use[1] && in_box(b1, k, j, i)) j1(1, k, j, i) = fd_edge_current(ax, f2, f0, 2, 0, idx, p);
    if (use[2] && in_box(b2, k, j, i)) j2(1, k, j, i) = fd_edge_current(ax, f0, f1, 0, 1, idx, p);
  });
}

// Stage 3a for the three edge axes in one kernel: the averaged EMFs into
// slot 0 of `bar`. The fused stage passes the modified-flux arrays, dead
// once the EMFs are formed, so the averages cost no memory. Formed on the
// fly inside the curl instead (30 loads of Omega a D6), the curl and
// finish took 20.4 of 217 ms a step on the H200 (256^3 MHD blast, lsrk4,
// Nsight at base clock); stored, the whole step went from 8.76e7 to
// 9.19e7 cell-updates/s in one lease. With the field filter (nu > 0) its
// term is added, from the currents in slot 1 of `bar`.
void edge_averages(const Grid& g, const Array4 omega[3], const Array4 bar[3], Real nu) {
  const CtAxes ax(g);
  const Box b0 = fd_ct_edge_box(g, 0, 2), b1 = fd_ct_edge_box(g, 1, 2), b2 = fd_ct_edge_box(g, 2, 2);
  const Array4 o0 = omega[0], o1 = omega[1], o2 = omega[2], a0 = bar[0], a1 = bar[1], a2 = bar[2];
  const bool filter = nu > 0;
  par_for("fd_mhd_fused_edge_averages", edge_union(g, 2), KOKKOS_LAMBDA(int k, int j, int i) {
    const int p[3] = {i, j, k};
    if (in_box(b0, k, j, i)) {
      Real v = fd_edge_average(ax, o0, 1, 2, p);
      if (filter) v += nu * fd_edge_filter(ax, a0, 1, 1, 2, p);
      a0(0, k, j, i) = v;
    }
    if (in_box(b1, k, j, i)) {
      Real v = fd_edge_average(ax, o1, 2, 0, p);
      if (filter) v += nu * fd_edge_filter(ax, a1, 1, 2, 0, p);
      a1(0, k, j, i) = v;
    }
    if (in_box(b2, k, j, i)) {
      Real v = fd_edge_average(ax, o2, 0, 1, p);
      if (filter) v += nu * fd_edge_filter(ax, a2, 1, 0, 1, p);
      a2(0, k, j, i) = v;
    }
  });
}

// Stage 3b and the end of the stage for the faces of the three axes in one
// kernel, from the averaged EMFs `bar`: each EMF array feeds two face
// components, read once from device memory for both. Three kernels, one a
// face axis, took 0.44 ms each on the H200 (256^3, lsrk4).
void curl_and_finish(const Grid& g, const Stage& st, Real dt, bool store_k, const FaceField& u0,
                     const FaceField& in, const FaceField& r, const FaceField& out,
                     const FaceField& kb, const Array4 bar[3]) {
  const CtAxes ax(g);
  const Real dtdx[3] = {dt / g.dx[0], dt / g.dx[1], dt / g.dx[2]};
  const Real A = st.A;
  const bool read_u0 = stage_reads_u0(st), read_r = stage_reads_r(st), read_k = stage_reads_k(st);
  const Box fb[3] = {ct_interior_faces(g, 0), ct_interior_faces(g, 1), ct_interior_faces(g, 2)};
  const Box all = box_hull(box_hull(fb[0], fb[1]), fb[2]);
  const FaceField a0 = u0, ai = in, ar = r, ao = out, ak = kb;
  const Array4 o0 = bar[0], o1 = bar[1], o2 = bar[2];
  const bool set_r = st.set_r;
  // One face component d at p; d is a constant in each call below.
  auto face = KOKKOS_LAMBDA(int d, const Array4& e1, const Array4& e2, const int p[3]) {
    const int k = p[2], j = p[1], i = p[0];
    const Real kv =
        start_increment(A, read_k ? ak[d](0, k, j, i) : Real(0),
                        fd_face_curl(ax, e1, e2, d, dtdx[(d + 1) % 3], dtdx[(d + 2) % 3], p));
    if (store_k) ak[d](0, k, j, i) = kv;  // the 2N scheme's next stage reads K
    const Real x = ai[d](0, k, j, i);
    Real rv = read_r ? ar[d](0, k, j, i) : Real(0);
    if (set_r) {
      rv = stage_register(st, rv, x, kv);
      ar[d](0, k, j, i) = rv;
    }
    ao[d](0, k, j, i) = stage_output(st, read_u0 ? a0[d](0, k, j, i) : Real(0), x, kv, rv);
  };
  par_for("fd_mhd_fused_curl", all, KOKKOS_LAMBDA(int k, int j, int i) {
    const int p[3] = {i, j, k};
    if (in_box(fb[0], k, j, i)) face(0, o1, o2, p);  // B_d from the EMFs along d + 1 and d + 2
    if (in_box(fb[1], k, j, i)) face(1, o2, o0, p);
    if (in_box(fb[2], k, j, i)) face(2, o0, o1, p);
  });
}

}  // namespace fd_mhd_fused_detail

using namespace fd_mhd_fused_detail;

long long fd_mhd_stage_fused(const FdOptions& opt, const Grid& g, const Stage& st, Real dt, Real nu,
                             const Floors& floors,
                             const State& u0, const State& in, const State& out, const State& r, const Array4& k,
                             const FaceField& kb, FdMhdFusedWorkspace& ws) {
  int last = 0;
  for (int d = 0; d < 3; ++d)
    if (g.active(d)) {
      last = d;
      break;
    }
  // Modified fluxes along inactive axes: v_d B_t at the cells (stage 1), before
  // the last pencils overwrite `in` (2N schemes write in place).
  const CtAxes ax(g);
  for (int d = 0; d < 3; ++d) {
    if (g.active(d)) continue;
    const Array4 u = in.u, fs = ws.fstar[d];
    par_for("fd_mhd_fused_inactive_fstar", fd_mhd_flux_box(g, d), KOKKOS_LAMBDA(int kk, int j, int i) {
      const int p[3] = {i, j, kk};
      for (int s = 0; s < 2; ++s) fs(s, kk, j, i) = fd_modified_flux(ax, u, u, d, s, p);
    });
  }
  long long hits = 0;
  bool first = true;
  // A segment reads three cells of its neighbours along the axis: with a
  // 2N scheme (out = in) the last axis' segments cannot write the cells
  // before the next segment has copied them, and the stage ends in a kernel
  // of its own. Ended in place instead (the last three cells' writes
  // waiting for that copy, the cells' state copied ahead as K), the x
  // kernel took 7.9 ms against 6.5 ms and the finish kernel's 1.4 ms: 1.33e8
  // against 1.37e8 cell-updates/s (H200, 256^3, lsrk4, one lease); with the
  // update phase a thread per cell and variable 1.35e8. FD hydro, whose
  // finish is simpler, gains from it (fd_fused_segments.cpp).
  const bool apart = ws.segments && out.u.data() == in.u.data();
  for (int d = 2; d >= 0; --d) {
    if (!g.active(d)) continue;
    if (ws.segments)
      hits += fd_mhd_segments(opt, g, d, first, d == last && !apart, ws.store_k, st, dt, floors, u0,
                              in, out, r, k, ws.fstar[d], ws.hits);
    else if (opt.weights == WenoWeights::z)
      hits += pencils<WenoWeights::z>(opt, g, d, first, d == last, ws.store_k, st, dt, floors, u0,
                                      in, out, r, k, ws.fstar[d]);
    else
      hits += pencils<WenoWeights::js>(opt, g, d, first, d == last, ws.store_k, st, dt, floors, u0,
                                       in, out, r, k, ws.fstar[d]);
    first = false;
  }
  if (apart) {
    // The segments left K without gravity's source: the native path's kernel adds it.
    if (opt.gravity.on()) add_gravity(g, opt.gravity, dt, in.u, k);
    hits += finish_stage<NMHD>(g, st, opt.eos, floors, u0.u, in.u, r.u, out.u, k);
  }
  edge_emfs(g, ws.fstar, ws.omega);
  if (nu > 0) edge_currents(g, in.b, ws.fstar);
  edge_averages(g, ws.omega, ws.fstar, nu);
  curl_and_finish(g, st, dt, ws.store_k, u0.b, in.b, r.b, out.b, kb, ws.fstar);
  return hits;
}

}  // namespace ax
