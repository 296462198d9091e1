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
