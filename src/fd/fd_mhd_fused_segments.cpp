// The WENO kernel of the fused FD MHD stage for GPUs: a team takes the
// rows of faces along the axis and walks them a segment of S faces at a
// time, each segment in phases, each a loop over the team's threads with
// its results in team scratch (a barrier between): the cells (flux, wave
// speeds, each cell once) together with the faces' eigen-systems, the
// characteristic differences (a thread per face and difference), the WENO
// correction (a thread per face and wave), the face fluxes and the
// modified fluxes of the constrained transport, and K += the flux
// difference (the last axis ends the stage). The next segment's cells and
// K are copied into scratch asynchronously (backend/async_copy.hpp) while
// this one is worked on.
// Why phases: a thread per whole face (the previous form) kept the 70
// characteristic differences of seven waves live: 255 registers with 480
// bytes of spills, three teams of 128 a multiprocessor, 5.0e7
// cell-updates/s on the H200 (256^3 MHD blast, lsrk4), below the native
// path's 5.9e7 whose six kernels per axis each hold little. Here no phase
// holds more than one difference vector or one wave: 5.8e7 as first
// written, 6.4e7 with the eigen-vector factors once per face
// (MhdEigenSystem) and no arrays indexed by the axis (local memory), 7.0e7
// with B_n v_t per cell, 7.8e7 with five teams a multiprocessor (96
// registers), 8.2e7 with six (80 registers; the barrier waits of the
// phases with one thread per face were 48% of the stalls at four), 8.7e7
// with segments of 31 faces, one warp with the far face.
// Why a team walks its rows with copies ahead: clock counters around the
// phases (one thread of every 61st team) put 40% of a segment's time in the
// update (the wait for K) and 26% in the cells phase (the wait for the
// state; along y and z a row's cells are a plane apart), each a trip to
// device memory that the team's other phases could not cover. Copied a
// segment ahead, the two took 6% and 20%: 8.76e7 -> 1.19e8 in one lease.
// The eigen-systems beside the cells (their primitives from the state,
// not from the cells phase) take one barrier less: 1.16e8 with, 1.15e8
// without in one lease. Starting the one-warp phases on a warp that turns
// with the team (so that they fall on every quarter of the multiprocessor)
// gave nothing (1.16e8 against 1.18e8). The copies a thread per cell
// (below) and an eigen-system with fewer roots and divisions
// (mhd_eigen.hpp): 1.48-1.49e8 -> 1.496e8 -> 1.55e8 (docs/fd_mhd.md).
// Caution: those H200 figures, from some point on (not known which), were
// of a kernel computing garbage: the scratch-slot helpers were host
// functions to nvcc until 2026-12-05 (docs/gpu.md). Fixed, on an H100:
// 104 ms a 256^3 lsrk4 step, 3.36x native.
#include "backend/async_copy.hpp"
#include "backend/team_scratch.hpp"
#include "ct/fd_ct.hpp"
#include "ct/fd_ct_stencils.hpp"
#include "fd/fd_mhd_fused.hpp"
#include "fd/fd_segments.hpp"
#include "fd/fd_stage.hpp"
#include "fd/weno_mhd.hpp"

#include <cstddef>
#include <type_traits>

