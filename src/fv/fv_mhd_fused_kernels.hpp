// Pieces the two layouts of the fused FV MHD stage share (cells for GPUs,
// sweeps for CPUs): the face frame, one face's Riemann flux from the
// primitive states around it, and where CT stage 1 puts its result.
#pragma once

#include "backend/grid.hpp"
#include "backend/state.hpp"
#include "ct/ct_formulas.hpp"
#include "ct/ct_fused.hpp"
#include "fv/fv_options.hpp"
#include "fv/plm.hpp"
#include "mhd/mhd_eos.hpp"
#include "mhd/mhd_riemann.hpp"

namespace ax {

// The face frame of axis D: slot of the 8-variable state for each of the
// seven face-frame variables (rho, v_n, v_t1, v_t2, p, b_t1, b_t2), as the
// native path's frame_slot.
template <int D>
KOKKOS_FORCEINLINE_FUNCTION int mhd_frame_slot(int s) {
  return s < NHYDRO ? face_slot(D, s) : IB1 + (D + s - 4) % 3;
}

// Primitives (8) of cell (k, j, i).
KOKKOS_FORCEINLINE_FUNCTION void load_mhd_prim(const IdealGas& eos, const Array4& u, int k, int j, int i,
                                               Real w[NMHD]) {
  Real c[NMHD];
  for (int n = 0; n < NMHD; ++n) c[n] = u(n, k, j, i);
  mhd_cons_to_prim(eos, c, w);
}

// Flux through the face between cells with primitives w1 | w2 (w0, w3 beyond
// them; unused by donor cell) in the frame of axis D, with normal field bn:
// the native path's face states and Riemann solver on one face (HLLD in
// the form FORM, bitwise the same flux).
template <int D, int ORDER, Limiter L, MhdRiemannSolver RS, HlldForm FORM = HlldForm::select>
KOKKOS_FORCEINLINE_FUNCTION void mhd_face_flux(const IdealGas& eos, const Real w0[NMHD], const Real w1[NMHD],
                                               const Real w2[NMHD], const Real w3[NMHD], Real bn,
                                               Real f[NWAVE_FACE]) {
  Real c0[NWAVE_FACE], c1[NWAVE_FACE], c2[NWAVE_FACE], c3[NWAVE_FACE], l[NWAVE_FACE], r[NWAVE_FACE];
  for (int s = 0; s < NWAVE_FACE; ++s) {
    const int n = mhd_frame_slot<D>(s);
    c0[s] = w0[n];
    c1[s] = w1[n];
    c2[s] = w2[n];
    c3[s] = w3[n];
  }
  face_states<ORDER, L, NWAVE_FACE>(c0, c1, c2, c3, l, r);
  mhd_riemann_flux<RS, FORM>(eos, l, r, bn, f);
}

// CT stage 1 for one face: its EMFs and the sign of its mass flux.
KOKKOS_FORCEINLINE_FUNCTION void store_face_emfs(const Real f[NWAVE_FACE], const Array4& face_e,
                                                 const SignArray& sign, int k, int j, int i) {
  Real e_t1, e_t2;
  face_emfs_from_fluxes(f[5], f[6], e_t1, e_t2);
  face_e(0, k, j, i) = e_t1;
  face_e(1, k, j, i) = e_t2;
  sign(k, j, i) = mass_flux_sign(f[0]);
}

// Kernel 1 of the stage: out's hydro variables = a u0 + b in + c_dt L(in)
// for the interior, and the face EMFs and signs of ct_face_cells(g).
// halo_only: only the faces of the layer around the interior (what the
// tiles kernel leaves), no cell update.
void fv_mhd_fused_cells(const FvOptions& opt, const Grid& g, int order, Real a, Real b, Real c_dt,
                        const Array4& u0, const State& in, const Array4& out, CtFusedWorkspace& ws,
                        bool halo_only = false);
// The same for the interior through tiles of cells in team scratch, each
// face once; the layer around it then needs fv_mhd_fused_cells(halo_only).
void fv_mhd_fused_tiles(const FvOptions& opt, const Grid& g, int order, Real a, Real b, Real c_dt,
                        const Array4& u0, const State& in, const Array4& out, CtFusedWorkspace& ws);
// The same through per-axis sweeps; `du` is a full-size accumulator (5).
void fv_mhd_fused_sweeps(const FvOptions& opt, const Grid& g, int order, Real a, Real b, Real c_dt,
                         const Array4& u0, const State& in, const Array4& out, const Array4& du,
                         CtFusedWorkspace& ws);

}  // namespace ax
