#include "ct/ct_native.hpp"

#include "backend/kokkos_compat.hpp"
#include "ct/ct_formulas.hpp"
#include "ct/fd_ct.hpp"
#include "ct/uct.hpp"
#include "fv/plm.hpp"

namespace ax {

Box ct_interior_edges(const Grid& g, int c) {
  Box b = g.interior();
  if (c != 0 && g.active(0)) b.ie += 1;
  if (c != 1 && g.active(1)) b.je += 1;
  if (c != 2 && g.active(2)) b.ke += 1;
  return b;
}

namespace {

// a(n) at (k, j, i) shifted down by the offsets o (i, j, k order).
KOKKOS_INLINE_FUNCTION Real at(const Array4& a, int n, int k, int j, int i, const int o[3]) {
  return a(n, k - o[2], j - o[1], i - o[0]);
}

}  // namespace

void ct_face_emfs(const Box& box, const Array4& flux, const Array4& face_e) {
  par_for("ct_face_emfs", box, KOKKOS_LAMBDA(int k, int j, int i) {
    Real e_t1, e_t2;
    face_emfs_from_fluxes(flux(5, k, j, i), flux(6, k, j, i), e_t1, e_t2);
    face_e(0, k, j, i) = e_t1;
    face_e(1, k, j, i) = e_t2;
  });
}

void ct_cell_emfs(const Box& box, const Array4& w, const Array4& e_cell) {
  par_for("ct_cell_emfs", box, KOKKOS_LAMBDA(int k, int j, int i) {
    Real wc[NMHD];
    for (int n = 0; n < NMHD; ++n) wc[n] = w(n, k, j, i);
    for (int c = 0; c < 3; ++c) e_cell(c, k, j, i) = cell_emf(wc, c);
  });
}

void ct_edge_emfs_gs05(const Grid& g, const FaceEmfs& face, const Array4 flux[3], const Array4& e_cell,
                       const EdgeEmfs& edge) {
  for (int c = 0; c < 3; ++c) {
    // The edge along c lies between the faces normal to p and to q. E_c is
    // E_t2 on p-faces (slot 1) and E_t1 on q-faces (slot 0).
    const int p = (c + 1) % 3, q = (c + 2) % 3;
    const bool ap = g.active(p), aq = g.active(q);
    int op[3] = {0, 0, 0}, oq[3] = {0, 0, 0};  // one cell down along p, along q
    op[p] = 1;
    oq[q] = 1;
    const int op0 = op[0], op1 = op[1], op2 = op[2], oq0 = oq[0], oq1 = oq[1], oq2 = oq[2];
    const Array4 ep = face.e[p], eq = face.e[q], fp = flux[p], fq = flux[q], out = edge.ec[c];
    par_for("ct_edge_emfs_gs05", ct_interior_edges(g, c), KOKKOS_LAMBDA(int k, int j, int i) {
      const int dp[3] = {op0, op1, op2}, dq[3] = {oq0, oq1, oq2};
      const int dpq[3] = {op0 + oq0, op1 + oq1, op2 + oq2};
      const int none[3] = {0, 0, 0};
      if (ap && aq) {
        // Corner (p - 1/2, q - 1/2); cells (p-1 | p) x (q-1 | q) around it.
        const Real cc_00 = at(e_cell, c, k, j, i, dpq), cc_10 = at(e_cell, c, k, j, i, dq);
        const Real cc_01 = at(e_cell, c, k, j, i, dp), cc_11 = e_cell(c, k, j, i);
        const Real eq_0 = at(eq, 0, k, j, i, dp), eq_1 = eq(0, k, j, i);  // q-faces at p-1, p
        const Real ep_0 = at(ep, 1, k, j, i, dq), ep_1 = ep(1, k, j, i);  // p-faces at q-1, q
        out(0, k, j, i) = gs05_edge_emf(cc_00, cc_10, cc_01, cc_11, eq_0, eq_1, ep_0, ep_1, at(fp, 0, k, j, i, dq),
                                        fp(0, k, j, i), at(fq, 0, k, j, i, dp), fq(0, k, j, i));
      } else if (ap) {
        out(0, k, j, i) = ep(1, k, j, i);
      } else if (aq) {
        out(0, k, j, i) = eq(0, k, j, i);
      } else {
        out(0, k, j, i) = at(e_cell, c, k, j, i, none);
      }
    });
  }
}

void ct_curl_update(const Grid& g, Real a, Real b, Real c_dt, const FaceField& u0, const FaceField& in,
                    const EdgeEmfs& edge, const FaceField& out) {
  const bool a0 = g.active(0), a1 = g.active(1), a2 = g.active(2);
  const Real r0 = Real(1) / g.dx[0], r1 = Real(1) / g.dx[1], r2 = Real(1) / g.dx[2];
  const Array4 e1 = edge.ec[0], e2 = edge.ec[1], e3 = edge.ec[2];
  // dB/dt = -curl E; along an inactive axis the two faces share edge 0.
  {
    const Array4 b0 = u0.x1f, bi = in.x1f, bo = out.x1f;
    par_for("ct_curl_x1f", ct_interior_faces(g, 0), KOKKOS_LAMBDA(int k, int j, int i) {
      const int x = a0 ? i : 0;
      // Neighbours along an inactive axis do not exist: read them only if active.
      const Real curl = face_curl(a1, e3(0, k, j, x), a1 ? e3(0, k, j + 1, x) : Real(0), r1, a2, e2(0, k, j, x),
                                  a2 ? e2(0, k + 1, j, x) : Real(0), r2);
      bo(0, k, j, i) = curl_update(a, b0(0, k, j, i), b, bi(0, k, j, i), c_dt, curl);
    });
  }
  {
    const Array4 b0 = u0.x2f, bi = in.x2f, bo = out.x2f;
    par_for("ct_curl_x2f", ct_interior_faces(g, 1), KOKKOS_LAMBDA(int k, int j, int i) {
      const int y = a1 ? j : 0;
      const Real curl = face_curl(a2, e1(0, k, y, i), a2 ? e1(0, k + 1, y, i) : Real(0), r2, a0, e3(0, k, y, i),
                                  a0 ? e3(0, k, y, i + 1) : Real(0), r0);
      bo(0, k, j, i) = curl_update(a, b0(0, k, j, i), b, bi(0, k, j, i), c_dt, curl);
    });
  }
  {
    const Array4 b0 = u0.x3f, bi = in.x3f, bo = out.x3f;
    par_for("ct_curl_x3f", ct_interior_faces(g, 2), KOKKOS_LAMBDA(int k, int j, int i) {
      const int z = a2 ? k : 0;
      const Real curl = face_curl(a0, e2(0, z, j, i), a0 ? e2(0, z, j, i + 1) : Real(0), r0, a1, e1(0, z, j, i),
                                  a1 ? e1(0, z, j + 1, i) : Real(0), r1);
      bo(0, k, j, i) = curl_update(a, b0(0, k, j, i), b, bi(0, k, j, i), c_dt, curl);
    });
  }
}

void ct_cell_centred_field(const Grid& g, const FaceField& faces, const Array4& cells) {
  const Array4 b1 = faces.x1f, b2 = faces.x2f, b3 = faces.x3f;
  par_for("ct_cell_centred_field", g.interior(), KOKKOS_LAMBDA(int k, int j, int i) {
    cells(IB1, k, j, i) = face_average(b1(0, k, j, i), b1(0, k, j, i + 1));
    cells(IB2, k, j, i) = face_average(b2(0, k, j, i), b2(0, k, j + 1, i));
    cells(IB3, k, j, i) = face_average(b3(0, k, j, i), b3(0, k + 1, j, i));
  });
}

Real ct_local_div_b(const Grid& g, const FaceField& faces, Real* bmax) {
  const bool a0 = g.active(0), a1 = g.active(1), a2 = g.active(2);
  const Real r0 = Real(1) / g.dx[0], r1 = Real(1) / g.dx[1], r2 = Real(1) / g.dx[2];
  Real dxmin = 0;
  for (int d = 0; d < 3; ++d)
    if (g.active(d) && (dxmin == 0 || g.dx[d] < dxmin)) dxmin = g.dx[d];
  const Array4 b1 = faces.x1f, b2 = faces.x2f, b3 = faces.x3f;
  Real div = 0, big = 0;
  par_reduce("ct_div_b", g.interior(), KOKKOS_LAMBDA(int k, int j, int i, Real& m) {
    Real d = 0;
    if (a0) d += (b1(0, k, j, i + 1) - b1(0, k, j, i)) * r0;
    if (a1) d += (b2(0, k, j + 1, i) - b2(0, k, j, i)) * r1;
    if (a2) d += (b3(0, k + 1, j, i) - b3(0, k, j, i)) * r2;
    m = math::fmax_nan_as_inf(m, math::fabs(d));
  }, Kokkos::Max<Real>(div));
  par_reduce("ct_b_max", g.interior(), KOKKOS_LAMBDA(int k, int j, int i, Real& m) {
    const Real x = Real(0.5) * (b1(0, k, j, i) + b1(0, k, j, i + 1));
    const Real y = Real(0.5) * (b2(0, k, j, i) + b2(0, k, j + 1, i));
    const Real z = Real(0.5) * (b3(0, k, j, i) + b3(0, k + 1, j, i));
    m = math::fmax_nan_as_inf(m, math::sqrt(x * x + y * y + z * z));
  }, Kokkos::Max<Real>(big));
  *bmax = big;
  return div * dxmin;  // the caller divides by the global largest |B|
}

}  // namespace ax

