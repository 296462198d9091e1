// The WENO kernel of the fused FD MHD stage for GPUs: a team takes a
// segment of S faces along the axis in R neighbouring rows, computes each
// cell's face-frame state, primitives, flux and wave speeds once into team
// scratch (the segment's cells and three more each side), then a face per
// thread from there; the fluxes go back to scratch (over the cells) for the
// flux difference, added to K in place, and the last axis ends the stage.
// Why: the pencils of fd_mhd_fused.cpp give a GPU one thread per line of
// the flux box (70k at 256^3) each holding a six-cell ring of 31 values:
// 4.4e7 cell-updates/s on the H200 (256^3 MHD blast, lsrk4), below the
// native path's 5.9e7. Segments: 4.4e7 with the stencil copied to
// registers, 4.8e7 reading it from scratch where used (the face flux still
// takes 255 registers and spills 480 bytes: the 70 characteristic
// differences of seven waves); launch bounds of three teams a
// multiprocessor 5.0e7, four (128 registers) 3.8e7. The WENO kernels are
// 88% of a stage (Nsight Compute, 128^3).
#include "ct/fd_ct.hpp"
#include "ct/fd_ct_stencils.hpp"
#include "fd/fd_mhd_fused.hpp"
#include "fd/fd_stage.hpp"
#include "fd/weno_mhd.hpp"

