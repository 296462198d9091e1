// Fused FV stage as one sweep per axis. A sweep walks lines of cells along
// its axis, keeps the primitive states of the four rows around the current
// face and the previous face's flux in per-thread scratch, computes each
// face once and adds -(F(+1/2) - F(-1/2)) / dx into du in place. The last
// active axis folds in the stage combination and the floors, so a stage
// reads the state three times and writes du twice and the result once.
// On the 2-core CI machines this is what makes the fused path faster than
// the native one (the per-cell layout recomputes every face and was 2.4x
// slower there).
#include "fv/fv_fused.hpp"
#include "fv/fv_fused_dispatch.hpp"
#include "fv/fv_fused_faces.hpp"
#include "time/stage_combination.hpp"
#include "fv/plm.hpp"

namespace ax {

namespace fv_fused_sweeps_detail {

using Team = Kokkos::TeamPolicy<ExecSpace>::member_type;
using ScratchRow = Kokkos::View<Real**, Kokkos::LayoutRight, ExecSpace::scratch_memory_space,
                                Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

// What the sweep does with the divergence of its axis: the first active
// axis starts du from zero, the last one finishes the stage.
struct Mode {
  bool first, last;
};

// The Riemann solver over faces r0..r1-1 of one row: left states at
// sc[lo + slot * w + r], right states at sc[ro + ...], fluxes to sc[fo + ...]
// (slots in grid order). Flattened: every call inside is inlined, since GCC
// on its own left HLLC a call in the x-sweep and a loop with a call does not
// vectorise (+45% on the fused 64^3 blast with AVX2). Only here: forcing
// HLLC inline everywhere made the native path's per-cell flux kernel 20%
// slower (the kernel itself then stopped being inlined into its loop).
template <int D, RiemannSolver RS>
ASTRONOMIX_FLATTEN KOKKOS_INLINE_FUNCTION void riemann_row(const IdealGas& eos, Real* __restrict sc, int w, int lo,
                                                          int ro, int fo, int r0, int r1) {
  ASTRONOMIX_IVDEP
  for (int r = r0; r < r1; ++r) {
    Real l[NHYDRO], rr[NHYDRO], f[NHYDRO];
    AX_UNROLL
    for (int q = 0; q < NHYDRO; ++q) {
      l[q] = sc[lo + face_slot(D, q) * w + r];
      rr[q] = sc[ro + face_slot(D, q) * w + r];
    }
    riemann_flux<RS>(eos, l, rr, f);
    AX_UNROLL
    for (int q = 0; q < NHYDRO; ++q) sc[fo + face_slot(D, q) * w + r] = f[q];
  }
}

template <int ORDER, Limiter L, RiemannSolver RS>
struct SweepsStage {
  // Scratch rows (each `width` long): 4 rolling rows of primitives (5 vars
  // each), left and right face states, and the fluxes of the faces below and
  // above the current cells. Structure of arrays, so each loop over a row
  // runs over contiguous numbers.
  static constexpr int kPrim = 0, kLeft = 4 * NHYDRO, kRight = 5 * NHYDRO, kFlux = 6 * NHYDRO;
  static constexpr int kRows = 8 * NHYDRO;