namespace ax {

namespace fd_mhd_segments_detail {

// Six teams a multiprocessor where the device's shared memory holds them
// (H100/H200: 6 x 34 KB), else the compiler's own register count.
constexpr int kTeamSize = 128;
using FastPolicy = Kokkos::TeamPolicy<ExecSpace, Kokkos::LaunchBounds<kTeamSize, 6>>;
using SafePolicy = Kokkos::TeamPolicy<ExecSpace>;
using Team = SafePolicy::member_type;
static_assert(std::is_same_v<Team, FastPolicy::member_type>, "one kernel body for both policies");

// Per cell: u, f, lambda, and B_n v_t (stage 1 of the constrained transport).
constexpr int kU = 0, kF = 8, kLam = 16, kBv = 23, kCellVals = 25;
constexpr int kEigenVals = 25;                              // MhdEigenSystem less the gas' two constants
constexpr int kDiffVals = kSegmentDiffVals<NMHD_WAVES>;     // dw, dg of the five differences
KOKKOS_INLINE_FUNCTION constexpr int dw_slot(int m, int s) { return segment_dw_slot<NMHD_WAVES>(m, s); }

// The face's eigen-system in scratch: the fields in declaration order,
// gamma's two constants excepted.
#define AX_MHD_EIGEN_FIELDS(X)                                                                                    \
  X(rho) X(vn) X(vt1) X(vt2) X(bt1) X(bt2) X(v2h) X(inv_rho) X(sqrt_rho) X(inv_sqrt_rho) X(a) X(asq) X(cf) X(cs) \
      X(bet2) X(bet3) X(alpha_f) X(alpha_s) X(s) X(nf) X(qf) X(qs) X(afp) X(asp) X(inv_asq)

KOKKOS_INLINE_FUNCTION void store_eigen(const MhdEigenSystem& e, const ScratchBlock& b, int n) {
  int v = 0;
#define AX_STORE(f) b(v++, n) = e.f;
  AX_MHD_EIGEN_FIELDS(AX_STORE)
#undef AX_STORE
}

KOKKOS_INLINE_FUNCTION MhdEigenSystem load_eigen(const IdealGas& eos, const ScratchBlock& b, int n) {
  MhdEigenSystem e;
  int v = 0;
#define AX_LOAD(f) e.f = b(v++, n);
  AX_MHD_EIGEN_FIELDS(AX_LOAD)
#undef AX_LOAD
  e.gm1 = eos.gm1;
  e.inv_gm1 = eos.inv_gm1;
  return e;
}
#undef AX_MHD_EIGEN_FIELDS
static_assert(sizeof(MhdEigenSystem) == (kEigenVals + 2) * sizeof(Real), "every field but gm1, inv_gm1 in scratch");

template <WenoWeights W, int S, int R, int d>
long long segments(const FdOptions& o, const Grid& g, bool first, bool last, bool store_k,
                   const Stage& st, Real dt, const Floors& floors, const State& u0, const State& in,
                   const State& out, const State& r, const Array4& kacc, const Array4& fstar,
                   const DeviceCount& count) {
  const IdealGas eos = o.eos;
  const Gravity grav = o.gravity;
  const Real eps = o.epsilon;
  // Segments of S faces in R rows (fd_mhd_segments says which).
  const int ra = d == 0 ? 1 : 0, qa = d == 2 ? 1 : 2;  // row axis, third axis
  const Box box = fd_mhd_flux_box(g, d);
  const int blo[3] = {box.ib, box.jb, box.kb}, bhi[3] = {box.ie, box.je, box.ke};
  const int lo = blo[d], hi = bhi[d];
  const int nseg = (hi - lo + S - 1) / S;
  const int nrow = bhi[ra] - blo[ra], nrb = (nrow + R - 1) / R, nq = bhi[qa] - blo[qa];
  const int rlo = blo[ra], rhi = bhi[ra], qlo = blo[qa];
  const int is = g.is(d), ie = g.ie(d);
  const int ilo[3] = {g.is(0), g.is(1), g.is(2)}, ihi[3] = {g.ie(0), g.ie(1), g.ie(2)};
  const int ir0 = ilo[ra], ir1 = ihi[ra], iq0 = ilo[qa], iq1 = ihi[qa];
  const int pitch = S + 6;  // cells f0-3 .. f0+S+2 of a row
  const int nfr = S + 1;    // faces f0 .. f0+S of a row
  const int ncell = R * pitch, nface = R * nfr, nupd = R * S;
  const int nscratch = ncell * kCellVals + nface * (kEigenVals + kDiffVals) + nupd * NMHD;
  const Real dtdx = dt / g.dx[d], A = st.A;
  const bool read_u0 = stage_reads_u0(st), read_r = stage_reads_r(st);
  // start_increment does not read K when A is 0.
  const bool read_k = !first || A != Real(0);
  const Array4 u = in.u, a0 = u0.u, ar = r.u, ao = out.u;
  // Variable strides (LayoutRight: a variable's whole block).
  const std::ptrdiff_t ustride = std::ptrdiff_t(u.stride(0)), kstride = std::ptrdiff_t(kacc.stride(0));
  const int team_size = phase_team_size(kTeamSize);
  const auto scratch = Kokkos::PerTeam(TeamScratch::shmem_size(nscratch));
  const DeviceCount n_hits = count;
  auto kernel = KOKKOS_LAMBDA(const Team& team) {
    TeamScratch sc(team.team_scratch(0), nscratch);
    const ScratchBlock C{sc.data(), ncell};
    const ScratchBlock E = C.after(kCellVals, nface);
    const ScratchBlock D = E.after(kEigenVals, nface);
    const ScratchBlock K = D.after(kDiffVals, nupd);  // K of the segment's cells
    // The face fluxes over each face's first eight differences: the face
    // phase reads a face's corrections (slots 0..6) before it writes there.
    const ScratchBlock F{D.p, nface};
    // A team walks the segments of its R rows one after the other.
    const int t = team.league_rank();
    const int rb = t % nrb, q = qlo + t / nrb;
    const int r0 = rlo + rb * R;
    // (i, j, k) of position pos along d in row `row`, by selection: an
    // array indexed by d would live in local memory.
    struct Ijk {
      int i, j, k;
    };
    auto point = [&](int row, int pos) {
      const int rr = r0 + row;
      return Ijk{d == 0 ? pos : rr, d == 1 ? pos : (d == 0 ? rr : q), d == 2 ? pos : q};
    };
    // Cell c of the scratch: its row and position in the row; along x
    // consecutive threads take consecutive cells of a row, along y and z
    // consecutive rows (consecutive i).
    auto cell_row = [&](int c) { return d == 0 ? c / pitch : c % R; };
    auto cell_pos = [&](int c) { return d == 0 ? c % pitch : c / R; };
    auto upd_row = [&](int c) { return d == 0 ? c / S : c % R; };
    auto upd_pos = [&](int c) { return d == 0 ? c % S : c / R; };
    auto interior = [&](int rr, int cell) {
      return rr >= ir0 && rr < ir1 && q >= iq0 && q < iq1 && cell >= is && cell < ie;
    };
    // The copies of a segment's inputs into scratch, issued a phase or more
    // before they are read: the conserved state of its cells (into the
    // u slots of C, free once the differences are formed) and K of its
    // interior cells (read by the update).
    // A thread per cell copies its variables, one stride apart: the
    // address arithmetic once a cell. A thread per (cell, variable) spent
    // 66 instructions on each 8-byte copy, 19% of the kernel's
    // instructions with K's (Nsight Compute, the z kernel).
    auto fetch_cells = [&](int f0) {
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, ncell), [&](int c) {
        const int row = cell_row(c), pos = cell_pos(c);
        if (r0 + row >= rhi || f0 - 3 + pos >= hi + 2) return;  // beyond the box: never read
        const Ijk p = point(row, f0 - 3 + pos);
        const Real* src = &u(0, p.k, p.j, p.i);
        for (int s = 0; s < 8; ++s)
          async_copy(&C(kU + s, row * pitch + pos), src + mhd_face_slot(d, s) * ustride);
      });
      async_commit();
    };
    auto fetch_k = [&](int f0) {
      if (read_k)
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, nupd), [&](int c) {
          const int row = upd_row(c), cell = f0 + upd_pos(c);
          if (!interior(r0 + row, cell)) return;
          const Ijk p = point(row, cell);
          const Real* src = &kacc(0, p.k, p.j, p.i);
          for (int v = 0; v < NMHD; ++v) async_copy(&K(v, c), src + v * kstride);
        });
      async_commit();
    };
    fetch_cells(lo);
    fetch_k(lo);
    for (int seg = 0; seg < nseg; ++seg) {
      const int f0 = lo + seg * S;
      // Face n = row * nfr + tf; its stencil's cell m is row * pitch + tf + m.
      auto valid_face = [&](int n) { return r0 + n / nfr < rhi && f0 + n % nfr < hi; };
      auto cell_of = [&](int n, int m) { return (n / nfr) * pitch + n % nfr + m; };
      async_wait<1>();  // this segment's cells (its K may still be in flight)
      team.team_barrier();
      // The cells, each once, and (from the third warp on) the faces'
      // eigen-systems at the mean of cells 2 and 3, from their primitives.
      const int eig0 = (ncell + 31) / 32 * 32;
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, eig0 + nface), [&](int i) {
        if (i >= eig0) {
          const int n = i - eig0;
          if (!valid_face(n)) return;
          Real ua[8], ub[8], wl[8], wr[8];
          for (int s = 0; s < 8; ++s) {
            ua[s] = C(kU + s, cell_of(n, 2));
            ub[s] = C(kU + s, cell_of(n, 3));
          }
          mhd_primitives(eos, ua, wl);
          mhd_primitives(eos, ub, wr);
          store_eigen(mhd_eigensystem(eos, wl, wr), E, n);
          return;
        }
        if (i >= ncell) return;
        const int row = cell_row(i), pos = cell_pos(i), c = row * pitch + pos;
        if (r0 + row >= rhi || f0 - 3 + pos >= hi + 2) return;  // not fetched: never read
        Real uc[8], w[8], f[8], lam[NMHD_WAVES];
        for (int s = 0; s < 8; ++s) uc[s] = C(kU + s, c);
        mhd_cell_flux(eos, uc, w, f, lam);
        for (int s = 0; s < 8; ++s) C(kF + s, c) = f[s];
        for (int s = 0; s < NMHD_WAVES; ++s) C(kLam + s, c) = lam[s];
        for (int s = 0; s < 2; ++s) C(kBv + s, c) = uc[kMhdN] * w[2 + s];  // as ct_bv
      });
      team.team_barrier();
      // Characteristic differences m (cells m, m + 1) of each face.
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, nface * kWenoDiffs), [&](int i) {
        const int n = i % nface, m = i / nface;
        if (!valid_face(n)) return;
        const MhdEigenSystem e = load_eigen(eos, E, n);
        const int ca = cell_of(n, m), cb = ca + 1;
        Real du[8], df[8], dw[NMHD_WAVES], dg[NMHD_WAVES];
        for (int s = 0; s < 8; ++s) {
          du[s] = C(kU + s, cb) - C(kU + s, ca);
          df[s] = C(kF + s, cb) - C(kF + s, ca);
        }
        mhd_to_characteristic(e, du, dw);
        mhd_to_characteristic(e, df, dg);
        store_differences<NMHD_WAVES>(D, n, m, dw, dg);
      });
      team.team_barrier();
      // The u slots are free: the next segment's cells load behind the
      // rest of this one.
      if (seg + 1 < nseg)
        fetch_cells(f0 + S);
      else
        async_commit();  // an empty group: the waits count groups
      // The WENO correction of wave s of each face; its LLF speed is the
      // largest |lambda_s| of the stencil.
      segment_corrections<W, NMHD_WAVES>(team, D, nface, eps, valid_face, [&](int n, int s) {
        Real alpha = 0;
        for (int m = 0; m < kWenoStencil; ++m) alpha = math::fmax(alpha, math::fabs(C(kLam + s, cell_of(n, m))));
        return alpha;
      });
      async_wait<1>();  // this segment's K (the next cells may be in flight)
      team.team_barrier();
      // Face fluxes (central part + the corrections back-projected), and
      // stage 1 of the constrained transport (fd_modified_flux): B_d v_t of
      // cells f-2 .. f+1, as ct_bv; the far face is the next segment's.
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, nface), [&](int n) {
        if (!valid_face(n)) return;
        Real corr[NMHD_WAVES], f[4][8], fhat[8];
        for (int s = 0; s < NMHD_WAVES; ++s) corr[s] = D(dw_slot(0, s), n);
        const int c1 = cell_of(n, 1);
        for (int m = 0; m < 4; ++m)
          for (int s = 0; s < 8; ++s) f[m][s] = C(kF + s, c1 + m);
        mhd_assemble_face_flux(load_eigen(eos, E, n), f[0], f[1], f[2], f[3], corr, fhat);
        for (int s = 0; s < 8; ++s) F(s, n) = fhat[s];
        const int row = n / nfr, tf = n % nfr;
        if (tf == S) return;
        const Ijk p = point(row, f0 + tf);
        for (int s = 0; s < 2; ++s) {
          Real bv[4];
          for (int m = 0; m < 4; ++m) bv[m] = C(kBv + s, c1 + m);
          fstar(s, p.k, p.j, p.i) = fhat[kMhdT1 + s] + ct_i4(bv[0], bv[1], bv[2], bv[3]);
        }
      });
      team.team_barrier();
      // Cells f0 .. f0+S-1 of the interior rows: K += flux difference, and
      // on the last axis the end of the stage.
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, nupd), [&](int c) {
        const int row = upd_row(c), tf = upd_pos(c), cell = f0 + tf;
        if (!interior(r0 + row, cell)) return;
        const Ijk p = point(row, cell);
        const int n = row * nfr + tf;
        Real kv[NMHD];
        for (int v = 0; v < NMHD; ++v) {  // v unrolled, so kv stays in registers
          const int s = mhd_frame_slot(d, v);
          const Real dv = flux_difference(dtdx, F(s, n), F(s, n + 1));
          const Real kn = first ? start_increment(A, read_k ? K(v, c) : Real(0), dv) : K(v, c) + dv;
          kv[v] = kn;
        }
        // Gravity after every axis' flux differences, as the native path.
        if (last) add_gravity_to(grav, dt, u(IDN, p.k, p.j, p.i), u(IM1, p.k, p.j, p.i), u(IM2, p.k, p.j, p.i),
                                 u(IM3, p.k, p.j, p.i), kv);
        if (!last || store_k)  // the 2N scheme's next stage reads K
          for (int v = 0; v < NMHD; ++v) kacc(v, p.k, p.j, p.i) = kv[v];
        if (last && finish_stage_cell<NMHD>(st, read_u0, read_r, eos, floors, a0, u, ar, ao, kv, p.k, p.j, p.i))
          Kokkos::atomic_add(&n_hits(), 1LL);
      });
      team.team_barrier();  // K and F read: the next segment may overwrite them
      if (seg + 1 < nseg) fetch_k(f0 + S);
    }
  };
  // Floors, rare, are counted with an atomic in device memory that only the
  // last axis resets and reads back (a host result would stop the host after
  // each axis until the kernel ends, and the GPU would idle for the next
  // launch). A parallel_for, not a Kokkos reduction: CUDA's team reduction
  // launches at most 32768 blocks, each walking several teams, and adds an
  // inter-block pass; at 256^3 the z kernel has 35,378 teams. H100, 256^3
  // blast, FdMhdStep/fused_lsrk4 alternated in one lease: 104 against
  // 112 ms a step.
  const std::string name = segments_label("fd_mhd_fused_segments", d);
  if (last) Kokkos::deep_copy(ExecSpace(), count, 0LL);
  FastPolicy fast(nrb * nq, team_size);
  fast.set_scratch_size(0, scratch);
  // The launch's own check, asked first: a device with less shared memory a
  // multiprocessor (A100: 164 KB) would refuse six teams.
  if (fast.team_size_max(kernel, Kokkos::ParallelForTag()) >= team_size) {
    Kokkos::parallel_for(name, fast, kernel);
  } else {
    SafePolicy safe(nrb * nq, team_size);
    safe.set_scratch_size(0, scratch);
    Kokkos::parallel_for(name, safe, kernel);
  }
  long long hits = 0;
  if (last) Kokkos::deep_copy(hits, count);
  return hits;
}

