// Fused FV hydro stage for GPUs, each face once (solver.fused_layout:
// tiles; the GPU default): a team takes a tile of TX x TY columns of the
// box and walks a strip of SZ planes along z. Per plane it fills a plane of
// primitives in team scratch, two layers around the tile included (the
// tile's own cells come from a ring of the two planes above, each cell
// converted once on its way up); computes the tile's x- and y-faces from
// there into team scratch, in one phase; each column computes its upper
// z-face from the plane and the ring, with the left state it kept from the
// plane before (each z-slope once), and its lower z-face is the one it
// computed on the plane before; then each cell adds its fluxes in the order
// of the other paths (x, y, z) and finishes the stage.
// Why: the cells layout computes every face twice (six Riemann solves and
// thirteen conversions a cell), 2.0e9 cell-updates/s on the H200 (256^3
// blast); here a cell costs three Riemann solves and about two conversions.
// Measured there (Nsight Compute: issue slots 41% busy, FP64 pipe 33%, 0.6
// eligible warps a scheduler: latency-bound): the first form (the z-faces'
// four cells converted from global memory, x- and y-faces in two phases)
// 2.60e9 at 32 x 4 x 16; this form 2.60e9 at 32 x 4 x 16, 2.66-2.70e9 at
// 16 x 8 x 32 (the first form 2.62e9 there); 2.98-3.03e9 once HLLC took
// five divisions a face instead of nine (hydro/riemann.hpp).
// The conserved state each plane phase converts is copied into the plane's
// slots asynchronously (backend/async_copy.hpp) while the plane before is
// worked on: the layers once the faces phase has read them, a column's own
// cell once its column phase has. No scratch is added, and the plane phase
// no longer waits on device memory: 3.00e9 -> 3.12-3.15e9 (one lease),
// 3.15-3.19e9 with four teams a multiprocessor (below; 3.23e9 in a later
// lease, where the fused tests passed on the H200). Copying u0 and in
// of the finish ahead as well would take 51.5 KB of scratch, more than the
// 48 KB Kokkos gives a team: the launch fails.
#include "fv/fv_fused.hpp"
#include "backend/async_copy.hpp"
#include "backend/team_scratch.hpp"
#include "fv/fv_fused_dispatch.hpp"
#include "fv/fv_fused_faces.hpp"
#include "time/stage_combination.hpp"

namespace ax {

namespace fv_fused_tiles_detail {

// Half a warp along x, eight rows (128 threads); strips of 32 planes. Fewer
// layer cells and far faces per tile than 32 x 4 (2.58-2.60e9): 2.63-2.70e9
// (strips of 16: 2.66-2.67e9).
// Tiles with fewer faces than two passes of the team (16 x 8 has 280: the
// faces phase takes three passes, the third of 24 items) were slower, not
// faster: H200, one lease, 16 x 7 3.13e9 (five teams 3.17e9), 16 x 6
// 3.18e9, 14 x 8 2.98e9, 32 x 3 2.86e9 against 3.22-3.24e9. The other
// teams of the multiprocessor fill a team's idle lanes; what bounds the
// kernel is its chains of dependent FP64 instructions (docs/performance.md).
// Again with one body for the x- and y-faces (one lease): 16 x 7 ran the
// wave 1.5% faster (3.435, 3.463e9 against 3.411, 3.368e9) and the blast
// benchmark 1.5% slower (3.75-3.76 against 3.70-3.71 ms).
constexpr int kTX = 16, kTY = 8, kSZ = 32, kColumns = kTX * kTY;
constexpr int kTeam = 128;  // threads; at least kColumns (the column phase is one pass)
static_assert(kTeam >= kColumns && kTeam % 32 == 0, "whole warps, a thread per column");
// Four teams a multiprocessor. H200, 256^3, the first form: 3 teams
// 2.38e9, 4 teams 2.38e9, 5 teams 2.61e9 (96 registers, up to 300 bytes of
// spills), six (80 registers; 360 bytes of spills) 2.56e9: occupancy paid
// while the plane phase waited on memory. With the copies ahead, two runs
// in one lease: four teams 3.15e9 and 3.19e9, five 3.12e9 twice; strips
// of 16 planes 3.06-3.09e9, of 64 2.96e9, tiles of 32 x 4 3.08-3.09e9.
using Policy = Kokkos::TeamPolicy<ExecSpace, Kokkos::LaunchBounds<kTeam, 4>>;
using Team = Policy::member_type;
constexpr int kHalo = 2;  // PLM reads two cells on each side of a cell
constexpr int kPX = kTX + 2 * kHalo, kPY = kTY + 2 * kHalo;
// Team scratch, in values of NHYDRO each: the plane, the x- and y-faces,
// each column's lower z-face, the two planes above (the z ring) and the
// left state of each column's next z-face. 41.3 KB at 16 x 8 (five teams
// would fit in an H100/H200 multiprocessor's 228 KB).
constexpr int kPlaneItems = kPX * kPY, kFxItems = (kTX + 1) * kTY, kFyItems = kTX * (kTY + 1);
constexpr int kScratch = NHYDRO * (kPlaneItems + kFxItems + kFyItems + 4 * kColumns);

template <int ORDER, Limiter L, RiemannSolver RS>
struct TilesStage {
  // Slot of plane k in the z ring: PLM keeps the two planes above the
  // current one (k + 1, k + 2), donor cell the one (k + 1); the slot of
  // plane k is refilled with plane k + ORDER once k is in the plane block.
  static KOKKOS_FORCEINLINE_FUNCTION int ring_slot(int k) { return ORDER == 2 ? (k & 1) : 0; }

