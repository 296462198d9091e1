// The fused FD WENO5 hydro stage as team kernels (solver.fused_layout:
// tiles), the GPU design of the FD MHD segments kernel applied to hydro: a
// team walks one row along the axis a segment of S faces at a time and
// works through each segment in phases, each a loop over the team's
// threads with its results in team scratch (a barrier between): the cells (state,
// primitives, flux, sound speed, each cell once), each face's
// eigen-system and LLF speeds, the characteristic differences (a thread
// per face and difference), the WENO correction (a thread per face and
// field), the face fluxes, and K += the flux difference (the last axis
// ends the stage).
// Why: the faces layout (fd_fused.cpp) gives a thread a whole face, its
// stencil and 50 differences held in 128 registers (and, until its cells'
// thermodynamic values came from a ring formed once a stage, converted
// each cell six times an axis); here each cell is converted once (37
// conversions per 31 faces) and no phase holds more than one difference
// vector. The faces
// go to no array: K is updated from scratch, so this layout needs no face
// array (K and the state only).
// Measured (H200, 256^3 blast, lsrk4): 1.80e8 cell-updates/s against 3.12e8
// for the faces layout when a team took one segment and read its cells and
// K from device memory in the phases that needed them; walking the row with
// the next segment's cells and K copied ahead (backend/async_copy.hpp, as
// the FD MHD kernel) 3.02e8 against 3.34e8 in one lease; with the last
// axis ending a 2N stage in place instead of a finish kernel of its own
// (0.84 ms a stage) 3.13e8 against 3.37e8 (2026-12-03; 2.80e8 when the
// update read the cells' state from device memory rather than copied
// ahead). It stays opt-in: the phases' barriers and scratch traffic still
// cost more than the conversions they save.
#include "backend/async_copy.hpp"
#include "fd/fd_dispatch.hpp"
#include "fd/fd_fused.hpp"
#include "fd/fd_segments.hpp"
#include "fd/fd_stage.hpp"
#include "fd/weno.hpp"
#include "fv/fv_options.hpp"

#include <type_traits>

