#include "ct/ct_fused.hpp"

#include "ct/ct_formulas.hpp"
#include "mhd/mhd_eos.hpp"

namespace ax {

namespace {

// Which axes are active and where the interior ends, for kernels that treat
// the three components (or axes) in one thread.
struct Axes {
  bool active[3];
  int end[3];  // g.ie(d)
  explicit Axes(const Grid& g) {
    for (int d = 0; d < 3; ++d) {
      active[d] = g.active(d);
      end[d] = g.ie(d);
    }
  }
};

// One more cell (or face, or edge) along every active axis.
Box widened_above(const Grid& g) {
  Box b = g.interior();
  if (g.active(0)) b.ie += 1;
  if (g.active(1)) b.je += 1;
  if (g.active(2)) b.ke += 1;
  return b;
}

}  // namespace

CtFusedWorkspace::CtFusedWorkspace(const Grid& g, bool keep_cell_emfs) {
  if (keep_cell_emfs) e_cell = g.make_array("ct_fused_e_cell", 3);
  const char* e_names[3] = {"ct_fused_face_e_x", "ct_fused_face_e_y", "ct_fused_face_e_z"};
  const char* s_names[3] = {"ct_fused_sign_x", "ct_fused_sign_y", "ct_fused_sign_z"};
  const char* c_names[3] = {"ct_fused_edge_e1", "ct_fused_edge_e2", "ct_fused_edge_e3"};
  for (int d = 0; d < 3; ++d) {
    face_e.e[d] = g.make_array(e_names[d], 2);
    mass_sign[d] = SignArray(std::string(s_names[d]), g.extent(2), g.extent(1), g.extent(0));
    edge_e.ec[d] = g.make_array(c_names[d], 1);
    // Faces and edges of inactive axes are read at index 0: start defined.
    Kokkos::deep_copy(face_e.e[d], Real(0));
    Kokkos::deep_copy(edge_e.ec[d], Real(0));
  }
}

std::int64_t CtFusedWorkspace::planned_bytes(const Grid& g, bool keep_cell_emfs) {
  const std::int64_t cells = std::int64_t(g.extent(0)) * g.extent(1) * g.extent(2);
  return 3 * (g.array_bytes(2) + g.array_bytes(1) + cells * std::int64_t(sizeof(std::int8_t))) +
         (keep_cell_emfs ? g.array_bytes(3) : 0);
}

std::int64_t CtFusedWorkspace::bytes() const {
  std::int64_t b = std::int64_t(e_cell.span()) * std::int64_t(sizeof(Real));
  for (int d = 0; d < 3; ++d)
    b += std::int64_t(face_e.e[d].span() + edge_e.ec[d].span()) * std::int64_t(sizeof(Real)) +
         std::int64_t(mass_sign[d].span()) * std::int64_t(sizeof(std::int8_t));
  return b;
}

Box ct_face_cells(const Grid& g) {
  Box b = widened_above(g);
  if (g.active(0)) b.ib -= 1;
  if (g.active(1)) b.jb -= 1;
  if (g.active(2)) b.kb -= 1;
  return b;
}

void ct_edge_emfs_fused(const Grid& g, const IdealGas& eos, const Array4& in, CtFusedWorkspace& ws) {
  const Axes ax(g);
  const FaceEmfs fe = ws.face_e;
  const SignArray s0 = ws.mass_sign[0], s1 = ws.mass_sign[1], s2 = ws.mass_sign[2];
  const EdgeEmfs edge = ws.edge_e;
  const Array4 kept = ws.e_cell;
  const bool have_kept = kept.data() != nullptr;
  par_for("ct_edge_emfs_fused", widened_above(g), KOKKOS_LAMBDA(int k, int j, int i) {
    const int here[3] = {i, j, k};
    for (int c = 0; c < 3; ++c) {
      // Edges along c span the interior along c, one more along the others.
      if (ax.active[c] && here[c] >= ax.end[c]) continue;
      const int p = (c + 1) % 3, q = (c + 2) % 3;
      const bool ap = ax.active[p], aq = ax.active[q];
      // Index (k, j, i) moved one cell down along p (dp = 1) and q (dq = 1).
      auto at = [&](int dp, int dq, int m[3]) {
        for (int e = 0; e < 3; ++e) m[e] = here[e] - (e == p ? dp : 0) - (e == q ? dq : 0);
      };
      auto emf_of_cell = [&](int dp, int dq) {
        int m[3];
        at(dp, dq, m);
        if (have_kept) return kept(c, m[2], m[1], m[0]);
        Real u[NMHD], w[NMHD];
        for (int n = 0; n < NMHD; ++n) u[n] = in(n, m[2], m[1], m[0]);
        mhd_cons_to_prim(eos, u, w);
        return cell_emf(w, c);
      };
      auto face = [&](int d, int slot, int dp, int dq) {
        int m[3];
        at(dp, dq, m);
        return fe.e[d](slot, m[2], m[1], m[0]);
      };
      auto sign = [&](int d, int dp, int dq) {
        int m[3];
        at(dp, dq, m);
        const SignArray& s = d == 0 ? s0 : d == 1 ? s1 : s2;
        return Real(s(m[2], m[1], m[0]));
      };
      Real e;
      if (ap && aq) {
        e = gs05_edge_emf(emf_of_cell(1, 1), emf_of_cell(0, 1), emf_of_cell(1, 0), emf_of_cell(0, 0),
                          face(q, 0, 1, 0), face(q, 0, 0, 0), face(p, 1, 0, 1), face(p, 1, 0, 0), sign(p, 0, 1),
                          sign(p, 0, 0), sign(q, 1, 0), sign(q, 0, 0));
      } else if (ap) {
        e = face(p, 1, 0, 0);  // E_c is E_t2 on p-faces
      } else if (aq) {
        e = face(q, 0, 0, 0);  // and E_t1 on q-faces
      } else {
        e = emf_of_cell(0, 0);
      }
      edge.ec[c](0, k, j, i) = e;
    }
  });
}

void ct_curl_update_fused(const Grid& g, Real a, Real b, Real c_dt, const FaceField& u0, const FaceField& in,
                          const EdgeEmfs& edge, const FaceField& out) {
  const Axes ax(g);
  const Real inv[3] = {Real(1) / g.dx[0], Real(1) / g.dx[1], Real(1) / g.dx[2]};
  const Real inv0 = inv[0], inv1 = inv[1], inv2 = inv[2];
  Box box = widened_above(g);  // faces of the interior; an inactive axis keeps its two
  if (!g.active(0)) box.ie = 2;
  if (!g.active(1)) box.je = 2;
  if (!g.active(2)) box.ke = 2;
  const Array4 e1 = edge.ec[0], e2 = edge.ec[1], e3 = edge.ec[2];
  par_for("ct_curl_update_fused", box, KOKKOS_LAMBDA(int k, int j, int i) {
    const int here[3] = {i, j, k};
    for (int d = 0; d < 3; ++d) {
      bool face = true;  // faces normal to d: the interior across, all faces along d
      for (int e = 0; e < 3; ++e)
        if (e != d && here[e] >= (ax.active[e] ? ax.end[e] : 1)) face = false;
      if (!face) continue;
      const bool a0 = ax.active[0], a1 = ax.active[1], a2 = ax.active[2];
      Real curl;
      if (d == 0) {
        const int x = a0 ? i : 0;
        curl = face_curl(a1, e3(0, k, j, x), a1 ? e3(0, k, j + 1, x) : Real(0), inv1, a2, e2(0, k, j, x),
                         a2 ? e2(0, k + 1, j, x) : Real(0), inv2);
      } else if (d == 1) {
        const int y = a1 ? j : 0;
        curl = face_curl(a2, e1(0, k, y, i), a2 ? e1(0, k + 1, y, i) : Real(0), inv2, a0, e3(0, k, y, i),
                         a0 ? e3(0, k, y, i + 1) : Real(0), inv0);
      } else {
        const int z = a2 ? k : 0;
        curl = face_curl(a0, e2(0, z, j, i), a0 ? e2(0, z, j, i + 1) : Real(0), inv0, a1, e1(0, z, j, i),
                         a1 ? e1(0, z, j + 1, i) : Real(0), inv1);
      }
      out[d](0, k, j, i) = curl_update(a, u0[d](0, k, j, i), b, in[d](0, k, j, i), c_dt, curl);
    }
  });
}

}  // namespace ax