// The kernel for the options' weights family.
template <int S, int R, int D, class... Args>
long long segments_for(const FdOptions& opt, const Args&... args) {
  if (opt.weights == WenoWeights::z) return segments<WenoWeights::z, S, R, D>(opt, args...);
  return segments<WenoWeights::js, S, R, D>(opt, args...);
}

}  // namespace fd_mhd_segments_detail

long long fd_mhd_segments(const FdOptions& opt, const Grid& g, int d, bool first, bool last,
                          bool store_k, const Stage& st, Real dt, const Floors& floors,
                          const State& u0, const State& in, const State& out, const State& r,
                          const Array4& k, const Array4& fstar, const DeviceCount& count) {
  using namespace fd_mhd_segments_detail;
  // Segments of S faces in R rows, S and R compile-time (at run time every
  // axis ran slower, x too: 9.4e7 against 1.23e8). 31 faces and the far
  // face of the row are 32, one warp: the phases with a thread per face then
  // take one pass of one warp (with 32 faces the 33rd took a second pass of
  // a warp with one lane busy). Scratch 34 KB a team, six fit in 228 KB.
  // H200, 256^3 MHD blast, lsrk4: 31 x 1 on every axis 1.23e8; 31 x 1
  // along x and 15 x 2 along y and z 1.36e8 (the y and z kernels 8.5 and
  // 8.2 -> 7.4 and 7.1 ms: a warp of cells reads two rows' cells, two
  // neighbours in i, instead of one); 7 x 4 along y and z 1.31e8 (more
  // cells converted twice: 13 per 7 faces). Before the copies ahead 31 x 1
  // on every axis was the fastest (8.70e7 against 8.34e7 for 15 x 2 along y
  // and z); 8 x 4 (43 KB, five teams) and teams of 160 or 192 threads were
  // slower still.
  // The axis is a template parameter as well: the selections by d in the
  // index arithmetic fold away, and ptxas spilled nothing (24 bytes
  // before): 1.43e8 -> 1.46e8 in one lease. With the floor count as a
  // device atomic two instantiations spill 24/12 bytes (stores/loads; CUDA
  // 13.0, sm_90, 2026-12-05).
  if (d == 0)
    return segments_for<31, 1, 0>(opt, g, first, last, store_k, st, dt, floors, u0, in, out, r, k,
                                  fstar, count);
  if (d == 1)
    return segments_for<15, 2, 1>(opt, g, first, last, store_k, st, dt, floors, u0, in, out, r, k,
                                  fstar, count);
  return segments_for<15, 2, 2>(opt, g, first, last, store_k, st, dt, floors, u0, in, out, r, k,
                                fstar, count);
}

}  // namespace ax
