// Fused FV hydro stage for GPUs, each face once (solver.fused_layout:
// tiles; the GPU default): a team takes a tile of
// TX x TY columns of the box and walks a strip of SZ planes along z. Per
// plane it converts the plane's cells, two layers around the tile
// included, to primitives in team scratch once; computes the tile's x- and
// y-faces from there into team scratch; each column computes its upper
// z-face from the cells below and above (its lower z-face is the one it
// computed on the plane before, kept in scratch); then each cell adds its
// fluxes in the order of the other paths (x, y, z) and finishes the stage.
// Why: the cells layout computes every face twice (six Riemann solves and
// thirteen conversions a cell), 2.0e9 cell-updates/s on the H200 (256^3
// blast); here a cell costs three Riemann solves and about six conversions
// (the plane with its layers, the cell above, and the three other cells of
// its upper z-face): 2.6e9.
#include "fv/fv_fused.hpp"
#include "backend/team_scratch.hpp"
#include "fv/fv_fused_dispatch.hpp"
#include "fv/fv_fused_faces.hpp"
#include "time/stage_combination.hpp"

namespace ax {

namespace fv_fused_tiles_detail {

// A warp along x, four rows (128 threads); strips of 16 planes.
constexpr int kTX = 32, kTY = 4, kSZ = 16, kColumns = kTX * kTY;
// Five teams a multiprocessor (96 registers, up to 192 bytes of spills by
// ptxas for sm_90): latency-bound, so occupancy pays more than the spills
// cost. H200, 256^3: 3 teams 2.38e9, 4 teams 2.38e9, 5 teams 2.61e9. Tiles
// of 16 x 8 or strips of 32 planes gained 1-3% at 4 teams (not taken).
using Policy = Kokkos::TeamPolicy<ExecSpace, Kokkos::LaunchBounds<kColumns, 5>>;
using Team = Policy::member_type;
constexpr int kHalo = 2;  // PLM reads two cells on each side of a cell
constexpr int kPX = kTX + 2 * kHalo, kPY = kTY + 2 * kHalo;
constexpr int kScratch = NHYDRO * (kPX * kPY + (kTX + 1) * kTY + kTX * (kTY + 1) + kColumns);

template <int ORDER, Limiter L, RiemannSolver RS>
struct TilesStage {
  static long long run(const FvOptions& opt, const Grid& g, Real a, Real b, Real c_dt, const Floors& fl,
                       const Array4& u0, const Array4& in, const Array4& out, const Box& box,
                       const DeviceCount& hits) {
    const IdealGas eos = opt.eos;
    const bool ax0 = g.active(0), ax1 = g.active(1), ax2 = g.active(2);
    const Real inv0 = Real(1) / g.dx[0], inv1 = Real(1) / g.dx[1], inv2 = Real(1) / g.dx[2];
    // Layers around the tile read along each axis (none along an inactive one).
    const int hx = ax0 ? kHalo : 0, hy = ax1 ? kHalo : 0;
    const int ntx = (box.ie - box.ib + kTX - 1) / kTX, nty = (box.je - box.jb + kTY - 1) / kTY;
    const int nsz = (box.ke - box.kb + kSZ - 1) / kSZ;
    const int team_size = phase_team_size(kColumns);
    auto kernel = KOKKOS_LAMBDA(const Team& team, long long& n_hit) {
      TeamScratch sc(team.team_scratch(0), kScratch);
      const ScratchBlock P{sc.data(), kPX * kPY};              // primitives of the plane
      const ScratchBlock FX = P.after(NHYDRO, (kTX + 1) * kTY);  // x-faces i0 .. i0+TX of each row
      const ScratchBlock FY = FX.after(NHYDRO, kTX * (kTY + 1)); // y-faces j0 .. j0+TY of each column
      const ScratchBlock FZ = FY.after(NHYDRO, kColumns);        // each column's lower z-face
      const int t = team.league_rank();
      const int i0 = box.ib + (t % ntx) * kTX, j0 = box.jb + ((t / ntx) % nty) * kTY;
      const int k0 = box.kb + (t / (ntx * nty)) * kSZ, k1 = k0 + kSZ < box.ke ? k0 + kSZ : box.ke;
      const int ihi = i0 + kTX < box.ie ? i0 + kTX : box.ie, jhi = j0 + kTY < box.je ? j0 + kTY : box.je;
      // Cell (i0 - hx + px, j0 - hy + py) of the plane is P item py * kPX + px.
      auto pw = [&](int px, int py, Real w[NHYDRO]) {
        for (int n = 0; n < NHYDRO; ++n) w[n] = P(n, py * kPX + px);
      };
      // The z-face below cell (k, j, i), from the cells k-2 .. k+1 (w2: cell k).
      auto z_face = [&](int k, int j, int i, const Real w2[NHYDRO], Real f[NHYDRO]) {
        Real w0[NHYDRO], w1[NHYDRO], w3[NHYDRO];
        load_prim(eos, in, k - 1, j, i, w1);
        if constexpr (ORDER == 2) {
          load_prim(eos, in, k - 2, j, i, w0);
          load_prim(eos, in, k + 1, j, i, w3);
        } else {
          for (int n = 0; n < NHYDRO; ++n) w0[n] = w3[n] = Real(0);  // unused by donor cell
        }
        fused_face_flux<2, ORDER, L, RS>(eos, w0, w1, w2, w3, f);
      };
      if (ax2)  // the strip's lowest z-faces
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, kColumns), [&](int c) {
          const int i = i0 + c % kTX, j = j0 + c / kTX;
          if (i >= ihi || j >= jhi) return;
          Real w2[NHYDRO], f[NHYDRO];
          load_prim(eos, in, k0, j, i, w2);
          z_face(k0, j, i, w2, f);
          for (int s = 0; s < NHYDRO; ++s) FZ(s, c) = f[s];
        });
      for (int k = k0; k < k1; ++k) {
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, kPX * kPY), [&](int c) {
          const int px = c % kPX, py = c / kPX;
          const int i = i0 - hx + px, j = j0 - hy + py;
          if (i >= ihi + hx || j >= jhi + hy) return;  // beyond the tile's stencils: never read
          if ((i < i0 || i >= ihi) && (j < j0 || j >= jhi)) return;  // corners: never read (nor filled)
          Real w[NHYDRO];
          load_prim(eos, in, k, j, i, w);
          for (int n = 0; n < NHYDRO; ++n) P(n, c) = w[n];
        });
        team.team_barrier();
        if (ax0)
          Kokkos::parallel_for(Kokkos::TeamThreadRange(team, (kTX + 1) * kTY), [&](int c) {
            const int fx = c % (kTX + 1), ty = c / (kTX + 1);
            if (i0 + fx > ihi || j0 + ty >= jhi) return;
            Real w0[NHYDRO], w1[NHYDRO], w2[NHYDRO], w3[NHYDRO], f[NHYDRO];
            const int px = hx + fx, py = hy + ty;  // the cell above face fx
            pw(px - 1, py, w1);
            pw(px, py, w2);
            if constexpr (ORDER == 2) {
              pw(px - 2, py, w0);
              pw(px + 1, py, w3);
            } else {
              for (int n = 0; n < NHYDRO; ++n) w0[n] = w3[n] = Real(0);
            }
            fused_face_flux<0, ORDER, L, RS>(eos, w0, w1, w2, w3, f);
            for (int s = 0; s < NHYDRO; ++s) FX(s, c) = f[s];
          });
        if (ax1)
          Kokkos::parallel_for(Kokkos::TeamThreadRange(team, kTX * (kTY + 1)), [&](int c) {
            const int tx = c % kTX, fy = c / kTX;
            if (i0 + tx >= ihi || j0 + fy > jhi) return;
            Real w0[NHYDRO], w1[NHYDRO], w2[NHYDRO], w3[NHYDRO], f[NHYDRO];
            const int px = hx + tx, py = hy + fy;
            pw(px, py - 1, w1);
            pw(px, py, w2);
            if constexpr (ORDER == 2) {
              pw(px, py - 2, w0);
              pw(px, py + 1, w3);
            } else {
              for (int n = 0; n < NHYDRO; ++n) w0[n] = w3[n] = Real(0);
            }
            fused_face_flux<1, ORDER, L, RS>(eos, w0, w1, w2, w3, f);
            for (int s = 0; s < NHYDRO; ++s) FY(s, c) = f[s];
          });
        team.team_barrier();
        long long plane_hits = 0;
        Kokkos::parallel_reduce(Kokkos::TeamThreadRange(team, kColumns), [&](int c, long long& nh) {
          const int tx = c % kTX, ty = c / kTX, i = i0 + tx, j = j0 + ty;
          if (i >= ihi || j >= jhi) return;
          Real wc[NHYDRO];
          pw(hx + tx, hy + ty, wc);
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
            for (int s = 0; s < NHYDRO; ++s) fm[s] = FZ(s, c);
            Real wp1[NHYDRO];
            load_prim(eos, in, k + 1, j, i, wp1);
            z_face(k + 1, j, i, wp1, fp);
            add_flux_difference<2>(fm, fp, inv2, acc);
            for (int s = 0; s < NHYDRO; ++s) FZ(s, c) = fp[s];  // the next plane's lower face
          }
          if (finish_fused_cell(eos, fl, a, b, c_dt, u0, in, out, acc, k, j, i)) ++nh;
        }, plane_hits);
        Kokkos::single(Kokkos::PerTeam(team), [&]() { n_hit += plane_hits; });
        team.team_barrier();  // the next plane overwrites P, FX and FY
      }
    };
    Policy policy(ntx * nty * nsz, team_size);
    policy.set_scratch_size(0, Kokkos::PerTeam(TeamScratch::shmem_size(kScratch)));
    Kokkos::parallel_reduce("fv_fused_tiles", policy, kernel, Kokkos::Sum<long long, MemSpace>(hits));
    return 0;  // the count is in `hits`
  }
};

}  // namespace fv_fused_tiles_detail

void fv_stage_fused_tiles(const FvOptions& opt, const Grid& g, int order, Real a, Real b, Real c_dt,
                          const Floors& floors, const Array4& u0, const Array4& in, const Array4& out,
                          const Box& box, const DeviceCount& hits) {
  dispatch_fused<fv_fused_tiles_detail::TilesStage>(opt, order, g, a, b, c_dt, floors, u0, in, out, box, hits);
}

}  // namespace ax
