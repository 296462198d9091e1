// Fused FV MHD stage for CPUs: the first kernel of the `cells` layout
// (fv_mhd_fused_cells.cpp) as one sweep per axis that computes each face
// once. A sweep walks lines of cells along its axis with the primitives of
// the rows around the current face and the fluxes of the faces below and
// above the current row in per-thread scratch, stores the face EMFs and
// mass-flux signs CT needs (lines in the layer around the interior too),
// and adds -(F(+1/2) - F(-1/2)) / dx into the accumulator du; the last axis
// folds in the stage combination. CT stages 2 and 3 and the finishing
// kernel are those of the cells layout. On one CPU core the cells layout's
// doubled Riemann solves and 24 conversions to primitives per cell made it
// 2x slower than the native path. The Riemann solver runs over a whole row
// of faces in one vectorised loop (docs/mhd.md: 1.6x native on one core).
#include "fv/fv_dispatch.hpp"
#include "fv/fv_mhd_fused_kernels.hpp"
#include "time/stage_combination.hpp"

namespace ax {

namespace fv_mhd_sweeps_detail {

using Team = Kokkos::TeamPolicy<ExecSpace>::member_type;
using ScratchRow = Kokkos::View<Real**, Kokkos::LayoutRight, ExecSpace::scratch_memory_space,
                                Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

// The first active axis starts du, the last one finishes the stage.
struct Mode {
  bool first, last;
};

// Scratch rows (each `width` long): four rolling rows of primitives (8
// variables each), the left and right face states of one face row (7 each,
// face frame), the fluxes (5 hydro variables, grid order) of the face
// rows below and above the current cells, and the current face row's two
// induction fluxes.
constexpr int kPrim = 0, kLeft = 4 * NMHD, kRight = kLeft + NWAVE_FACE, kFlux = kRight + NWAVE_FACE;
constexpr int kInd = kFlux + 2 * NHYDRO, kRows = kInd + 2;

template <int ORDER, Limiter L, MhdRiemannSolver RS>
struct Sweeps {
  // Axis D. D = 0: one line per (k, j) row, faces along i. D = 1: one line
  // per k plane walked along j, rows along i. D = 2: one line per j walked
  // along k. Lines and rows cover ct_face_cells: the interior and one layer
  // around it across the sweep, where only the face EMFs are kept.
  template <int D>
  static void sweep(Mode mode, const FvOptions& opt, const Grid& g, Real a, Real b, Real c_dt, const Array4& u0,
                    const State& in, const Array4& out, const Array4& du, CtFusedWorkspace& ws) {
    const IdealGas eos = opt.eos;
    const Gravity grav = opt.gravity;
    const Real inv_dx = Real(1) / g.dx[D];
    const Box cells = ct_face_cells(g);
    const int is[3] = {g.is(0), g.is(1), g.is(2)}, ie[3] = {g.ie(0), g.ie(1), g.ie(2)};
    const int is0 = is[0], is1 = is[1], is2 = is[2], ie0 = ie[0], ie1 = ie[1], ie2 = ie[2];
    // The cross-section of the sweep: lines (D = 0: k x j; D = 1: k; D = 2: j).
    const int kb = cells.kb, ke = cells.ke, jb = cells.jb, je = cells.je, ib = cells.ib, iend = cells.ie;
    const int nj = je - jb;
    const int nlines = D == 0 ? (ke - kb) * nj : (D == 1 ? ke - kb : nj);
    const int width = g.extent(0) + 1;
    const std::size_t bytes = ScratchRow::shmem_size(kRows, width);
    const Array4 u = in.u, bface = in.b[D], face_e = ws.face_e.e[D];
    const SignArray sign = ws.mass_sign[D];
    // The first sweep converts every cell CT reads: it keeps their E.
    const Array4 e_cell = ws.e_cell;
    const bool keep_e = mode.first;
    Kokkos::TeamPolicy<ExecSpace> policy(nlines, 1);
    policy.set_scratch_size(0, Kokkos::PerTeam(bytes));
    Kokkos::parallel_for("fv_mhd_fused_sweep", policy, KOKKOS_LAMBDA(const Team& team) {
      ScratchRow s(team.team_scratch(0), kRows, width);
      const int line = team.league_rank();
      const int lk = D == 0 ? kb + line / nj : (D == 1 ? kb + line : 0);
      const int lj = D == 0 ? jb + line % nj : (D == 2 ? jb + line : 0);
      // Cells (k, j, i) of the row at position p along D (D > 0) or of the
      // line (D = 0), scratch column r.
      auto cell = [&](int p, int r, int& k, int& j, int& i) {
        k = D == 2 ? p : lk;
        j = D == 1 ? p : lj;
        i = D == 0 ? r : ib + r;
      };
      const int r_end = D == 0 ? g.extent(0) : iend - ib;
      auto load_row = [&](int p, int slot) {
        for (int r = 0; r < r_end; ++r) {
          int k, j, i;
          cell(p, r, k, j, i);
          Real c[NMHD], w[NMHD];
          for (int n = 0; n < NMHD; ++n) c[n] = u(n, k, j, i);
          mhd_cons_to_prim(eos, c, w);
          for (int n = 0; n < NMHD; ++n) s(kPrim + slot * NMHD + n, r) = w[n];
          if (keep_e)
            for (int e = 0; e < 3; ++e) e_cell(e, k, j, i) = cell_emf(w, e);
        }
      };
      // The faces of row position p (the lower faces of its cells) from the
      // rows in slots s0..s3 (D = 0: positions r-2..r+1 of slot 0), into flux
      // slot fs; their EMFs and signs into the CT arrays. Two loops over the
      // row, each vectorised: the face states into the left and right
      // scratch rows, then the Riemann solver (branch-free HLLD) over them.
      auto faces = [&](int p, int s0, int s1, int s2, int s3, int fs, int r0, int r1) {
        const int o = D == 0 ? 1 : 0;
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
        // GPUs form a cell's slopes together (limited_slopes): a face at a time.
        for (int r = r0; r < r1; ++r) {
          Real c[4][NWAVE_FACE], l[NWAVE_FACE], rr[NWAVE_FACE];
          for (int q = 0; q < NWAVE_FACE; ++q) {
            const int n = mhd_frame_slot<D>(q);
            c[0][q] = s(kPrim + s0 * NMHD + n, r - 2 * o);
            c[1][q] = s(kPrim + s1 * NMHD + n, r - o);
            c[2][q] = s(kPrim + s2 * NMHD + n, r);
            c[3][q] = s(kPrim + s3 * NMHD + n, r + o);
          }
          face_states<ORDER, L, NWAVE_FACE>(c[0], c[1], c[2], c[3], l, rr);
          for (int q = 0; q < NWAVE_FACE; ++q) {
            s(kLeft + q, r) = l[q];
            s(kRight + q, r) = rr[q];
          }
        }
#else
        // CPUs a variable at a time, vectorised over the row (limited_slopes
        // is a slope at a time there: the same bits).
        for (int q = 0; q < NWAVE_FACE; ++q) {
          const int n = mhd_frame_slot<D>(q);
          const Real* __restrict p0 = &s(kPrim + s0 * NMHD + n, 0) - 2 * o;
          const Real* __restrict p1 = &s(kPrim + s1 * NMHD + n, 0) - o;
          const Real* __restrict p2 = &s(kPrim + s2 * NMHD + n, 0);
          const Real* __restrict p3 = &s(kPrim + s3 * NMHD + n, 0) + o;
          Real* __restrict lft = &s(kLeft + q, 0);
          Real* __restrict rgt = &s(kRight + q, 0);
          ASTRONOMIX_SIMD
          for (int r = r0; r < r1; ++r) face_states<ORDER, L>(p0[r], p1[r], p2[r], p3[r], lft[r], rgt[r]);
        }
#endif
        // The Riemann solver over the row, on one scratch base pointer with
        // offsets known at compile time (what GCC vectorises), its hydro
        // fluxes into flux slot fs (grid order), the two induction fluxes
        // into rows kInd; then the EMFs and mass-flux signs out to CT.
        Real* __restrict sc = s.data();
        const int w = int(s.stride(0));
        const int fo = (kFlux + fs * NHYDRO) * w;
        int k, j, i;
        cell(p, 0, k, j, i);  // face arrays along the row: column r is i = r (D = 0) or ib + r
        const Real* __restrict bn = &bface(0, k, j, i);
        ASTRONOMIX_IVDEP
        for (int r = r0; r < r1; ++r) {
          Real l[NWAVE_FACE], rr[NWAVE_FACE], f[NWAVE_FACE];
          AX_UNROLL
          for (int q = 0; q < NWAVE_FACE; ++q) {
            l[q] = sc[(kLeft + q) * w + r];
            rr[q] = sc[(kRight + q) * w + r];
          }
          mhd_riemann_flux<RS>(eos, l, rr, bn[r], f);
          AX_UNROLL
          for (int q = 0; q < NHYDRO; ++q) sc[fo + face_slot(D, q) * w + r] = f[q];
          sc[kInd * w + r] = f[5];
          sc[(kInd + 1) * w + r] = f[6];
        }
        Real* __restrict e_t1 = &face_e(0, k, j, i);
        Real* __restrict e_t2 = &face_e(1, k, j, i);
        std::int8_t* __restrict sg = &sign(k, j, i);
        for (int r = r0; r < r1; ++r) {
          face_emfs_from_fluxes(sc[kInd * w + r], sc[(kInd + 1) * w + r], e_t1[r], e_t2[r]);
          sg[r] = mass_flux_sign(sc[fo + r]);  // the mass flux: slot 0 on every axis
        }
      };
      // du, or the finished hydro variables, of the interior cells of row p
      // from the fluxes below (slot fm, column r + om) and above (fp, r + op).
      auto update = [&](int p, int fm, int fp, int om, int op) {
        const int r0 = D == 0 ? is0 : is0 - ib, r1 = D == 0 ? ie0 : ie0 - ib;
        for (int r = r0; r < r1; ++r) {
          int k, j, i;
          cell(p, r, k, j, i);
          Real d[NHYDRO];
          for (int n = 0; n < NHYDRO; ++n) {
            const Real div = (s(kFlux + fp * NHYDRO + n, r + op) - s(kFlux + fm * NHYDRO + n, r + om)) * inv_dx;
            d[n] = (mode.first ? Real(0) : du(n, k, j, i)) - div;
          }
          if (mode.last) {
            add_gravity_to(grav, Real(1), u(IDN, k, j, i), u(IM1, k, j, i), u(IM2, k, j, i), u(IM3, k, j, i), d);  // after the fluxes, as native
            for (int n = 0; n < NHYDRO; ++n)
              out(n, k, j, i) = stage_combination(a, u0(n, k, j, i), b, u(n, k, j, i), c_dt, d[n]);
          } else {
            for (int n = 0; n < NHYDRO; ++n) du(n, k, j, i) = d[n];
          }
        }
      };
      if (D == 0) {
        const bool interior = lk >= is2 && lk < ie2 && lj >= is1 && lj < ie1;
        load_row(0, 0);
        faces(0, 0, 0, 0, 0, 0, is0, ie0 + 1);  // face r between cells r-1 and r
        if (interior) update(0, 0, 0, 0, 1);
      } else {
        const int lo = D == 1 ? is1 : is2, hi = D == 1 ? ie1 : ie2;
        const int across = D == 1 ? lk : lj;  // the line's index across the sweep
        const bool interior_line = D == 1 ? (across >= is2 && across < ie2) : (across >= is1 && across < ie1);
        auto slot = [](int p) { return (p + 8) % 4; };
        for (int p = lo - 2; p <= lo + 1; ++p) load_row(p, slot(p));
        int fm = 0;  // flux slot of the face row below the current cells
        faces(lo, slot(lo - 2), slot(lo - 1), slot(lo), slot(lo + 1), fm, 0, r_end);
        for (int p = lo; p < hi; ++p) {
          load_row(p + 2, slot(p + 2));
          faces(p + 1, slot(p - 1), slot(p), slot(p + 1), slot(p + 2), 1 - fm, 0, r_end);
          if (interior_line) update(p, fm, 1 - fm, 0, 0);
          fm = 1 - fm;
        }
      }
    });
  }