namespace ax {

namespace fd_mhd_segments_detail {

using Team = Kokkos::TeamPolicy<ExecSpace, Kokkos::LaunchBounds<128, 3>>::member_type;
using Scratch = Kokkos::View<Real*, ExecSpace::scratch_memory_space, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

constexpr int kCellVals = 8 + 8 + 8 + NMHD_WAVES;  // u, w, f, lambda

// The six cells of a face's stencil in the team scratch C[v][row][pos]
// (rows of `pitch` cells, R rows), from the cell at `base` = row * pitch + tf.
struct ScratchStencil {
  const Real* C;
  int R, pitch, base;
  KOKKOS_FORCEINLINE_FUNCTION Real at(int v, int m) const { return C[v * R * pitch + base + m]; }
  KOKKOS_FORCEINLINE_FUNCTION Real u(int m, int s) const { return at(s, m); }
  KOKKOS_FORCEINLINE_FUNCTION Real w(int m, int s) const { return at(8 + s, m); }
  KOKKOS_FORCEINLINE_FUNCTION Real f(int m, int s) const { return at(16 + s, m); }
  KOKKOS_FORCEINLINE_FUNCTION Real lam(int m, int s) const { return at(24 + s, m); }
};

template <WenoWeights W>
long long segments(const FdOptions& o, const Grid& g, int d, bool first, bool last, const Stage& st, Real dt,
                   const Floors& floors, const State& u0, const State& in, const State& out, const State& r,
                   const Array4& kacc, const Array4& fstar) {
  const FdOptions opt = o;
  const IdealGas eos = o.eos;
  // Segment length along d and rows along the row axis: a warp along x,
  // four rows; along y and z 16 faces of four rows (four consecutive i).
  // Scratch: the cells (31 values) and the S + 1 fluxes of each row,
  // 46 KB along x, under the 48 KB a team may have.
  const int S = d == 0 ? 32 : 16, R = 4;
  const int ra = d == 0 ? 1 : 0, qa = d == 2 ? 1 : 2;  // row axis, third axis
  const Box box = fd_mhd_flux_box(g, d);
  const int blo[3] = {box.ib, box.jb, box.kb}, bhi[3] = {box.ie, box.je, box.ke};
  const int lo = blo[d], hi = bhi[d];
  const int nseg = (hi - lo + S - 1) / S;
  const int nrow = bhi[ra] - blo[ra], nrb = (nrow + R - 1) / R, nq = bhi[qa] - blo[qa];
  const int rlo = blo[ra], qlo = blo[qa];
  const int is = g.is(d), ie = g.ie(d);
  const int ilo[3] = {g.is(0), g.is(1), g.is(2)}, ihi[3] = {g.ie(0), g.ie(1), g.ie(2)};
  const int ir0 = ilo[ra], ir1 = ihi[ra], iq0 = ilo[qa], iq1 = ihi[qa];
  const int pitch = S + 6;  // cells f0-3 .. f0+S+2 of a row
  const int ncell = R * pitch * kCellVals, nflux = R * (S + 1) * 8;
  const Real dtdx = dt / g.dx[d], A = st.A;
  const bool read_u0 = stage_reads_u0(st), read_r = stage_reads_r(st);
  const Array4 u = in.u, a0 = u0.u, ar = r.u, ao = out.u;
#ifdef ASTRONOMIX_FLAT_LOOPS
  const int team_size = R * S;
#else
  const int team_size = 1;  // a host thread walks the segment
#endif
  Kokkos::TeamPolicy<ExecSpace, Kokkos::LaunchBounds<128, 3>> policy(nseg * nrb * nq, team_size);
  policy.set_scratch_size(0, Kokkos::PerTeam(Scratch::shmem_size(ncell + nflux)));
  long long hits = 0;
  Kokkos::parallel_reduce("fd_mhd_fused_segments", policy, KOKKOS_LAMBDA(const Team& team, long long& n_hit) {
    Scratch sc(team.team_scratch(0), ncell + nflux);
    Real* C = sc.data();
    Real* F = C + ncell;
    const int t = team.league_rank();
    const int seg = t % nseg, rb = (t / nseg) % nrb, q = qlo + t / (nseg * nrb);
    const int f0 = lo + seg * S, r0 = rlo + rb * R;
    auto at = [&](int v, int row, int p) -> Real& { return C[(v * R + row) * pitch + p]; };
    auto point = [&](int row, int pos, int p[3]) {
      p[d] = pos;
      p[ra] = r0 + row;
      p[qa] = q;
    };
    // The cells, each once; along x consecutive threads take consecutive
    // cells of a row, along y and z consecutive rows (consecutive i).
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, R * pitch), [&](int c) {
      const int row = d == 0 ? c / pitch : c % R, pos = d == 0 ? c % pitch : c / R;
      int p[3];
      point(row, f0 - 3 + pos, p);
      if (r0 + row >= bhi[ra] || p[d] >= hi + 2) return;  // beyond the box: never read
      Real uc[8], w[8], f[8], lam[NMHD_WAVES];
      for (int s = 0; s < 8; ++s) uc[s] = u(mhd_face_slot(d, s), p[2], p[1], p[0]);
      mhd_cell_flux(eos, uc, w, f, lam);
      for (int s = 0; s < 8; ++s) {
        at(s, row, pos) = uc[s];
        at(8 + s, row, pos) = w[s];
        at(16 + s, row, pos) = f[s];
      }
      for (int s = 0; s < NMHD_WAVES; ++s) at(24 + s, row, pos) = lam[s];
    });
    team.team_barrier();
    // Faces f0 .. f0+S of each row: a thread each (the far one, f0 + S, by
    // the row's first thread too), their fluxes into F[s][row][tf].
    auto fl = [&](int s, int row, int tf) -> Real& { return F[(s * R + row) * (S + 1) + tf]; };
    auto face_flux = [&](int row, int tf) {
      const ScratchStencil cells{C, R, pitch, row * pitch + tf};
      Real fhat[8];
      mhd_weno_face_flux_of<W>(opt, cells, fhat);
      for (int s = 0; s < 8; ++s) fl(s, row, tf) = fhat[s];
      // Stage 1 of the constrained transport (fd_modified_flux): B_d v_t of
      // cells f-2 .. f+1 (slots 1..4 of the stencil), as ct_bv; the far
      // face is the next segment's.
      if (tf < S) {
        int p[3];
        point(row, f0 + tf, p);
        for (int s = 0; s < 2; ++s) {
          Real bv[4];
          for (int m = 0; m < 4; ++m) bv[m] = cells.u(m + 1, kMhdN) * (cells.u(m + 1, 2 + s) / cells.u(m + 1, 0));
          fstar(s, p[2], p[1], p[0]) = fhat[kMhdT1 + s] + ct_i4(bv[0], bv[1], bv[2], bv[3]);
        }
      }
    };
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, R * S), [&](int c) {
      const int row = d == 0 ? c / S : c % R, tf = d == 0 ? c % S : c / R;
      if (r0 + row >= bhi[ra] || f0 + tf >= hi) return;
      face_flux(row, tf);
      if (tf == 0 && f0 + S < hi) face_flux(row, S);
    });
    team.team_barrier();
    // Cells f0 .. f0+S-1 of the interior rows: K += flux difference, and
    // on the last axis the end of the stage.
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, R * S), [&](int c) {
      const int row = d == 0 ? c / S : c % R, tf = d == 0 ? c % S : c / R;
      const int rr = r0 + row, cell = f0 + tf;
      if (rr < ir0 || rr >= ir1 || q < iq0 || q >= iq1 || cell < is || cell >= ie) return;
      int p[3];
      point(row, cell, p);
      Real kv[NMHD];
      for (int s = 0; s < 8; ++s) {
        const int n = mhd_face_slot(d, s);
        const Real dv = flux_difference(dtdx, fl(s, row, tf), fl(s, row, tf + 1));
        const Real kn = first ? start_increment(A, kacc(n, p[2], p[1], p[0]), dv) : kacc(n, p[2], p[1], p[0]) + dv;
        kv[n] = kn;
        kacc(n, p[2], p[1], p[0]) = kn;  // the 2N scheme's next stage reads K
      }
      if (last && finish_stage_cell<NMHD>(st, read_u0, read_r, eos, floors, a0, u, ar, ao, kv, p[2], p[1], p[0]))
        ++n_hit;
    });
  }, Kokkos::Sum<long long>(hits));
  return hits;
}

}  // namespace fd_mhd_segments_detail

long long fd_mhd_segments(const FdOptions& opt, const Grid& g, int d, bool first, bool last, const Stage& st,
                          Real dt, const Floors& floors, const State& u0, const State& in, const State& out,
                          const State& r, const Array4& k, const Array4& fstar) {
  using namespace fd_mhd_segments_detail;
  if (opt.weights == WenoWeights::z)
    return segments<WenoWeights::z>(opt, g, d, first, last, st, dt, floors, u0, in, out, r, k, fstar);
  return segments<WenoWeights::js>(opt, g, d, first, last, st, dt, floors, u0, in, out, r, k, fstar);
}

}  // namespace ax