namespace ax {

namespace fd_segments_detail {

constexpr int kTeamSize = 128;
using Policy = Kokkos::TeamPolicy<ExecSpace>;
using Team = Policy::member_type;

// 31 faces and the far face of the segment (the next segment's first) are
// one warp, so a phase with a thread per face takes one pass (as the FD
// MHD segments kernel, where it was measured).
constexpr int kFaces = 31;

// Per cell: u, the primitives u does not hold (v_n, v_t1, v_t2, p), f, c.
constexpr int kU = 0, kV = 5, kF = 9, kC = 14, kCellVals = 15;
KOKKOS_FORCEINLINE_FUNCTION int w_slot(int s) { return s == 0 ? kU : kV + s - 1; }
// Per face: the eigen-system, then the LLF speeds of the three fields.
constexpr int kEigenVals = 9, kAlpha = kEigenVals, kFaceVals = kEigenVals + 3;
constexpr int kDiffVals = kSegmentDiffVals<NHYDRO>;  // dw, dg of the five differences
KOKKOS_INLINE_FUNCTION constexpr int dw_slot(int m, int s) { return segment_dw_slot<NHYDRO>(m, s); }

#define AX_EIGEN_FIELDS(X) X(un) X(ut1) X(ut2) X(c) X(inv_2c) X(h) X(q2h) X(hb1) X(hb2)

KOKKOS_INLINE_FUNCTION void store_eigen(const EigenSystem& e, const ScratchBlock& b, int n) {
  int v = 0;
#define AX_STORE(f) b(v++, n) = e.f;
  AX_EIGEN_FIELDS(AX_STORE)
#undef AX_STORE
}

KOKKOS_INLINE_FUNCTION EigenSystem load_eigen(const ScratchBlock& b, int n) {
  EigenSystem e;
  int v = 0;
#define AX_LOAD(f) e.f = b(v++, n);
  AX_EIGEN_FIELDS(AX_LOAD)
#undef AX_LOAD
  return e;
}
#undef AX_EIGEN_FIELDS
static_assert(sizeof(EigenSystem) == kEigenVals * sizeof(Real), "every field of EigenSystem in scratch");

// Axis d over the interior: K (+)= dt/dx (F(i-1/2) - F(i+1/2)); on the last
// axis (`last`) also the end of the stage. Returns the floor count.
template <WenoWeights W, EigenAverage A>
long long segments(const FdOptions& o, const Grid& g, int d, bool first, bool last, bool store_k, const Stage& st,
                   Real dt, const Floors& floors, const Array4& u0, const Array4& u, const Array4& out,
                   const Array4& r, const Array4& kacc) {
  const IdealGas eos = o.eos;
  const Gravity grav = o.gravity;
  const Real eps = o.epsilon;
  constexpr int S = kFaces;
  const int ra = d == 0 ? 1 : 0, qa = d == 2 ? 1 : 2;  // row axis, third axis
  const int is = g.is(d), ie = g.ie(d), hi = ie + 1;     // faces is .. ie (face f is f - 1/2)
  const int nseg = (hi - is + S - 1) / S;
  const int rlo = g.is(ra), nrow = g.ie(ra) - rlo, qlo = g.is(qa), nq = g.ie(qa) - qlo;
  constexpr int pitch = S + 6;  // cells f0-3 .. f0+S+2
  constexpr int nfr = S + 1;    // faces f0 .. f0+S
  // The axis that ends the stage also copies ahead the input state of its
  // cells, which the end of the stage reads.
  const int nscratch = pitch * kCellVals + nfr * (kFaceVals + kDiffVals) + S * NHYDRO * (last ? 2 : 1);
  const Real dtdx = dt / g.dx[d], Ak = st.A;
  const bool read_u0 = stage_reads_u0(st), read_r = stage_reads_r(st);
  const bool read_k = !first || Ak != Real(0);  // start_increment does not read K when A is 0
  // The last axis ends the stage, in place with a 2N scheme (out = u): a
  // team owns its row (it alone reads the row's cells, along the axis), and
  // a cell is written once every segment that reads it has its copy.
  const bool in_place = last && out.data() == u.data();
  const int team_size = phase_team_size(kTeamSize);
  auto kernel = KOKKOS_LAMBDA(const Team& team, long long& n_hit) {
    TeamScratch sc(team.team_scratch(0), nscratch);
    const ScratchBlock C{sc.data(), pitch};
    const ScratchBlock E = C.after(kCellVals, nfr);
    const ScratchBlock D = E.after(kFaceVals, nfr);
    const ScratchBlock K = D.after(kDiffVals, S);  // K of the segment's cells
    const ScratchBlock U = K.after(NHYDRO, S);     // their input state (last axis)
    // The face fluxes over each face's first five differences: the face
    // phase reads a face's corrections (slots 0..4) before it writes there.
    const ScratchBlock F{D.p, nfr};
    // A team walks the segments of its row one after the other.
    const int t = team.league_rank();
    const int rr = rlo + t % nrow, q = qlo + t / nrow;
    struct Ijk {
      int i, j, k;
    };
    // (i, j, k) of position pos along d, by selection: an array indexed by d
    // would live in local memory.
    auto point = [&](int pos) {
      return Ijk{d == 0 ? pos : rr, d == 1 ? pos : (d == 0 ? rr : q), d == 2 ? pos : q};
    };
    // The copies of a segment's inputs into scratch, issued a phase or more
    // before they are read (as the FD MHD segments kernel): the conserved
    // state of its cells (into the u slots of C, free once the differences
    // are formed), K of its cells (read by the update) and, on the last
    // axis, their state (read by the end of the stage).
    auto fetch_cells = [&](int f0) {
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, pitch * NHYDRO), [&](int i) {
        const int c = i % pitch, s = i / pitch, pos = f0 - 3 + c;
        if (pos >= hi + 2) return;  // beyond the last face's stencil: never read
        const Ijk p = point(pos);
        async_copy(&C(kU + s, c), &u(face_slot(d, s), p.k, p.j, p.i));
      });
      async_commit();
    };
    auto fetch_k = [&](int f0) {
      if (read_k || last)
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, S * NHYDRO), [&](int i) {
          const int c = i % S, v = i / S;
          if (f0 + c >= ie) return;
          const Ijk p = point(f0 + c);
          if (read_k) async_copy(&K(v, c), &kacc(v, p.k, p.j, p.i));
          if (last) async_copy(&U(v, c), &u(v, p.k, p.j, p.i));
        });
      async_commit();
    };
    fetch_cells(is);
    fetch_k(is);
    for (int seg = 0; seg < nseg; ++seg) {
      const int f0 = is + seg * S;
      auto valid_face = [&](int n) { return f0 + n < hi; };
      async_wait<1>();  // this segment's cells (its K may still be in flight)
      team.team_barrier();
      // Face n of the segment is f0 + n; its stencil's cell m is cell n + m.
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, pitch), [&](int c) {
        if (f0 - 3 + c >= hi + 2) return;  // not fetched: never read
        Real uc[NHYDRO], w[NHYDRO], f[NHYDRO], cs;
        for (int s = 0; s < NHYDRO; ++s) uc[s] = C(kU + s, c);
        cell_flux(eos, d, uc, w, f, cs);
        for (int s = 0; s < NHYDRO; ++s) C(kF + s, c) = f[s];
        for (int s = 1; s < NHYDRO; ++s) C(w_slot(s), c) = w[s];
        C(kC, c) = cs;
      });
      team.team_barrier();
      // The eigen-system of each face (cells 2 and 3) and its LLF speeds.
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, nfr), [&](int n) {
        if (!valid_face(n)) return;
        Real wl[NHYDRO], wr[NHYDRO];
        for (int s = 0; s < NHYDRO; ++s) {
          wl[s] = C(w_slot(s), n + 2);
          wr[s] = C(w_slot(s), n + 3);
        }
        store_eigen(face_eigensystem<A>(eos, wl, wr), E, n);
        Real alpha[3] = {0, 0, 0};
        for (int m = 0; m < kWenoStencil; ++m) alpha_update(alpha, C(w_slot(1), n + m), C(kC, n + m));
        for (int s = 0; s < 3; ++s) E(kAlpha + s, n) = alpha[s];
      });
      team.team_barrier();
      // Characteristic differences m (cells m, m + 1) of each face.
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, nfr * kWenoDiffs), [&](int i) {
        const int n = i % nfr, m = i / nfr;
        if (!valid_face(n)) return;
        Real ua[NHYDRO], ub[NHYDRO], fa[NHYDRO], fb[NHYDRO], dw[NHYDRO], dg[NHYDRO];
        for (int s = 0; s < NHYDRO; ++s) {
          ua[s] = C(kU + s, n + m);
          ub[s] = C(kU + s, n + m + 1);
          fa[s] = C(kF + s, n + m);
          fb[s] = C(kF + s, n + m + 1);
        }
        characteristic_differences(load_eigen(E, n), ua, ub, fa, fb, dw, dg);
        store_differences<NHYDRO>(D, n, m, dw, dg);
      });
      team.team_barrier();
      // The u slots are free: the next segment's cells load behind the rest
      // of this one.
      if (seg + 1 < nseg)
        fetch_cells(f0 + S);
      else
        async_commit();  // an empty group: the waits count groups
      // The WENO correction of field s of each face.
      segment_corrections<W, NHYDRO>(team, D, nfr, eps, valid_face, [&](int n, int s) {
        const Real alpha3[3] = {E(kAlpha, n), E(kAlpha + 1, n), E(kAlpha + 2, n)};
        return alpha_of_field(alpha3, s);
      });
      async_wait<1>();  // this segment's K (the next cells may be in flight)
      team.team_barrier();
      // Face fluxes: the central part of cells 1..4 + the corrections
      // back-projected.
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, nfr), [&](int n) {
        if (!valid_face(n)) return;
        Real corr[NHYDRO], f[4][NHYDRO], fhat[NHYDRO];
        for (int s = 0; s < NHYDRO; ++s) corr[s] = D(dw_slot(0, s), n);
        for (int m = 0; m < 4; ++m)
          for (int s = 0; s < NHYDRO; ++s) f[m][s] = C(kF + s, n + 1 + m);
        assemble_face_flux(load_eigen(E, n), f[0], f[1], f[2], f[3], corr, fhat);
        for (int s = 0; s < NHYDRO; ++s) F(s, n) = fhat[s];
      });
      // Ending a 2N stage in place: the next segment's copy of this one's
      // last three cells must land before they are overwritten.
      if (in_place) async_wait<0>();
      team.team_barrier();
      // Cells f0 .. f0+S-1: K += flux difference; on the last axis the end
      // of the stage.
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, S), [&](int c) {
        const int cell = f0 + c;
        if (cell >= ie) return;
        const Ijk p = point(cell);
        Real kv[NHYDRO];
        for (int v = 0; v < NHYDRO; ++v) {  // v unrolled, so kv stays in registers
          const int s = frame_slot(d, v);
          const Real dv = flux_difference(dtdx, F(s, c), F(s, c + 1));
          const Real kn = first ? start_increment(Ak, read_k ? K(v, c) : Real(0), dv) : K(v, c) + dv;
          kv[v] = kn;
        }
        // Gravity after every axis' flux differences, as the native path.
        if (last) add_gravity_to(grav, dt, U(IDN, c), U(IM1, c), U(IM2, c), U(IM3, c), kv);
        if (!last || store_k)
          for (int v = 0; v < NHYDRO; ++v) kacc(v, p.k, p.j, p.i) = kv[v];
        if (last && finish_stage_cell_at<NHYDRO>(st, read_u0, read_r, eos, floors, u0, [&](int v) { return U(v, c); }, r,
                                                 out, kv, p.k, p.j, p.i))
          ++n_hit;
      });
      team.team_barrier();  // K and F read: the next segment may overwrite them
      if (seg + 1 < nseg) fetch_k(f0 + S);
    }
  };
  long long hits = 0;
  Policy policy(nrow * nq, team_size);
  policy.set_scratch_size(0, Kokkos::PerTeam(TeamScratch::shmem_size(nscratch)));
  Kokkos::parallel_reduce(segments_label("fd_fused_segments", d), policy, kernel, hits);
  return hits;
}

}  // namespace fd_segments_detail

long long fd_stage_fused_segments(const FdOptions& opt, const Grid& g, const FdFusedPlan& plan, const Stage& st,
                                  Real dt, const Floors& floors, const Array4& u0, const Array4& in,
                                  const Array4& out, const Array4& r, const Array4& k) {
  int last = 0;
  while (!g.active(last)) ++last;  // axes run z, y, x: the last is the lowest active one
  long long hits = 0;
  bool first = true;
  for (int d = 2; d >= 0; --d) {
    if (!g.active(d)) continue;
    const bool ends = d == last;
    with_weno_options(opt, [&](auto W, auto A) {
      hits += fd_segments_detail::segments<decltype(W)::value, decltype(A)::value>(
          opt, g, d, first, ends, plan.store_k, st, dt, floors, u0, in, out, r, k);
    });
    first = false;
  }
  return hits;
}

}  // namespace ax