  // Sweep along axis D. D = 0: one line per (k, j) row, faces along i.
  // D = 1: one line per k plane, walked along j, rows along i. D = 2: one
  // line per j, walked along k, rows along i.
  template <int D>
  static long long sweep(Mode mode, const FvOptions& opt, const Grid& g, Real a, Real b, Real c_dt,
                         const Floors& fl, const Array4& u0, const Array4& in, const Array4& out,
                         const Array4& du) {
    const IdealGas eos = opt.eos;
    const Gravity grav = opt.gravity;
    const Real inv_dx = Real(1) / g.dx[D];
    const int ib = g.is(0), ie = g.ie(0), jb = g.is(1), je = g.ie(1), kb = g.is(2), ke = g.ie(2);
    const int nj = je - jb, ni = ie - ib;
    const int nlines = D == 0 ? (ke - kb) * nj : (D == 1 ? ke - kb : nj);
    const int width = g.extent(0) + 1;
    const size_t bytes = ScratchRow::shmem_size(kRows, width);
    Kokkos::TeamPolicy<ExecSpace> policy(nlines, 1);
    policy.set_scratch_size(0, Kokkos::PerTeam(bytes));
    long long hits = 0;
    Kokkos::parallel_reduce("fv_fused_sweep", policy, KOKKOS_LAMBDA(const Team& team, long long& nhit) {
      ScratchRow s(team.team_scratch(0), kRows, width);
      const int line = team.league_rank();
      const int lk = D == 0 ? kb + line / nj : (D == 1 ? kb + line : 0);
      const int lj = D == 0 ? jb + line % nj : (D == 2 ? jb + line : 0);
      // Primitives of row p (D > 0) or of the whole line (D = 0) into slot.
      auto load_row = [&](int p, int slot, int r0, int r1) {
        ASTRONOMIX_SIMD
        for (int r = r0; r < r1; ++r) {
          const int k = D == 2 ? p : lk, j = D == 1 ? p : lj, i = D == 0 ? r : ib + r;
          Real c[NHYDRO], w[NHYDRO];
          for (int n = 0; n < NHYDRO; ++n) c[n] = in(n, k, j, i);
          cons_to_prim(eos, c, w);
          for (int n = 0; n < NHYDRO; ++n) s(kPrim + slot * NHYDRO + n, r) = w[n];
        }
      };
      // Fluxes of faces at positions r0..r1-1 into flux slot fs. For D = 0 the
      // face at r lies between cells r-1 and r of the line (all in slot 0);
      // for D > 0 between rows in slots s1 and s2 (s0, s3 beyond them).
      auto faces = [&](int s0, int s1, int s2, int s3, int fs, int r0, int r1) {
        const int o = D == 0 ? 1 : 0;  // D = 0: neighbours are positions, not rows
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
        // GPUs form a cell's slopes together (limited_slopes, the face
        // frame's order): a face at a time.
        for (int r = r0; r < r1; ++r) {
          Real c[4][NHYDRO], l[NHYDRO], rr[NHYDRO];
          for (int f = 0; f < NHYDRO; ++f) {
            const int n = face_slot(D, f);
            c[0][f] = s(kPrim + s0 * NHYDRO + n, r - 2 * o);
            c[1][f] = s(kPrim + s1 * NHYDRO + n, r - o);
            c[2][f] = s(kPrim + s2 * NHYDRO + n, r);
            c[3][f] = s(kPrim + s3 * NHYDRO + n, r + o);
          }
          face_states<ORDER, L, NHYDRO>(c[0], c[1], c[2], c[3], l, rr);
          for (int f = 0; f < NHYDRO; ++f) {
            s(kLeft + face_slot(D, f), r) = l[f];
            s(kRight + face_slot(D, f), r) = rr[f];
          }
        }
#else
        // CPUs a variable at a time (limited_slopes is a slope at a time
        // there: the same bits). Raw row pointers: the compiler vectorises
        // unit-stride loops over them, not over View accesses with a
        // run-time row index.
        for (int n = 0; n < NHYDRO; ++n) {
          const Real* __restrict p0 = &s(kPrim + s0 * NHYDRO + n, 0) - 2 * o;
          const Real* __restrict p1 = &s(kPrim + s1 * NHYDRO + n, 0) - o;
          const Real* __restrict p2 = &s(kPrim + s2 * NHYDRO + n, 0);
          const Real* __restrict p3 = &s(kPrim + s3 * NHYDRO + n, 0) + o;
          Real* __restrict lft = &s(kLeft + n, 0);
          Real* __restrict rgt = &s(kRight + n, 0);
          ASTRONOMIX_SIMD
          for (int r = r0; r < r1; ++r) face_states<ORDER, L>(p0[r], p1[r], p2[r], p3[r], lft[r], rgt[r]);
        }
#endif
        // The Riemann solver over the row, on one scratch base pointer with
        // offsets known at compile time: GCC vectorises this form, not
        // `omp simd` over arrays of row pointers, which kept the solver
        // scalar.
        Real* __restrict sc = s.data();
        const int w = int(s.stride(0));
        const int fo = (kFlux + fs * NHYDRO) * w;
        riemann_row<D, RS>(eos, sc, w, kLeft * w, kRight * w, fo, r0, r1);
      };
      // du, or the finished stage, for the cells at r0..r1-1 from the fluxes
      // below (slot fm, at r + om) and above (slot fp, at r + op).
      auto update = [&](int p, int fm, int fp, int om, int op, int r0, int r1) {
        for (int r = r0; r < r1; ++r) {
          const int k = D == 2 ? p : lk, j = D == 1 ? p : lj, i = D == 0 ? r : ib + r;
          Real d[NHYDRO];
          for (int n = 0; n < NHYDRO; ++n) {
            const Real div = (s(kFlux + fp * NHYDRO + n, r + op) - s(kFlux + fm * NHYDRO + n, r + om)) * inv_dx;
            d[n] = (mode.first ? Real(0) : du(n, k, j, i)) - div;
          }
          if (!mode.last) {
            for (int n = 0; n < NHYDRO; ++n) du(n, k, j, i) = d[n];
            continue;
          }
          if (finish_fused_cell(eos, fl, grav, a, b, c_dt, u0, in, out, d, k, j, i)) ++nhit;
        }
      };
      if (D == 0) {
        // Faces ib .. ie of the row (face f between cells f-1 and f), then
        // each cell from its two faces.
        load_row(0, 0, 0, g.extent(0));
        faces(0, 0, 0, 0, 0, ib, ie + 1);
        update(0, 0, 0, 0, 1, ib, ie);
      } else {
        const int pb = D == 1 ? jb : kb, pe = D == 1 ? je : ke;
        auto slot = [](int p) { return (p + 8) % 4; };
        for (int p = pb - 2; p <= pb + 1; ++p) load_row(p, slot(p), 0, ni);
        int fm = 0;  // flux slot of the face below the current row
        faces(slot(pb - 2), slot(pb - 1), slot(pb), slot(pb + 1), fm, 0, ni);
        for (int p = pb; p < pe; ++p) {
          load_row(p + 2, slot(p + 2), 0, ni);
          faces(slot(p - 1), slot(p), slot(p + 1), slot(p + 2), 1 - fm, 0, ni);
          update(p, fm, 1 - fm, 0, 0, 0, ni);
          fm = 1 - fm;
        }
      }
    }, Kokkos::Sum<long long>(hits));
    return hits;
  }

