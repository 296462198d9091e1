// The FD constrained transport at one point: each function is one step of
// ct/fd_ct.hpp at one face, edge or cell, reading its stencil from the
// arrays. The native kernels call one each; the fused kernels call them on
// values they keep in registers or recompute, with the same expressions.
// Points are (i, j, k) index triples; `p[e] + o` moves along axis e.
#pragma once

#include "backend/cell_field.hpp"
#include "backend/grid.hpp"
#include "ct/fd_ct_stencils.hpp"

namespace ax {

struct CtAxes {
  bool active[3];
  explicit CtAxes(const Grid& g) : active{g.active(0), g.active(1), g.active(2)} {}
  // Whether the field filter acts on the edges along c: their plane has two
  // active axes (fd_edge_filter says why).
  KOKKOS_INLINE_FUNCTION bool filtered_edge(int c) const { return active[(c + 1) % 3] && active[(c + 2) % 3]; }
};

// a(n) at p moved by o along axis e.
KOKKOS_FORCEINLINE_FUNCTION Real ct_at(const Array4& a, int n, const int p[3], int e, int o) {
  return a(n, p[2] + (e == 2) * o, p[1] + (e == 1) * o, p[0] + (e == 0) * o);
}

// Sixth-order cell-centred B_d at cell p from the faces normal to d; along
// an inactive d the face value.
KOKKOS_INLINE_FUNCTION Real fd_cell_field(const CtAxes& ax, const Array4& bd, int d, const int p[3]) {
  if (!ax.active[d]) return bd(0, p[2], p[1], p[0]);
  return ct_i6(ct_at(bd, 0, p, d, -2), ct_at(bd, 0, p, d, -1), ct_at(bd, 0, p, d, 0), ct_at(bd, 0, p, d, 1),
               ct_at(bd, 0, p, d, 2), ct_at(bd, 0, p, d, 3));
}

// B_f v_v at the cell p moved by o along e: the product of the point
// values, interpolated as one quantity. v = m (1 / rho), as the WENO
// primitives form it, so the fused kernels take it from there and spend
// no division of their own.
KOKKOS_FORCEINLINE_FUNCTION Real ct_bv(const Array4& u, int f, int v, const int p[3], int e, int o) {
  return ct_at(u, IB1 + f, p, e, o) * (ct_at(u, IM1 + v, p, e, o) * (Real(1) / ct_at(u, IDN, p, e, o)));
}

// Stage 1 at the d-face p, transverse component s (0: t1, 1: t2):
// F*_d(B_t) = F_d(B_t) + I4_d(B_d v_t); along an inactive d, v_d B_t at the cell.
KOKKOS_INLINE_FUNCTION Real fd_modified_flux(const CtAxes& ax, const Array4& u, const Array4& flux, int d, int s,
                                             const int p[3]) {
  const int t = (d + 1 + s) % 3;
  if (!ax.active[d]) return ct_bv(u, t, d, p, d, 0);
  const Real i4 = ct_i4(ct_bv(u, d, t, p, d, -2), ct_bv(u, d, t, p, d, -1), ct_bv(u, d, t, p, d, 0),
                        ct_bv(u, d, t, p, d, 1));
  return flux(IB1 + t, p[2], p[1], p[0]) + i4;
}

// I4 along e of slot s of a, to the face p (identity along an inactive e).
KOKKOS_FORCEINLINE_FUNCTION Real ct_i4_along(const CtAxes& ax, const Array4& a, int s, int e, const int p[3]) {
  if (!ax.active[e]) return a(s, p[2], p[1], p[0]);
  return ct_i4(ct_at(a, s, p, e, -2), ct_at(a, s, p, e, -1), ct_at(a, s, p, e, 0), ct_at(a, s, p, e, 1));
}

// Stage 2 at the edge p along c = the third axis of (a, b):
// Omega_c = I4_a(F*_b(B_a)) - I4_b(F*_a(B_b)). F*_b(B_a) is slot 1 of the
// b-faces (a = t2 of b), F*_a(B_b) slot 0 of the a-faces (b = t1 of a).
KOKKOS_INLINE_FUNCTION Real fd_edge_emf(const CtAxes& ax, const Array4& fstar_a, const Array4& fstar_b, int a,
                                        int b, const int p[3]) {
  return ct_i4_along(ax, fstar_b, 1, a, p) - ct_i4_along(ax, fstar_a, 0, b, p);
}

// Stage 3a at the edge p: point value to average over the edge's plane (a, b).
KOKKOS_INLINE_FUNCTION Real fd_edge_average(const CtAxes& ax, const Array4& om, int a, int b, const int p[3]) {
  const Real q = om(0, p[2], p[1], p[0]);
  Real r = q;
  if (ax.active[a]) r += ct_average_part(ct_at(om, 0, p, a, -1), q, ct_at(om, 0, p, a, 1));
  if (ax.active[b]) r += ct_average_part(ct_at(om, 0, p, b, -1), q, ct_at(om, 0, p, b, 1));
  return r;
}

// The field filter (solver.field_filter, docs/fd_mhd.md "Field filter").
// The faces can hold a mode the cells never see: a face component
// alternating in sign along its own normal, which the symmetric I6
// cancels, so no flux of HOW-MHD's moves it. The filter
// adds nu HP(J_c) to the averaged EMF, J = curl B from the faces beside the
// edge and HP the sixth difference over the edge's plane, which is 1 on
// the grid's alternation and (k dx / 2)^6 on smooth fields. Its update
// -curl(nu HP J) only damps (every Fourier mode of the D6-solenoidal
// faces decays, none grows) and, being a curl, keeps D6 . b.
//
// J_c at the edge p from 2-point differences of the faces either side:
// dB_b/da - dB_a/db (idx: 1 / dx per axis).
KOKKOS_INLINE_FUNCTION Real fd_edge_current(const CtAxes& ax, const Array4& ba, const Array4& bb, int a, int b,
                                            const Real idx[3], const int p[3]) {
  Real j = 0;
  if (ax.active[a]) j += (bb(0, p[2], p[1], p[0]) - ct_at(bb, 0, p, a, -1)) * idx[a];
  if (ax.active[b]) j -= (ba(0, p[2], p[1], p[0]) - ct_at(ba, 0, p, b, -1)) * idx[b];
  return j;
}

// The sixth differences of the currents J_c (slot s of jc, formed by
// fd_edge_current on the edges three out along the plane) along the two
// axes of the edge's plane, summed: (20 J - 15 J(+-1) + 6 J(+-2) - J(+-3)) / 64
// each. Only edges whose plane has both axes active are filtered
// (CtAxes::filtered_edge; fd_field_filter_nu is 0 with fewer than two): the mode lives in a face
// component alternating along its active normal, balanced by another
// active one, and elsewhere the filter would only add dissipation (Brio &
// Wu's energy moved in the fourth digit).
KOKKOS_INLINE_FUNCTION Real fd_edge_filter(const CtAxes& ax, const Array4& jc, int s, int a, int b,
                                           const int p[3]) {
  if (!ax.filtered_edge(3 - a - b)) return 0;  // the edge along the third axis
  const Real j0 = jc(s, p[2], p[1], p[0]);
  const int plane[2] = {a, b};
  Real h = 0;
  for (int e : plane)
    h += Real(20) * j0 - Real(15) * (ct_at(jc, s, p, e, -1) + ct_at(jc, s, p, e, 1)) +
         Real(6) * (ct_at(jc, s, p, e, -2) + ct_at(jc, s, p, e, 2)) - (ct_at(jc, s, p, e, -3) + ct_at(jc, s, p, e, 3));
  return h * (Real(1) / Real(64));
}

// The filter's coefficient nu = field_filter dx_min^2 S, S the largest sum
// over axes of signal speed / dx (cfl / the CFL step): the grid's
// alternation along one axis decays at about 5 field_filter S, the same per
// unit time whatever the CFL number or a step cut short. A step of the CFL
// size damps it by 5 field_filter cfl. 0 with fewer than two active axes.
inline Real fd_field_filter_nu(const Grid& g, Real field_filter, Real signal_rate) {
  Real dx = 0;
  int active = 0;
  for (int d = 0; d < 3; ++d)
    if (g.active(d)) {
      ++active;
      if (dx == 0 || g.dx[d] < dx) dx = g.dx[d];
    }
  return field_filter > 0 && signal_rate > 0 && active >= 2 ? field_filter * dx * dx * signal_rate : Real(0);
}

// D6 along e of slot 0 of a at cell p (edges / faces p-2 .. p+3 along e).
KOKKOS_FORCEINLINE_FUNCTION Real ct_d6_along(const Array4& a, int e, const int p[3]) {
  return ct_d6(ct_at(a, 0, p, e, -2), ct_at(a, 0, p, e, -1), ct_at(a, 0, p, e, 0), ct_at(a, 0, p, e, 1),
               ct_at(a, 0, p, e, 2), ct_at(a, 0, p, e, 3));
}
KOKKOS_INLINE_FUNCTION Real fd_face_d6(const Array4& bd, int d, const int p[3]) { return ct_d6_along(bd, d, p); }

// Stage 3b at the d-face p: dt (-curl Omega_bar)_d =
// -dt/dx_t1 D6_t1(Omega_bar_t2) + dt/dx_t2 D6_t2(Omega_bar_t1); o1, o2 the
// averaged EMFs along t1, t2. Along an inactive d the edges sit at index 0.
KOKKOS_INLINE_FUNCTION Real fd_face_curl(const CtAxes& ax, const Array4& o1, const Array4& o2, int d, Real dt1,
                                         Real dt2, const int p_face[3]) {
  const int t1 = (d + 1) % 3, t2 = (d + 2) % 3;
  int p[3] = {p_face[0], p_face[1], p_face[2]};
  if (!ax.active[d]) p[d] = 0;
  Real v = 0;
  if (ax.active[t1]) v -= dt1 * ct_d6_along(o2, t1, p);
  if (ax.active[t2]) v += dt2 * ct_d6_along(o1, t2, p);
  return v;
}

}  // namespace ax
