// The first kernel of the fused FV MHD stage for GPUs, each face once: a
// team takes a tile of TX x TY cells in the x-y plane and walks a strip of
// SZ planes along z. Per plane it converts the plane's cells, with two
// layers around the tile, to primitives in team scratch once; computes the
// lower x- and y-faces of each cell from there (the tile's far x- and
// y-faces in a second, compact pass) and its upper z-face from the cells
// above and below; keeps their hydro fluxes in team scratch (the z-faces of
// two planes), and after a barrier finishes the cells' hydro variables. The
// face EMFs and signs go to the CT arrays as the faces are made; the faces
// of the layer around the interior that CT also reads come from the cells
// kernel, run on that layer only.
// Why: with HLLD the cells layout (each face twice) spent 13 of its 16 ms
// per stage at 256^3 in its first kernel (4.7 ms with LLF), the Riemann
// solves. Halving the faces (tiles, each cell converting its neighbours
// for every face) gave 5.58e8 cell-updates/s capped at 128 registers
// (4.83e8 uncapped: 255 registers, two teams per multiprocessor) against
// cells 5.08e8 and native 5.25e8; Nsight Compute then showed the PLM stage
// taking 15.9 ms against 8.6 ms for the donor-cell stage: the ten
// conversions per cell and the registers they hold, which the shared plane
// of primitives removes for the x- and y-faces. Tried: the z-neighbours
// too, from a ring of the tile's own columns over four planes: 72 KB of
// scratch a team, more than the 48 KB Kokkos lets a team have (the launch
// is refused). Each column keeping its next z-face's left state (two
// conversions a z-face, 47.5 KB of scratch) ran slower: 9.18 ms for the PLM
// stage against 8.9; likely cause: four teams' scratch grew from 162 to
// 190 KB of the multiprocessor's 256 KB of L1 and shared memory, and the
// spilled registers live in the L1 that is left (docs/mhd.md).
#include "fv/fv_dispatch.hpp"
#include "fv/fv_mhd_fused_kernels.hpp"
#include "time/stage_combination.hpp"