  static long long run(const FvOptions& opt, const Grid& g, Real a, Real b, Real c_dt, const Floors& fl,
                       const Array4& u0, const Array4& in, const Array4& out, const Box& box,
                       const DeviceCount& hits) {
    const IdealGas eos = opt.eos;
    const Gravity grav = opt.gravity;
    const bool ax0 = g.active(0), ax1 = g.active(1), ax2 = g.active(2);
    const Real inv0 = Real(1) / g.dx[0], inv1 = Real(1) / g.dx[1], inv2 = Real(1) / g.dx[2];
    // Layers around the tile read along each axis (none along an inactive one).
    const int hx = ax0 ? kHalo : 0, hy = ax1 ? kHalo : 0;
    const int ntx = (box.ie - box.ib + kTX - 1) / kTX, nty = (box.je - box.jb + kTY - 1) / kTY;
    const int nsz = (box.ke - box.kb + kSZ - 1) / kSZ;
    // Items of the plane phase: the tile's own cells, then the layers below
    // and above it along y, then those left and right of it along x.
    const int nyh = 2 * hy * kTX, nxh = 2 * hx * kTY, nplane = kColumns + nyh + nxh;
    const int nfx = ax0 ? kFxItems : 0, nfy = ax1 ? kFyItems : 0;
    const int team_size = phase_team_size(kTeam);
    auto kernel = KOKKOS_LAMBDA(const Team& team) {
      long long my_hits = 0;  // this thread's cells that needed a floor
      TeamScratch sc(team.team_scratch(0), kScratch);
      const ScratchBlock P{sc.data(), kPlaneItems};      // primitives of the plane
      const ScratchBlock FX = P.after(NHYDRO, kFxItems);  // x-faces i0 .. i0+TX of each row
      const ScratchBlock FY = FX.after(NHYDRO, kFyItems); // y-faces j0 .. j0+TY of each column
      const ScratchBlock FZ = FY.after(NHYDRO, kColumns); // each column's lower z-face
      const ScratchBlock ZR = FZ.after(NHYDRO, 2 * kColumns);  // the z ring: primitives, slot * kColumns + c
      const ScratchBlock ZL = ZR.after(NHYDRO, kColumns);  // left state (face frame) of the next z-face
      const int t = team.league_rank();
      const int i0 = box.ib + (t % ntx) * kTX, j0 = box.jb + ((t / ntx) % nty) * kTY;
      const int k0 = box.kb + (t / (ntx * nty)) * kSZ, k1 = k0 + kSZ < box.ke ? k0 + kSZ : box.ke;
      const int ihi = i0 + kTX < box.ie ? i0 + kTX : box.ie, jhi = j0 + kTY < box.je ? j0 + kTY : box.je;
      auto ring = [&](int k, int c, int n) -> Real& { return ZR(n, ring_slot(k) * kColumns + c); };
      // Cell (i0 - hx + px, j0 - hy + py) of the plane is P item py * kPX + px.
      // Item c of the plane phase: the tile's own cells, then the layers
      // below and above it along y, then those left and right of it along
      // x. Returns its P item, or -1 where it is never read (beyond the
      // tile's stencils, or a corner); `from_ring` for the tile's own
      // cells when z is active (they come up through the ring).
      auto plane_item = [&](int c, int& i, int& j, bool& from_ring) {
        int px, py;
        if (c < kColumns) {
          px = hx + c % kTX;
          py = hy + c / kTX;
        } else if (c < kColumns + nyh) {  // rows below and above the tile
          const int h = c - kColumns, row = h / kTX;
          px = hx + h % kTX;
          py = row < kHalo ? row : kTY + row;
        } else {  // columns left and right of it
          const int h = c - kColumns - nyh, col = h / kTY;
          px = col < kHalo ? col : kTX + col;
          py = hy + h % kTY;
        }
        i = i0 - hx + px;
        j = j0 - hy + py;
        if (i >= ihi + hx || j >= jhi + hy) return -1;
        const bool in_x = i >= i0 && i < ihi, in_y = j >= j0 && j < jhi;
        if (!in_x && !in_y) return -1;
        from_ring = ax2 && in_x && in_y;  // then c is the column (i - i0) + (j - j0) kTX
        return py * kPX + px;
      };
      // The conserved state an item's P slots take ahead of plane k's
      // plane phase (copied while plane k - 1 is worked on): plane k for
      // the layers, plane k + ORDER for the tile's own cells, which then
      // go to the ring. `ring_items` picks those of the tile.
      auto copy_ahead = [&](int c, int k, bool ring_items) {
        int i, j;
        bool from_ring = false;
        const int item = plane_item(c, i, j, from_ring);
        if (item < 0 || from_ring != ring_items) return;
        const int kk = from_ring ? k + ORDER : k;
        for (int n = 0; n < NHYDRO; ++n) async_copy(&P(n, item), &in(n, kk, j, i));
      };
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, nplane), [&](int c) {
        copy_ahead(c, k0, false);
        copy_ahead(c, k0, true);
      });
      async_commit();
      if (ax2)  // the strip's lowest z-faces, the ring and the left states
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, kColumns), [&](int c) {
          const int i = i0 + c % kTX, j = j0 + c / kTX;
          if (i >= ihi || j >= jhi) return;
          Real w0[NHYDRO], w1[NHYDRO], w2[NHYDRO], w3[NHYDRO], f[NHYDRO];
          load_prim(eos, in, k0 - 1, j, i, w1);
          load_prim(eos, in, k0, j, i, w2);
          if constexpr (ORDER == 2) {
            load_prim(eos, in, k0 - 2, j, i, w0);
            load_prim(eos, in, k0 + 1, j, i, w3);
          } else {
            for (int n = 0; n < NHYDRO; ++n) w0[n] = w3[n] = Real(0);  // unused by donor cell
          }
          fused_face_flux<2, ORDER, L, RS>(eos, w0, w1, w2, w3, f);
          for (int s = 0; s < NHYDRO; ++s) FZ(s, c) = f[s];
          for (int n = 0; n < NHYDRO; ++n) ring(k0, c, n) = w2[n];
          if constexpr (ORDER == 2) {
            for (int n = 0; n < NHYDRO; ++n) ring(k0 + 1, c, n) = w3[n];
            Real cm[NHYDRO], cc[NHYDRO], cp[NHYDRO], lower[NHYDRO], upper[NHYDRO];
            for (int s = 0; s < NHYDRO; ++s) {  // the left state of face k0 + 1/2
              const int n = face_slot(2, s);
              cm[s] = w1[n];
              cc[s] = w2[n];
              cp[s] = w3[n];
            }
            plm_cell_faces<L, NHYDRO>(cm, cc, cp, lower, upper);
            for (int s = 0; s < NHYDRO; ++s) ZL(s, c) = upper[s];
          }
        });
      async_wait<0>();
      team.team_barrier();
      for (int k = k0; k < k1; ++k) {
        // The plane, from the conserved states copied ahead: the layers
        // converted in place; the tile's cells from the ring, whose slot
        // then takes plane k + ORDER.
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, nplane), [&](int c) {
          int i, j;
          bool from_ring = false;
          const int item = plane_item(c, i, j, from_ring);
          if (item < 0) return;
          Real u[NHYDRO], w[NHYDRO];
          for (int n = 0; n < NHYDRO; ++n) u[n] = P(n, item);
          cons_to_prim(eos, u, w);
          if (from_ring) {
            for (int n = 0; n < NHYDRO; ++n) P(n, item) = ring(k, c, n);
            for (int n = 0; n < NHYDRO; ++n) ring(k + ORDER, c, n) = w[n];
          } else {
            for (int n = 0; n < NHYDRO; ++n) P(n, item) = w[n];
          }
        });
        team.team_barrier();
        // The x-faces of the tile's rows, then the y-faces of its columns,
        // in one body: the states are read into the face frame and the flux
        // stored in it, so one copy of the slopes and the Riemann solver
        // serves both axes: a warp holding faces of both no longer runs
        // them one after the other, and the kernel's code is a copy
        // shorter. Two branches with a copy each: H200, the 256^3 wave
        // 3.07e9 against 3.43e9, the kernel 2.51 against 2.23 ms a stage.
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, nfx + nfy), [&](int c) {
          const bool along_x = c < nfx;
          int centre, step, slot;  // P item of the cell above the face, its neighbour along the axis, F item
          if (along_x) {
            const int fx = c % (kTX + 1), ty = c / (kTX + 1);
            if (i0 + fx > ihi || j0 + ty >= jhi) return;
            centre = (hy + ty) * kPX + hx + fx;
            step = 1;
            slot = c;
          } else {
            const int cy = c - nfx, tx = cy % kTX, fy = cy / kTX;
            if (i0 + tx >= ihi || j0 + fy > jhi) return;
            centre = (hy + fy) * kPX + hx + tx;
            step = kPX;
            slot = cy;
          }
          Real c0[NHYDRO], c1[NHYDRO], c2[NHYDRO], c3[NHYDRO], l[NHYDRO], r[NHYDRO], f[NHYDRO];
          for (int s = 0; s < NHYDRO; ++s) {  // as fused_face_flux<0 or 1>
            const int n = along_x ? face_slot(0, s) : face_slot(1, s);
            c0[s] = ORDER == 2 ? P(n, centre - 2 * step) : Real(0);
            c1[s] = P(n, centre - step);
            c2[s] = P(n, centre);
            c3[s] = ORDER == 2 ? P(n, centre + step) : Real(0);
          }
          face_states<ORDER, L, NHYDRO>(c0, c1, c2, c3, l, r);
          riemann_flux<RS>(eos, l, r, f);
          const ScratchBlock F = along_x ? FX : FY;
          for (int s = 0; s < NHYDRO; ++s) F(s, slot) = f[s];
        });
        team.team_barrier();
        // The layers of P are read: the next plane's layers load behind the
        // column phase.
        const bool more = k + 1 < k1;
        if (more) Kokkos::parallel_for(Kokkos::TeamThreadRange(team, nplane), [&](int c) { copy_ahead(c, k + 1, false); });
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, kColumns), [&](int c) {
          const int tx = c % kTX, ty = c / kTX, i = i0 + tx, j = j0 + ty;
          if (i >= ihi || j >= jhi) return;
          // Same order of accumulation as the native path (x, then y, then
          // z), so every path gives the same bits.
          Real acc[NHYDRO] = {0, 0, 0, 0, 0};
          Real fm[NHYDRO], fp[NHYDRO];
          if (ax0) {
            for (int s = 0; s < NHYDRO; ++s) {
              fm[s] = FX(s, ty * (kTX + 1) + tx);
              fp[s] = FX(s, ty * (kTX + 1) + tx + 1);
            }
            add_flux_difference<0>(fm, fp, inv0, acc);
          }
          if (ax1) {
            for (int s = 0; s < NHYDRO; ++s) {
              fm[s] = FY(s, ty * kTX + tx);
              fp[s] = FY(s, (ty + 1) * kTX + tx);
            }
            add_flux_difference<1>(fm, fp, inv1, acc);
          }
          if (ax2) {
            // The upper z-face: its left state is the one this column kept
            // (PLM) and its right state the cell above's, whose slope is
            // also the next face's left state: each slope once.
            const int centre = (hy + ty) * kPX + hx + tx;
            Real l[NHYDRO], r[NHYDRO];
            if constexpr (ORDER == 2) {
              // Cell k + 1: its lower values are this face's right state,
              // its upper values the next face's left state.
              Real cm[NHYDRO], cc[NHYDRO], cp[NHYDRO], next[NHYDRO];
              for (int s = 0; s < NHYDRO; ++s) {
                const int n = face_slot(2, s);
                cm[s] = P(n, centre);
                cc[s] = ring(k + 1, c, n);
                cp[s] = ring(k + 2, c, n);
              }
              plm_cell_faces<L, NHYDRO>(cm, cc, cp, r, next);
              for (int s = 0; s < NHYDRO; ++s) {
                l[s] = ZL(s, c);
                ZL(s, c) = next[s];
              }
            } else {
              for (int s = 0; s < NHYDRO; ++s) {
                const int n = face_slot(2, s);
                l[s] = P(n, centre);
                r[s] = ring(k + 1, c, n);
              }
            }
            for (int s = 0; s < NHYDRO; ++s) fm[s] = FZ(s, c);
            riemann_flux<RS>(eos, l, r, fp);
            add_flux_difference<2>(fm, fp, inv2, acc);
            for (int s = 0; s < NHYDRO; ++s) FZ(s, c) = fp[s];  // the next plane's lower face
          }
          // This column's P slots are read: its next cell loads behind the rest.
          if (more) copy_ahead(c, k + 1, true);
          if (finish_fused_cell(eos, fl, grav, a, b, c_dt, u0, in, out, acc, k, j, i)) ++my_hits;
        });
        async_commit();
        async_wait<0>();      // this thread's copies for the next plane
        team.team_barrier();  // the next plane overwrites FX, FY and the ring; the copies are visible
      }
      // Floors are rare: an atomic only from a thread that hit one. A team
      // reduction of the count each plane (the launch a parallel_reduce)
      // cost 13% of the kernel: H200, FvStep/fused/256 4.62 -> 4.00 ms a
      // step, the wave's stages 2.90 / 2.94 -> 2.51 / 2.57 ms.
      if (my_hits != 0) Kokkos::atomic_add(&hits(), my_hits);
    };
    Policy policy(ntx * nty * nsz, team_size);
    policy.set_scratch_size(0, Kokkos::PerTeam(TeamScratch::shmem_size(kScratch)));
    Kokkos::parallel_for("fv_fused_tiles", policy, kernel);
    return 0;  // the count is added to `hits`
  }
};

}  // namespace fv_fused_tiles_detail

void fv_stage_fused_tiles(const FvOptions& opt, const Grid& g, int order, Real a, Real b, Real c_dt,
                          const Floors& floors, const Array4& u0, const Array4& in, const Array4& out,
                          const Box& box, const DeviceCount& hits) {
  dispatch_fused<fv_fused_tiles_detail::TilesStage>(opt, order, g, a, b, c_dt, floors, u0, in, out, box, hits);
}

}  // namespace ax
