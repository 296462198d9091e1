#include "ct/ct_fused.hpp"

#include <type_traits>

#include "backend/team_scratch.hpp"
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

namespace {

// E_C at the corner (p - 1/2, q - 1/2) of cell (k, j, i), (p, q) = (C + 1,
// C + 2) mod 3, by GS05 where both p and q are active. `cell(dp, dq)` gives
// the cell-centred E_C of the cell dp below along p and dq along q; `moved`
// the index of that cell.
template <class CellE, class Moved>
KOKKOS_FORCEINLINE_FUNCTION Real edge_emf(bool ap, bool aq, const Array4& ep, const Array4& eq, const SignArray& sp,
                                          const SignArray& sq, const CellE& cell, const Moved& moved) {
  auto face = [&](const Array4& e, int slot, int dp, int dq) {
    int k, j, i;
    moved(dp, dq, k, j, i);
    return e(slot, k, j, i);
  };
  auto sign = [&](const SignArray& s, int dp, int dq) {
    int k, j, i;
    moved(dp, dq, k, j, i);
    return Real(s(k, j, i));
  };
  if (ap && aq)
    return gs05_edge_emf(cell(1, 1), cell(0, 1), cell(1, 0), cell(0, 0), face(eq, 0, 1, 0), face(eq, 0, 0, 0),
                         face(ep, 1, 0, 1), face(ep, 1, 0, 0), sign(sp, 0, 1), sign(sp, 0, 0), sign(sq, 1, 0),
                         sign(sq, 0, 0));
  if (ap) return face(ep, 1, 0, 0);  // E_C is E_t2 on p-faces
  if (aq) return face(eq, 0, 0, 0);  // and E_t1 on q-faces
  return cell(0, 0);
}

// Offsets of the cell dp below along P and dq below along Q, per axis.
template <int P, int Q>
KOKKOS_FORCEINLINE_FUNCTION void corner_offsets(int dp, int dq, int& di, int& dj, int& dk) {
  di = (P == 0 ? dp : 0) + (Q == 0 ? dq : 0);
  dj = (P == 1 ? dp : 0) + (Q == 1 ? dq : 0);
  dk = (P == 2 ? dp : 0) + (Q == 2 ? dq : 0);
}

// Cell (k, j, i) moved dp cells down along P and dq along Q.
template <int P, int Q>
KOKKOS_FORCEINLINE_FUNCTION void moved_down(int k, int j, int i, int dp, int dq, int& kk, int& jj, int& ii) {
  int di, dj, dk;
  corner_offsets<P, Q>(dp, dq, di, dj, dk);
  kk = k - dk;
  jj = j - dj;
  ii = i - di;
}

// Stage 2 from the cell-centred E that the CPU sweeps kept: one kernel a
// component, each edge reading its four cells' E_C.
template <int C>
void edge_emfs_kept(const Grid& g, const CtFusedWorkspace& ws) {
  constexpr int P = (C + 1) % 3, Q = (C + 2) % 3;
  const bool ap = g.active(P), aq = g.active(Q);
  const Array4 ep = ws.face_e.e[P], eq = ws.face_e.e[Q], kept = ws.e_cell, out = ws.edge_e.ec[C];
  const SignArray sp = ws.mass_sign[P], sq = ws.mass_sign[Q];
  par_for("ct_edge_emfs_fused_kept", ct_interior_edges(g, C), KOKKOS_LAMBDA(int k, int j, int i) {
    auto moved = [&](int dp, int dq, int& kk, int& jj, int& ii) { moved_down<P, Q>(k, j, i, dp, dq, kk, jj, ii); };
    auto cell = [&](int dp, int dq) {
      int kk, jj, ii;
      moved(dp, dq, kk, jj, ii);
      return kept(C, kk, jj, ii);
    };
    out(0, k, j, i) = edge_emf(ap, aq, ep, eq, sp, sq, cell, moved);
  });
}

// Stage 2 recomputing the cell-centred E from the state (the cells and
// tiles layouts; GPUs, where memory is what the budget lacks): a team per
// tile of kTX x kTY cells walking a strip of kSZ planes along z. Each
// cell's E (three components) is computed once into team scratch, a ring
// of three planes, so one barrier a plane suffices; each cell then forms
// the edges at its lower corners from there. The tile's first column and
// row and the plane below the strip (along active axes) are the layer
// those edges read: E only.
// Why (H200, 256^3 Orszag-Tang, a launch): with E recomputed for each of
// the four cells of an edge, the three components in one kernel (66
// registers, 42% of the warps a multiprocessor holds) took 1.61 ms, one
// kernel a component 0.53 + 0.53 + 0.44 ms, the native path's four
// kernels over a stored E 1.08 ms; these tiles 0.91 ms.
namespace ct_tiles {
constexpr int kTX = 32, kTY = 8, kSZ = 32, kCells = kTX * kTY;
// Four teams a multiprocessor (at most 64 registers): without the bound
// ptxas took 70 and the H200 held three (1.02 ms at 256^3).
using Policy = Kokkos::TeamPolicy<ExecSpace, Kokkos::LaunchBounds<kCells, 4>>;
using Team = Policy::member_type;
}  // namespace ct_tiles

void edge_emfs_tiles(const Grid& g, const IdealGas& eos, const Array4& in, const CtFusedWorkspace& ws) {
  using namespace ct_tiles;
  const Box edges = widened_above(g);  // the three components' edges, each cell's lower ones
  const Axes ax(g);
  const int hx = g.active(0) ? 1 : 0, hy = g.active(1) ? 1 : 0, hz = g.active(2) ? 1 : 0;
  const int ex = kTX - hx, ey = kTY - hy;  // edge columns and rows a tile
  const int ntx = (edges.ie - edges.ib + ex - 1) / ex, nty = (edges.je - edges.jb + ey - 1) / ey;
  const int nsz = (edges.ke - edges.kb + kSZ - 1) / kSZ;
  const FaceEmfs fe = ws.face_e;
  const SignArray s0 = ws.mass_sign[0], s1 = ws.mass_sign[1], s2 = ws.mass_sign[2];
  const EdgeEmfs edge = ws.edge_e;
  Policy policy(ntx * nty * nsz, phase_team_size(kCells));
  policy.set_scratch_size(0, Kokkos::PerTeam(TeamScratch::shmem_size(9 * kCells)));
  Kokkos::parallel_for("ct_edge_emfs_fused_tiles", policy, KOKKOS_LAMBDA(const Team& team) {
    TeamScratch sc(team.team_scratch(0), 9 * kCells);
    const int t = team.league_rank();
    const int i0 = edges.ib - hx + (t % ntx) * ex, j0 = edges.jb - hy + ((t / ntx) % nty) * ey;
    const int k0 = edges.kb + (t / (ntx * nty)) * kSZ, k1 = k0 + kSZ < edges.ke ? k0 + kSZ : edges.ke;
    // E_n of tile cell c on plane k: slot (k - k0 + 1) mod 3 of the ring.
    auto e_at = [&](int k, int n, int c) -> Real& { return sc(((k - k0 + 1) % 3 * 3 + n) * kCells + c); };
    for (int k = k0 - hz; k < k1; ++k) {
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, kCells), [&](int c) {
        const int i = i0 + c % kTX, j = j0 + c / kTX;
        if (i >= edges.ie || j >= edges.je) return;
        // The energy and pressure go unused: the compiler drops them.
        Real u[NMHD], w[NMHD];
        for (int n = 0; n < NMHD; ++n) u[n] = in(n, k, j, i);
        mhd_cons_to_prim(eos, u, w);
        for (int n = 0; n < 3; ++n) e_at(k, n, c) = cell_emf(w, n);
      });
      team.team_barrier();  // the ring's third slot is the one no thread reads now
      if (k < k0) continue;
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, kCells), [&](int c) {
        const int tx = c % kTX, ty = c / kTX, i = i0 + tx, j = j0 + ty;
        if (tx < hx || ty < hy || i >= edges.ie || j >= edges.je) return;
        const int here[3] = {i, j, k};
        auto along = [&](auto component) {
          constexpr int C = decltype(component)::value, P = (C + 1) % 3, Q = (C + 2) % 3;
          // Edges along C span the interior along C, one more along the others.
          if (ax.active[C] && here[C] >= ax.end[C]) return;
          auto moved = [&](int dp, int dq, int& kk, int& jj, int& ii) {
            moved_down<P, Q>(k, j, i, dp, dq, kk, jj, ii);
          };
          auto cell = [&](int dp, int dq) {
            int di, dj, dk;
            corner_offsets<P, Q>(dp, dq, di, dj, dk);
            return e_at(k - dk, C, c - di - dj * kTX);
          };
          const SignArray& sp = P == 0 ? s0 : P == 1 ? s1 : s2;
          const SignArray& sq = Q == 0 ? s0 : Q == 1 ? s1 : s2;
          edge.ec[C](0, k, j, i) = edge_emf(ax.active[P], ax.active[Q], fe.e[P], fe.e[Q], sp, sq, cell, moved);
        };
        along(std::integral_constant<int, 0>{});
        along(std::integral_constant<int, 1>{});
        along(std::integral_constant<int, 2>{});
      });
    }
  });
}

}  // namespace

void ct_edge_emfs_fused(const Grid& g, const IdealGas& eos, const Array4& in, CtFusedWorkspace& ws) {
  if (ws.e_cell.data() != nullptr) {
    edge_emfs_kept<0>(g, ws);
    edge_emfs_kept<1>(g, ws);
    edge_emfs_kept<2>(g, ws);
  } else {
    edge_emfs_tiles(g, eos, in, ws);
  }
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
