// Native FD constrained transport: one simple kernel per step of
// ct/fd_ct.hpp over full-size node arrays.
#include <algorithm>

#include "backend/kokkos_compat.hpp"
#include "ct/fd_ct.hpp"
#include "ct/fd_ct_point.hpp"
#include "ct/fd_ct_stencils.hpp"
#include "time/stage_combination.hpp"

namespace ax {

Box fd_mhd_flux_box(const Grid& g, int d) {
  Box b = g.interior();
  int* lo[3] = {&b.ib, &b.jb, &b.kb};
  int* hi[3] = {&b.ie, &b.je, &b.ke};
  for (int e = 0; e < 3; ++e) {
    if (!g.active(e)) continue;
    const int w = e == d ? 3 : 5;
    *lo[e] -= w;
    *hi[e] += e == d ? w + 1 : w;
  }
  return b;
}

Box fd_ct_edge_box(const Grid& g, int c, int w) {
  Box b = g.interior();
  int* lo[3] = {&b.ib, &b.jb, &b.kb};
  int* hi[3] = {&b.ie, &b.je, &b.ke};
  for (int e = 0; e < 3; ++e) {
    if (e == c || !g.active(e)) continue;
    *lo[e] -= w;
    *hi[e] += w + 1;
  }
  return b;
}

Box ct_interior_faces(const Grid& g, int d) {
  Box b = g.interior();
  if (d == 0) b.ie = g.active(0) ? b.ie + 1 : 2;
  if (d == 1) b.je = g.active(1) ? b.je + 1 : 2;
  if (d == 2) b.ke = g.active(2) ? b.ke + 1 : 2;
  return b;
}

void fd_ct_cell_field(const Grid& g, const FaceField& b, const Array4& u, const Box& box) {
  const CtAxes ax(g);
  par_for("fd_ct_cell_field", box, KOKKOS_LAMBDA(int k, int j, int i) {
    const int p[3] = {i, j, k};
    Real bc[3];
    for (int d = 0; d < 3; ++d) bc[d] = fd_cell_field(ax, b[d], d, p);
    keep_pressure_set_field(u, k, j, i, bc);
  });
}

void fd_ct_modified_fluxes_native(const Grid& g, const Array4& u, const Array4 flux[3], const Array4 fstar[3]) {
  const CtAxes ax(g);
  for (int d = 0; d < 3; ++d) {
    const Array4 f = flux[d], out = fstar[d];
    par_for("fd_ct_modified_fluxes", fd_mhd_flux_box(g, d), KOKKOS_LAMBDA(int k, int j, int i) {
      const int p[3] = {i, j, k};
      for (int s = 0; s < 2; ++s) out(s, k, j, i) = fd_modified_flux(ax, u, f, d, s, p);
    });
  }
}

void fd_ct_edge_emfs_native(const Grid& g, const Array4 fstar[3], const Array4 omega[3]) {
  const CtAxes ax(g);
  for (int c = 0; c < 3; ++c) {
    const int a = (c + 1) % 3, b = (c + 2) % 3;
    const Array4 fa = fstar[a], fb = fstar[b], out = omega[c];
    par_for("fd_ct_edge_emfs", fd_ct_edge_box(g, c, 3), KOKKOS_LAMBDA(int k, int j, int i) {
      const int p[3] = {i, j, k};
      out(0, k, j, i) = fd_edge_emf(ax, fa, fb, a, b, p);
    });
  }
}

void fd_ct_edge_averages_native(const Grid& g, const Array4 omega[3], const Array4 omega_bar[3]) {
  const CtAxes ax(g);
  for (int c = 0; c < 3; ++c) {
    const int a = (c + 1) % 3, b = (c + 2) % 3;
    const Array4 om = omega[c], out = omega_bar[c];
    par_for("fd_ct_edge_averages", fd_ct_edge_box(g, c, 2), KOKKOS_LAMBDA(int k, int j, int i) {
      const int p[3] = {i, j, k};
      out(0, k, j, i) = fd_edge_average(ax, om, a, b, p);
    });
  }
}

void fd_ct_edge_currents_native(const Grid& g, const FaceField& bf, const Array4 jc[3]) {
  const CtAxes ax(g);
  const Real idx[3] = {1 / g.dx[0], 1 / g.dx[1], 1 / g.dx[2]};
  for (int c = 0; c < 3; ++c) {
    const int a = (c + 1) % 3, b = (c + 2) % 3;
    if (!ax.filtered_edge(c)) continue;
    const Array4 ba = bf[a], bb = bf[b], out = jc[c];
    par_for("fd_ct_edge_currents", fd_ct_edge_box(g, c, 5), KOKKOS_LAMBDA(int k, int j, int i) {
      const int p[3] = {i, j, k};
      out(1, k, j, i) = fd_edge_current(ax, ba, bb, a, b, idx, p);
    });
  }
}

void fd_ct_field_filter_native(const Grid& g, Real nu, const Array4 jc[3], const Array4 omega_bar[3]) {
  const CtAxes ax(g);
  for (int c = 0; c < 3; ++c) {
    const int a = (c + 1) % 3, b = (c + 2) % 3;
    if (!ax.filtered_edge(c)) continue;
    const Array4 cur = jc[c], out = omega_bar[c];
    par_for("fd_ct_field_filter", fd_ct_edge_box(g, c, 2), KOKKOS_LAMBDA(int k, int j, int i) {
      const int p[3] = {i, j, k};
      out(0, k, j, i) += nu * fd_edge_filter(ax, cur, 1, a, b, p);
    });
  }
}

void fd_ct_face_increments_native(const Grid& g, Real dt, Real A, const Array4 omega_bar[3], const FaceField& kb) {
  const CtAxes ax(g);
  for (int d = 0; d < 3; ++d) {
    const int t1 = (d + 1) % 3, t2 = (d + 2) % 3;
    const Array4 o1 = omega_bar[t1], o2 = omega_bar[t2], kd = kb[d];
    const Real dt1 = dt / g.dx[t1], dt2 = dt / g.dx[t2];
    par_for("fd_ct_face_increments", ct_interior_faces(g, d), KOKKOS_LAMBDA(int k, int j, int i) {
      const int p[3] = {i, j, k};
      const Real v = fd_face_curl(ax, o1, o2, d, dt1, dt2, p);
      kd(0, k, j, i) = start_increment(A, kd(0, k, j, i), v);
    });
  }
}

void fd_ct_finish_faces(const Grid& g, const Stage& st, const FaceField& u0, const FaceField& in,
                        const FaceField& r, const FaceField& out, const FaceField& kb) {
  const bool read_u0 = stage_reads_u0(st), read_r = stage_reads_r(st);
  for (int d = 0; d < 3; ++d) {
    const Array4 a0 = u0[d], ai = in[d], ar = r.allocated() ? r[d] : Array4(), ao = out[d], ak = kb[d];
    par_for("fd_ct_finish_faces", ct_interior_faces(g, d), KOKKOS_LAMBDA(int k, int j, int i) {
      const Real kv = ak(0, k, j, i), x = ai(0, k, j, i);
      Real rv = read_r ? ar(0, k, j, i) : Real(0);
      if (st.set_r) {
        rv = stage_register(st, rv, x, kv);
        ar(0, k, j, i) = rv;
      }
      ao(0, k, j, i) = stage_output(st, read_u0 ? a0(0, k, j, i) : Real(0), x, kv, rv);
    });
  }
}

Real fd_ct_local_div_b(const Grid& g, const FaceField& b, const bool wall[3][2], Real* bmax) {
  const CtAxes ax(g);
  Real dxmin = 0;
  for (int d = 0; d < 3; ++d)
    if (g.active(d) && (dxmin == 0 || g.dx[d] < dxmin)) dxmin = g.dx[d];
  const Real idx0 = 1 / g.dx[0], idx1 = 1 / g.dx[1], idx2 = 1 / g.dx[2];
  Real div = 0, big = 0;
  Box kept = g.interior();
  int* lo[3] = {&kept.ib, &kept.jb, &kept.kb};
  int* hi[3] = {&kept.ie, &kept.je, &kept.ke};
  for (int d = 0; d < 3; ++d) {
    if (!g.active(d)) continue;
    if (wall[d][0]) *lo[d] += 2;
    if (wall[d][1]) *hi[d] -= 3;
  }
  if (!kept.empty())
  par_reduce("fd_ct_div_b", kept, KOKKOS_LAMBDA(int k, int j, int i, Real& m) {
    const int p[3] = {i, j, k};
    const Real inv[3] = {idx0, idx1, idx2};
    Real s = 0;
    for (int d = 0; d < 3; ++d)
      if (ax.active[d]) s += fd_face_d6(b[d], d, p) * inv[d];
    m = math::fmax_nan_as_inf(m, math::fabs(s) * dxmin);
  }, Kokkos::Max<Real>(div));
  par_reduce("fd_ct_b_max", g.interior(), KOKKOS_LAMBDA(int k, int j, int i, Real& m) {
    const int p[3] = {i, j, k};
    Real b2 = 0;
    for (int d = 0; d < 3; ++d) {
      const Real bc = fd_cell_field(ax, b[d], d, p);
      b2 += bc * bc;
    }
    m = math::fmax_nan_as_inf(m, math::sqrt(b2));
  }, Kokkos::Max<Real>(big));
  *bmax = big;
  return div;
}

Real fd_ct_local_face_field_max(const Grid& g, const FaceField& b) {
  Real big = 0;
  for (int d = 0; d < 3; ++d) {
    const Array4 f = b[d];
    big = std::max(big, par_max("fd_ct_face_field_max", g.interior_along(d, 0, 1), Real(0),
                                KOKKOS_LAMBDA(int k, int j, int i) { return math::fabs(f(0, k, j, i)); }));
  }
  return big;
}

Real fd_ct_local_wall_normal_field(const Grid& g, const FaceField& b, int d, const bool wall[2]) {
  Real normal = 0;
  const Array4 f = b[d];
  for (int side = 0; side < 2 && g.active(d); ++side) {
    if (!wall[side]) continue;
    // The wall's plane of faces: the first face along d, or the last.
    const Box plane = side == 0 ? g.interior_along(d, 0, 1 - g.nx[d]) : g.interior_along(d, g.nx[d], 1);
    normal = std::max(normal, par_max("fd_ct_wall_normal_field", plane, Real(0),
                                      KOKKOS_LAMBDA(int k, int j, int i) { return math::fabs(f(0, k, j, i)); }));
  }
  return normal;
}

}  // namespace ax