namespace ax {

namespace fv_mhd_tiles_detail {

// Four teams of 128 threads per multiprocessor (the measurements at the launch).
using Policy = Kokkos::TeamPolicy<ExecSpace, Kokkos::LaunchBounds<128, 4>>;
using Team = Policy::member_type;
using Scratch = Kokkos::View<Real*, ExecSpace::scratch_memory_space, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
// HLLD in its branch form (mhd/mhd_riemann.hpp): only the fan's side of the
// contact is live, so the kernel fits in fewer registers; the same bits.
constexpr HlldForm kHlld = HlldForm::branch;

// Tile shape: a warp along x, four rows (128 threads); strips of 32 planes.
// Tried (H200, one lease, against this form at 15.3-15.4 ms a step of
// FvMhdStep/fused/256): tiles of 28 x 4 with a thread per face (the 256 x-
// and y-faces in two passes of the team, then the 112 z-faces in a third;
// three passes a plane instead of four, the plane's 256 cells in two
// instead of three) 16.3-16.4 ms, the PLM stage's launch 7.3 ms against
// 6.6: gathered in one pass, the z-faces' loads from device memory (three
// cells each) are no longer hidden behind the x- and y-faces of a thread.
constexpr int kTX = 32, kTY = 4, kSZ = 32;

// Flux through the z-face below cell (k, j, i) from the primitives of the
// cells below it (wb, cell k - 1) and above it (wa, cell k); the two beyond
// them are converted here.
template <int ORDER, Limiter L, MhdRiemannSolver RS>
KOKKOS_FORCEINLINE_FUNCTION void z_face_flux(const IdealGas& eos, const Array4& u, const Array4& b3, int k, int j,
                                             int i, const Real wb[NMHD], const Real wa[NMHD], Real f[NWAVE_FACE]) {
  Real w0[NMHD], w3[NMHD];
  if constexpr (ORDER == 2) {
    load_mhd_prim(eos, u, k - 2, j, i, w0);
    load_mhd_prim(eos, u, k + 1, j, i, w3);
  } else {
    for (int n = 0; n < NMHD; ++n) w0[n] = w3[n] = Real(0);  // unused by donor cell
  }
  mhd_face_flux<2, ORDER, L, RS, kHlld>(eos, w0, wb, wa, w3, b3(0, k, j, i), f);
}

// Flux through the lower face along x (along_x) or y of the cell at plane
// position (b, a) of the primitives plane P (8 variables, pitch px along a,
// py along b), whose neighbours along that axis are read from P too. The
// axis is a run-time value, so one inlined copy of the slopes and HLLD can
// serve both (the slots as mhd_frame_slot<0 or 1>, the same bits).
template <int ORDER, Limiter L, MhdRiemannSolver RS>
KOKKOS_FORCEINLINE_FUNCTION void plane_lower_flux(const IdealGas& eos, const Real* P, int px, int py, int b, int a,
                                                  bool along_x, Real bn, Real f[NWAVE_FACE]) {
  const int step = along_x ? 1 : px;  // next cell along the axis in the plane
  const int c = b * px + a;
  Real c0[NWAVE_FACE], c1[NWAVE_FACE], c2[NWAVE_FACE], c3[NWAVE_FACE], l[NWAVE_FACE], r[NWAVE_FACE];
  for (int q = 0; q < NWAVE_FACE; ++q) {
    const Real* v = P + (along_x ? mhd_frame_slot<0>(q) : mhd_frame_slot<1>(q)) * px * py + c;
    c0[q] = ORDER == 2 ? v[-2 * step] : Real(0);
    c1[q] = v[-step];
    c2[q] = v[0];
    c3[q] = ORDER == 2 ? v[step] : Real(0);
  }
  face_states<ORDER, L, NWAVE_FACE>(c0, c1, c2, c3, l, r);
  mhd_riemann_flux<RS, kHlld>(eos, l, r, bn, f);
}

struct Geometry {
  bool active[3];
  int is[3], ie[3];
  Real inv_dx[3];
  int tiles_x, tiles_y;  // tiles per plane; strips follow
};

template <int ORDER, Limiter L, MhdRiemannSolver RS>
void tiles(const FvOptions& opt, const Grid& g, Real a, Real b, Real c_dt, const Array4& u0, const State& in,
           const Array4& out, CtFusedWorkspace& ws) {
  const IdealGas eos = opt.eos;
  const Gravity grav = opt.gravity;
  Geometry x;
  for (int d = 0; d < 3; ++d) {
    x.active[d] = g.active(d);
    x.is[d] = g.is(d);
    x.ie[d] = g.ie(d);
    x.inv_dx[d] = Real(1) / g.dx[d];
  }
  const int tx_n = g.active(0) ? kTX : 1, ty_n = g.active(1) ? kTY : 1, sz = g.active(2) ? kSZ : 1;
  x.tiles_x = (g.nx[0] + tx_n - 1) / tx_n;
  x.tiles_y = (g.nx[1] + ty_n - 1) / ty_n;
  const int strips = (g.nx[2] + sz - 1) / sz;
  // Scratch: fx[5][ty][tx + 1], fy[5][ty + 1][tx], fz[2][5][ty][tx], and the
  // plane's primitives P[8][ty + 2 hy][tx + 2 hx] (two layers around the
  // tile along the active axes of the plane).
  const int nfx = NHYDRO * ty_n * (tx_n + 1), nfy = NHYDRO * (ty_n + 1) * tx_n, nfz = NHYDRO * ty_n * tx_n;
  const int hx = g.active(0) ? 2 : 0, hy = g.active(1) ? 2 : 0;
  const int px = tx_n + 2 * hx, py = ty_n + 2 * hy, np = NMHD * px * py;
  const std::size_t scratch = Scratch::shmem_size(nfx + nfy + 2 * nfz + np);
  const Array4 u = in.u, b1 = in.b.x1f, b2 = in.b.x2f, b3 = in.b.x3f;
  const Array4 e1 = ws.face_e.e[0], e2 = ws.face_e.e[1], e3 = ws.face_e.e[2];
  const SignArray s1 = ws.mass_sign[0], s2 = ws.mass_sign[1], s3 = ws.mass_sign[2];
#ifdef ASTRONOMIX_FLAT_LOOPS
  const int team_size = tx_n * ty_n;  // a thread per cell of the tile
#else
  const int team_size = 1;  // a host thread walks the tile
#endif
  // Four teams of 128 threads per multiprocessor: at most 128 registers.
  // With HLLD's selection form three teams were best (168 registers, 68
  // bytes of spills; four spilled 320 bytes: Nsight Compute counted 150
  // million local-memory spill requests a launch). With the branch form
  // four spill 116 bytes (ptxas, CUDA 13.0, sm_90). H200, 256^3 Orszag-Tang,
  // FvMhdStep/fused: lease 1, the selection form at three teams 6.78e8
  // cell-updates/s, the branch form at three 7.19e8, at four 7.52e8; lease
  // 2 (z-faces reading the cell's own primitives from the plane) four teams
  // 7.34-7.39e8, three 7.22e8, five 6.42e8 (96 registers, 1.8 KB of
  // spills), strips of 16 planes 7.25e8, of 64 7.42e8. Once HLLD took seven
  // divisions (2026-12-04, one lease, a step of FvMhdStep/fused/256): this
  // form 18.0-18.2 ms, three teams for the PLM stage 18.0-18.1 ms, tiles of
  // 16 x 8 18.9 ms (16 x 8 with three teams in the PLM stage 18.3 ms).
  // Once van Leer's seven slopes took a division each (2026-12-05; four
  // teams spill 64-116 bytes, three none at 142-166 registers): four teams
  // 14.7 ms, three 16.0-16.1 ms, the 40-step run 1.105e9 against 1.020e9.
  Policy policy(x.tiles_x * x.tiles_y * strips, team_size);
  policy.set_scratch_size(0, Kokkos::PerTeam(scratch));
  Kokkos::parallel_for("fv_mhd_fused_tiles", policy, KOKKOS_LAMBDA(const Team& team) {
    Scratch sc(team.team_scratch(0), nfx + nfy + 2 * nfz + np);
    Real* fx = sc.data();
    Real* fy = fx + nfx;
    Real* fzs[2] = {fy + nfy, fy + nfy + nfz};
    Real* P = fy + nfy + 2 * nfz;
    const int tile = team.league_rank();
    const int plane_tiles = x.tiles_x * x.tiles_y;
    const int strip = tile / plane_tiles, txy = tile % plane_tiles;
    const int i0 = x.is[0] + (txy % x.tiles_x) * tx_n, j0 = x.is[1] + (txy / x.tiles_x) * ty_n;
    const int i1 = i0 + tx_n < x.ie[0] ? i0 + tx_n : x.ie[0], j1 = j0 + ty_n < x.ie[1] ? j0 + ty_n : x.ie[1];
    const int k0 = x.is[2] + strip * sz, k1 = k0 + sz < x.ie[2] ? k0 + sz : x.ie[2];
    const int nx = i1 - i0, ny = j1 - j0;
    auto at_fx = [&](int n, int ty, int tx) -> Real& { return fx[(n * ty_n + ty) * (tx_n + 1) + tx]; };
    auto at_fy = [&](int n, int ty, int tx) -> Real& { return fy[(n * (ty_n + 1) + ty) * tx_n + tx]; };
    auto at_fz = [&](int s, int n, int ty, int tx) -> Real& { return fzs[s][(n * ty_n + ty) * tx_n + tx]; };
    int cur = 0;
    const int pnx = nx + 2 * hx, pny = ny + 2 * hy;  // this tile's part of the plane
    for (int k = k0; k < k1; ++k) {
      const int nxt = 1 - cur;
      // The plane's primitives, two layers around the tile included.
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, pnx * pny), [&](int t) {
        const int a = t % pnx, bb = t / pnx;
        Real w[NMHD];
        load_mhd_prim(eos, u, k, j0 - hy + bb, i0 - hx + a, w);
        for (int n = 0; n < NMHD; ++n) P[(n * py + bb) * px + a] = w[n];
      });
      team.team_barrier();
      // Faces owned by each cell: its lower x- and y-faces and its upper
      // z-face (the lower one too on the strip's first plane).
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, nx * ny), [&](int t) {
        const int tx = t % nx, ty = t / nx, i = i0 + tx, j = j0 + ty;
        Real f[NWAVE_FACE];
        if (x.active[0]) {
          plane_lower_flux<ORDER, L, RS>(eos, P, px, py, ty + hy, tx + hx, true, b1(0, k, j, i), f);
          store_face_emfs(f, e1, s1, k, j, i);
          for (int s = 0; s < NHYDRO; ++s) at_fx(face_slot(0, s), ty, tx) = f[s];
        }
        if (x.active[1]) {
          plane_lower_flux<ORDER, L, RS>(eos, P, px, py, ty + hy, tx + hx, false, b2(0, k, j, i), f);
          store_face_emfs(f, e2, s2, k, j, i);
          for (int s = 0; s < NHYDRO; ++s) at_fy(face_slot(1, s), ty, tx) = f[s];
        }
        if (x.active[2]) {
          // The cell's own primitives from the plane (read again for each
          // face: fewer registers held), its z-neighbours converted.
          Real wc[NMHD], wz[NMHD];
          if (k == k0) {
            for (int n = 0; n < NMHD; ++n) wc[n] = P[(n * py + ty + hy) * px + tx + hx];
            load_mhd_prim(eos, u, k - 1, j, i, wz);
            z_face_flux<ORDER, L, RS>(eos, u, b3, k, j, i, wz, wc, f);
            if (k == x.is[2]) store_face_emfs(f, e3, s3, k, j, i);  // else the strip below stored it
            for (int s = 0; s < NHYDRO; ++s) at_fz(cur, face_slot(2, s), ty, tx) = f[s];
          }
          for (int n = 0; n < NMHD; ++n) wc[n] = P[(n * py + ty + hy) * px + tx + hx];
          load_mhd_prim(eos, u, k + 1, j, i, wz);
          z_face_flux<ORDER, L, RS>(eos, u, b3, k + 1, j, i, wc, wz, f);
          store_face_emfs(f, e3, s3, k + 1, j, i);
          for (int s = 0; s < NHYDRO; ++s) at_fz(nxt, face_slot(2, s), ty, tx) = f[s];
        }
      });
      // The tile's far faces: upper x-faces of its last column, upper
      // y-faces of its last row (EMFs stored where they are the domain's).
      const int far_x = x.active[0] ? ny : 0, far_y = x.active[1] ? nx : 0;
      // One body for both axes: the warp that holds far faces of both (4
      // x-faces and 28 y-faces at 32 x 4) runs the slopes and HLLD once,
      // not once an axis, while the team's other warps wait at the barrier.
      // H200, 256^3 Orszag-Tang: the PLM stage's launch 8.7 -> 6.6 ms, the
      // donor-cell stage's 5.1-5.4 -> 4.3-4.6 ms. The cell phase's faces
      // in loops as well (one inlined copy for x and y, one for both
      // z-faces) lost part of it: 7.2 ms for the PLM stage.
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, far_x + far_y), [&](int t) {
        const bool along_x = t < far_x;
        const int tx = along_x ? nx : t - far_x, ty = along_x ? t : ny;  // the cell above the face
        const int i = i0 + tx, j = j0 + ty;
        Real f[NWAVE_FACE];
        plane_lower_flux<ORDER, L, RS>(eos, P, px, py, ty + hy, tx + hx, along_x,
                                       along_x ? b1(0, k, j, i) : b2(0, k, j, i), f);
        if (along_x ? i == x.ie[0] : j == x.ie[1])
          store_face_emfs(f, along_x ? e1 : e2, along_x ? s1 : s2, k, j, i);
        for (int s = 0; s < NHYDRO; ++s) {
          if (along_x)
            at_fx(face_slot(0, s), ty, tx) = f[s];
          else
            at_fy(face_slot(1, s), ty, tx) = f[s];
        }
      });
      team.team_barrier();
      // x, then y, then z: the native path's order of accumulation.
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, nx * ny), [&](int t) {
        const int tx = t % nx, ty = t / nx, i = i0 + tx, j = j0 + ty;
        Real acc[NHYDRO] = {0, 0, 0, 0, 0};
        if (x.active[0])
          for (int n = 0; n < NHYDRO; ++n) acc[n] -= (at_fx(n, ty, tx + 1) - at_fx(n, ty, tx)) * x.inv_dx[0];
        if (x.active[1])
          for (int n = 0; n < NHYDRO; ++n) acc[n] -= (at_fy(n, ty + 1, tx) - at_fy(n, ty, tx)) * x.inv_dx[1];
        if (x.active[2])
          for (int n = 0; n < NHYDRO; ++n) acc[n] -= (at_fz(nxt, n, ty, tx) - at_fz(cur, n, ty, tx)) * x.inv_dx[2];
        add_gravity_to(grav, Real(1), u(IDN, k, j, i), u(IM1, k, j, i), u(IM2, k, j, i), u(IM3, k, j, i), acc);  // after the fluxes, as native
        for (int n = 0; n < NHYDRO; ++n)
          out(n, k, j, i) = stage_combination(a, u0(n, k, j, i), b, u(n, k, j, i), c_dt, acc[n]);
      });
      team.team_barrier();
      cur = nxt;
    }
  });
}

}  // namespace fv_mhd_tiles_detail

void fv_mhd_fused_tiles(const FvOptions& opt, const Grid& g, int order, Real a, Real b, Real c_dt,
                        const Array4& u0, const State& in, const Array4& out, CtFusedWorkspace& ws) {
  using namespace fv_mhd_tiles_detail;
  with_mhd_riemann(opt.mhd_riemann, [&](auto R) {
    constexpr MhdRiemannSolver RS = decltype(R)::value;
    if (order == 1) {
      tiles<1, Limiter::minmod, RS>(opt, g, a, b, c_dt, u0, in, out, ws);
    } else {
      with_limiter(opt.limiter, [&](auto L) { tiles<2, decltype(L)::value, RS>(opt, g, a, b, c_dt, u0, in, out, ws); });
    }
  });
}

}  // namespace ax