namespace ax {

namespace {

// a(n) at (k, j, i) shifted down m cells along the axis with unit offsets o.
KOKKOS_INLINE_FUNCTION Real down(const Array4& a, int n, int k, int j, int i, const int o[3], int m) {
  return a(n, k - m * o[2], j - m * o[1], i - m * o[0]);
}

// The value of a(n) reconstructed to the edge between positions -1 and 0
// along o, from the left (upper face of -1) and from the right.
template <Limiter L>
KOKKOS_INLINE_FUNCTION void to_edge(const Array4& a, int n, int k, int j, int i, const int o[3], Real& left,
                                    Real& right) {
  const Real m2 = down(a, n, k, j, i, o, 2), m1 = down(a, n, k, j, i, o, 1);
  const Real c0 = a(n, k, j, i), p1 = down(a, n, k, j, i, o, -1);
  left = plm_upper(m1, limited_slope<L>(m1 - m2, c0 - m1));
  right = plm_lower(c0, limited_slope<L>(c0 - m1, p1 - c0));
}

}  // namespace

template <Limiter L>
void ct_edge_emfs_uct(const Grid& g, const FaceEmfs& face, const Array4 uct[3], const FaceField& b,
                      const Array4& e_cell, const EdgeEmfs& edge) {
  for (int c = 0; c < 3; ++c) {
    const int p = (c + 1) % 3, q = (c + 2) % 3;
    const bool ap = g.active(p), aq = g.active(q);
    int op[3] = {0, 0, 0}, oq[3] = {0, 0, 0};
    op[p] = 1;
    oq[q] = 1;
    const int op0 = op[0], op1 = op[1], op2 = op[2], oq0 = oq[0], oq1 = oq[1], oq2 = oq[2];
    const Array4 ep = face.e[p], eq = face.e[q], up = uct[p], uq = uct[q], bp = b[p], bq = b[q];
    const Array4 out = edge.ec[c];
    par_for("ct_edge_emfs_uct", ct_interior_edges(g, c), KOKKOS_LAMBDA(int k, int j, int i) {
      const int dp[3] = {op0, op1, op2}, dq[3] = {oq0, oq1, oq2};
      const int none[3] = {0, 0, 0};
      if (ap && aq) {
        // Across p: the p-faces below and above the edge in q; B_q and v_p
        // (kept on q-faces) reconstructed along p.
        Real a_l = Real(0.5) * (down(up, kUctAL, k, j, i, dq, 1) + up(kUctAL, k, j, i));
        Real a_r = Real(0.5) * (down(up, kUctAR, k, j, i, dq, 1) + up(kUctAR, k, j, i));
        Real d_l = Real(0.5) * (down(up, kUctDL, k, j, i, dq, 1) + up(kUctDL, k, j, i));
        Real d_r = Real(0.5) * (down(up, kUctDR, k, j, i, dq, 1) + up(kUctDR, k, j, i));
        Real b_l, b_r, v_l, v_r;
        to_edge<L>(bq, 0, k, j, i, dp, b_l, b_r);
        to_edge<L>(uq, kUctVt2, k, j, i, dp, v_l, v_r);
        Real e = -(a_l * v_l * b_l + a_r * v_r * b_r) + (d_r * b_r - d_l * b_l);
        // Across q: the q-faces left and right of the edge in p; B_p and v_q
        // (kept on p-faces) reconstructed along q.
        a_l = Real(0.5) * (down(uq, kUctAL, k, j, i, dp, 1) + uq(kUctAL, k, j, i));
        a_r = Real(0.5) * (down(uq, kUctAR, k, j, i, dp, 1) + uq(kUctAR, k, j, i));
        d_l = Real(0.5) * (down(uq, kUctDL, k, j, i, dp, 1) + uq(kUctDL, k, j, i));
        d_r = Real(0.5) * (down(uq, kUctDR, k, j, i, dp, 1) + uq(kUctDR, k, j, i));
        to_edge<L>(bp, 0, k, j, i, dq, b_l, b_r);
        to_edge<L>(up, kUctVt1, k, j, i, dq, v_l, v_r);
        e += (a_l * v_l * b_l + a_r * v_r * b_r) - (d_r * b_r - d_l * b_l);
        out(0, k, j, i) = e;
      } else if (ap) {
        out(0, k, j, i) = ep(1, k, j, i);
      } else if (aq) {
        out(0, k, j, i) = eq(0, k, j, i);
      } else {
        out(0, k, j, i) = at(e_cell, c, k, j, i, none);
      }
    });
  }
}

template void ct_edge_emfs_uct<Limiter::minmod>(const Grid&, const FaceEmfs&, const Array4[3], const FaceField&,
                                                const Array4&, const EdgeEmfs&);
template void ct_edge_emfs_uct<Limiter::van_leer>(const Grid&, const FaceEmfs&, const Array4[3], const FaceField&,
                                                  const Array4&, const EdgeEmfs&);
template void ct_edge_emfs_uct<Limiter::mc>(const Grid&, const FaceEmfs&, const Array4[3], const FaceField&,
                                            const Array4&, const EdgeEmfs&);
template void ct_edge_emfs_uct<Limiter::van_albada>(const Grid&, const FaceEmfs&, const Array4[3],
                                                    const FaceField&, const Array4&, const EdgeEmfs&);
template void ct_edge_emfs_uct<Limiter::superbee>(const Grid&, const FaceEmfs&, const Array4[3], const FaceField&,
                                                  const Array4&, const EdgeEmfs&);

}  // namespace ax
