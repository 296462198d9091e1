// Constrained transport for the fused finite-volume MHD stage
// (fv/fv_mhd_fused.cpp), one kernel per CT stage after the first:
//   1. face EMFs and the sign of each face's mass flux are written by the
//      fused cell kernel, which has the Riemann fluxes in registers;
//   2. edge EMFs (Gardiner & Stone 2005): for the cells and tiles layouts
//      (GPUs) a team per tile of cells walking along z, each cell's
//      E = -v x B recomputed from the state once into team scratch instead
//      of stored; from the E the sweeps (CPUs) keep, one kernel a component;
//   3. the curl update of all three face components in one kernel.
// The same formulas as the native path (ct/ct_formulas.hpp), on the same
// index conventions (ct/ct_native.hpp), so both give the same bits.
// Arrays: face EMFs (6 per cell), mass-flux signs (3 bytes), edge EMFs (3):
// with the state and one stage buffer, 2.85x the state.
#pragma once

#include <cstdint>
#include <string>

#include "backend/grid.hpp"
#include "backend/state.hpp"
#include "ct/ct_native.hpp"
#include "hydro/eos.hpp"

namespace ax {

using SignArray = Kokkos::View<std::int8_t***, Kokkos::LayoutRight, MemSpace>;

struct CtFusedWorkspace {
  FaceEmfs face_e;         // slot 0 E_t1, slot 1 E_t2, on faces normal to each axis
  SignArray mass_sign[3];  // -1, 0, +1: the sign of those faces' mass flux
  EdgeEmfs edge_e;
  // Cell-centred E (3), when kept: stage 1 of the CPU layout stores it
  // while it has the primitives; otherwise stage 2 recomputes it from the
  // state (a conversion a cell and its tile's layer: cheap on GPUs, where
  // memory is what the budget lacks; twelve a cell, as it was, took 20% of
  // a step on a CPU core).
  Array4 e_cell;
  CtFusedWorkspace(const Grid& g, bool keep_cell_emfs);
  std::int64_t bytes() const;
  static std::int64_t planned_bytes(const Grid& g, bool keep_cell_emfs);
};

// The sign the GS05 upwinding reads from a mass flux.
KOKKOS_INLINE_FUNCTION std::int8_t mass_flux_sign(Real f) {
  return std::int8_t(f > Real(0) ? 1 : f < Real(0) ? -1 : 0);
}

// Cells whose lower faces the edge EMFs read: the interior and one more
// layer below and above along every active axis (as ct_native's face boxes).
Box ct_face_cells(const Grid& g);

// Stage 2 from the face EMFs and signs in `ws` and the cell-centred E (kept
// in `ws`, or from the cell state `in`, 8 variables with ghosts filled):
// every edge the curl of the interior needs.
void ct_edge_emfs_fused(const Grid& g, const IdealGas& eos, const Array4& in, CtFusedWorkspace& ws);

// Stage 3: out = a u0 + b in - c_dt curl(edge) on every face of the
// interior, all three components in one kernel. `out` may be `u0`.
void ct_curl_update_fused(const Grid& g, Real a, Real b, Real c_dt, const FaceField& u0, const FaceField& in,
                          const EdgeEmfs& edge, const FaceField& out);

}  // namespace ax
