// Fused finite-volume MHD stage (the twin of fv_mhd_native.cpp): four
// kernels instead of the native path's two dozen, and no full-size
// intermediates besides what constrained transport keeps between them:
//   1. the cell update of the hydro variables with the face EMFs and
//      mass-flux signs (CT stage 1), in one of three layouts: `tiles`, a
//      team per tile of cells with the face fluxes in team scratch, each
//      face once (GPUs); `cells`, one thread per cell with its six faces in
//      registers, each face twice; `sweeps`, one sweep per axis with rows in
//      per-thread scratch, each face once (CPUs);
//   2. edge EMFs (ct/ct_fused.cpp, CT stage 2);
//   3. curl update of the face field (CT stage 3);
//   4. cell-centred field from the new faces, and the floors.
// Why the face fluxes never go to full-size arrays: CT needs the EMFs of
// all three axes' faces at once, so a split that stores per-axis fluxes or
// an accumulator takes 5-15 more arrays of the size of a cell variable,
// past the 3x-the-state budget (sweeps, for CPUs, keeps one accumulator).
// Every layout is bitwise equal to the native path: the same functions in
// the same order. Measured (3D Orszag-Tang, HLLD, VL2): H200 256^3 tiles
// 6.6e8 cell-updates/s (three teams a multiprocessor; 5.58e8 as first
// written), cells 5.08e8, native 5.2e8, in 2.99x the state (native 8.8x); one EPYC core 64^3 sweeps 1.51e6, tiles 1.22e6, cells
// 0.83e6, native 1.31e6. HLLD's divisions and square roots bound the first
// kernel (docs/mhd.md).
#pragma once

#include <cstdint>

#include "backend/grid.hpp"
#include "backend/state.hpp"
#include "ct/ct_fused.hpp"
#include "fv/fv_options.hpp"
#include "hydro/floors.hpp"

namespace ax {

// How kernel 1 is laid out: cells (each face twice), tiles (each face once,
// team scratch; GPUs' default), sweeps (each face once, per-thread rows;
// CPUs' default).
enum class MhdFusedLayout { cells, tiles, sweeps };

struct FvMhdFusedWorkspace {
  MhdFusedLayout layout;
  CtFusedWorkspace ct;
  Array4 du;  // sweeps only: the accumulator of the five hydro variables
              // (and ct keeps the cell-centred E)
  DeviceCount hits;  // floor activations of the stages, not yet taken
  FvMhdFusedWorkspace(const Grid& g, MhdFusedLayout layout);
  std::int64_t bytes() const;
  static std::int64_t planned_bytes(const Grid& g, MhdFusedLayout layout);
};

// out = a u0 + b in + c_dt L(in) for cells and faces, cell-centred field,
// floors, whose activations are added to ws.hits (not waited for). `order`
// 1 is donor cell, 2 PLM. Ghosts of `in` filled; `out` may be `u0` but not
// `in`.
void fv_mhd_stage_fused(const FvOptions& opt, const Grid& g, int order, Real a, Real b, Real c_dt,
                             const Floors& floors, const State& u0, const State& in, const State& out,
                             FvMhdFusedWorkspace& ws);

}  // namespace ax