  static void run(const FvOptions& opt, const Grid& g, Real a, Real b, Real c_dt, const Array4& u0,
                  const State& in, const Array4& out, const Array4& du, CtFusedWorkspace& ws) {
    int first = -1, last = 0;
    for (int d = 0; d < 3; ++d)
      if (g.active(d)) {
        last = d;
        if (first < 0) first = d;
      }
    auto mode = [&](int d) { return Mode{d == first, d == last}; };
    if (g.active(0)) sweep<0>(mode(0), opt, g, a, b, c_dt, u0, in, out, du, ws);
    if (g.active(1)) sweep<1>(mode(1), opt, g, a, b, c_dt, u0, in, out, du, ws);
    if (g.active(2)) sweep<2>(mode(2), opt, g, a, b, c_dt, u0, in, out, du, ws);
  }
};

}  // namespace fv_mhd_sweeps_detail

void fv_mhd_fused_sweeps(const FvOptions& opt, const Grid& g, int order, Real a, Real b, Real c_dt,
                         const Array4& u0, const State& in, const Array4& out, const Array4& du,
                         CtFusedWorkspace& ws) {
  using namespace fv_mhd_sweeps_detail;
  with_mhd_riemann(opt.mhd_riemann, [&](auto R) {
    constexpr MhdRiemannSolver RS = decltype(R)::value;
    if (order == 1) {
      Sweeps<1, Limiter::minmod, RS>::run(opt, g, a, b, c_dt, u0, in, out, du, ws);
    } else {
      with_limiter(opt.limiter, [&](auto L) {
        Sweeps<2, decltype(L)::value, RS>::run(opt, g, a, b, c_dt, u0, in, out, du, ws);
      });
    }
  });
}

}  // namespace ax
