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

template <int ORDER, Limiter L, RiemannSolver RS>
struct SweepsStage {
  // Sweep along axis D. Lines are indexed by the outer index (k for D = 0 and
  // D = 1, j for D = 2) and, for D = 0, also by j; rows run along i.
  template <int D>
  static long long sweep(Mode mode, const FvOptions& opt, const Grid& g, Real a, Real b, Real c_dt,
                         const Floors& fl, const Array4& u0, const Array4& in, const Array4& out,
                         const Array4& du) {
    const IdealGas eos = opt.eos;
    const Real inv_dx = Real(1) / g.dx[D];
    const int ib = g.is(0), ie = g.ie(0), jb = g.is(1), je = g.ie(1), kb = g.is(2), ke = g.ie(2);
    const int nj = je - jb;
    // D = 0: one line per (k, j) row, walked along i.
    // D = 1: one line per k plane, walked along j, rows along i.
    // D = 2: one line per j, walked along k, rows along i.
    const int nlines = D == 0 ? (ke - kb) * nj : (D == 1 ? ke - kb : nj);
    const int ni = ie - ib;
    const int width = D == 0 ? g.extent(0) : ni;  // scratch row length
    // Scratch: 4 rows of primitives (rolling), the previous face flux row and
    // the current one.
    const size_t bytes = ScratchRow::shmem_size(6 * NHYDRO, width);
    Kokkos::TeamPolicy<ExecSpace> policy(nlines, 1);
    policy.set_scratch_size(0, Kokkos::PerTeam(bytes));
    long long hits = 0;
    Kokkos::parallel_reduce("fv_fused_sweep", policy, KOKKOS_LAMBDA(const Team& team, long long& nhit) {
      ScratchRow s(team.team_scratch(0), 6 * NHYDRO, width);
      const int line = team.league_rank();
      // Cell index of position p along the line and row position r.
      auto cell = [&](int p, int r, int& k, int& j, int& i) {
        if (D == 0) { k = kb + line / nj; j = jb + line % nj; i = p; }
        if (D == 1) { k = kb + line; j = p; i = ib + r; }
        if (D == 2) { j = jb + line; k = p; i = ib + r; }
      };
      auto load_row = [&](int p, int slot) {  // primitives of row p into slot
        for (int r = 0; r < (D == 0 ? width : ni); ++r) {
          int k, j, i;
          cell(D == 0 ? r : p, r, k, j, i);
          Real c[NHYDRO], w[NHYDRO];
          for (int n = 0; n < NHYDRO; ++n) c[n] = in(n, k, j, i);
          cons_to_prim(eos, c, w);
          for (int n = 0; n < NHYDRO; ++n) s(slot * NHYDRO + n, r) = w[n];
        }
      };
      // Flux through the face between cells m1 and p0 of the line, from the
      // rows (or row positions) m2, m1, p0, p1, into flux slot `fs` at r.
      auto face = [&](int sm2, int sm1, int sp0, int sp1, int rm2, int rm1, int rp0, int rp1, int fs, int r) {
        Real l[NHYDRO], rr[NHYDRO], f[NHYDRO];
        for (int q = 0; q < NHYDRO; ++q) {
          const int n = face_slot(D, q);
          face_states<ORDER, L>(s(sm2 * NHYDRO + n, rm2), s(sm1 * NHYDRO + n, rm1),
                                s(sp0 * NHYDRO + n, rp0), s(sp1 * NHYDRO + n, rp1), l[q], rr[q]);
        }
        riemann_flux<RS>(eos, l, rr, f);
        for (int q = 0; q < NHYDRO; ++q) s((4 + fs) * NHYDRO + face_slot(D, q), r) = f[q];
      };
      // du or out for cell (k, j, i) from the face fluxes in slots 4 (minus) and 5 (plus).
      auto update = [&](int k, int j, int i, int r) {
        Real d[NHYDRO];
        for (int n = 0; n < NHYDRO; ++n) {
          const Real div = (s(5 * NHYDRO + n, r) - s(4 * NHYDRO + n, r)) * inv_dx;
          d[n] = (mode.first ? Real(0) : du(n, k, j, i)) - div;
        }
        if (!mode.last) {
          for (int n = 0; n < NHYDRO; ++n) du(n, k, j, i) = d[n];
          return;
        }
        Real res[NHYDRO];
        for (int n = 0; n < NHYDRO; ++n) res[n] = a * u0(n, k, j, i) + b * in(n, k, j, i) + c_dt * d[n];
        if (apply_floors(eos, fl, res)) ++nhit;
        for (int n = 0; n < NHYDRO; ++n) out(n, k, j, i) = res[n];
      };
      if (D == 0) {
        // The whole row (ghosts included) in slot 0; faces walk along i.
        load_row(0, 0);
        face(0, 0, 0, 0, ib - 2, ib - 1, ib, ib + 1, 0, ib);
        for (int i = ib; i < ie; ++i) {
          face(0, 0, 0, 0, i - 1, i, i + 1, i + 2, 1, i);
          int k, j, ii;
          cell(i, i, k, j, ii);
          update(k, j, i, i);
          for (int n = 0; n < NHYDRO; ++n) s(4 * NHYDRO + n, i + 1) = s(5 * NHYDRO + n, i);
        }
      } else {
        const int pb = D == 1 ? jb : kb, pe = D == 1 ? je : ke;
        // Rows p-2 .. p+1 live in slots (p mod 4).
        for (int p = pb - 2; p <= pb + 1; ++p) load_row(p, (p + 8) % 4);
        auto slot = [](int p) { return (p + 8) % 4; };
        for (int r = 0; r < ni; ++r) face(slot(pb - 2), slot(pb - 1), slot(pb), slot(pb + 1), r, r, r, r, 0, r);
        for (int p = pb; p < pe; ++p) {
          load_row(p + 2, slot(p + 2));
          for (int r = 0; r < ni; ++r) {
            face(slot(p - 1), slot(p), slot(p + 1), slot(p + 2), r, r, r, r, 1, r);
            int k, j, i;
            cell(p, r, k, j, i);
            update(k, j, i, r);
            for (int n = 0; n < NHYDRO; ++n) s(4 * NHYDRO + n, r) = s(5 * NHYDRO + n, r);
          }
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