  static long long run(const FvOptions& opt, const Grid& g, Real a, Real b, Real c_dt,
                       const Floors& fl, const Array4& u0, const Array4& in, const Array4& out,
                       const Array4& du) {
    int last = 0, first = -1;
    for (int d = 0; d < 3; ++d)
      if (g.active(d)) {
        last = d;
        if (first < 0) first = d;
      }
    long long hits = 0;
    auto mode = [&](int d) { return Mode{d == first, d == last}; };
    if (g.active(0)) hits += sweep<0>(mode(0), opt, g, a, b, c_dt, fl, u0, in, out, du);
    if (g.active(1)) hits += sweep<1>(mode(1), opt, g, a, b, c_dt, fl, u0, in, out, du);
    if (g.active(2)) hits += sweep<2>(mode(2), opt, g, a, b, c_dt, fl, u0, in, out, du);
    return hits;
  }
};

}  // namespace fv_fused_sweeps_detail

long long fv_stage_fused_sweeps(const FvOptions& opt, const Grid& g, int order, Real a, Real b,
                                Real c_dt, const Floors& floors, const Array4& u0, const Array4& in,
                                const Array4& out, const Array4& du) {
  return dispatch_fused<fv_fused_sweeps_detail::SweepsStage>(opt, order, g, a, b, c_dt, floors, u0, in, out, du);
}

}  // namespace ax
