// Fused finite-volume hydro stage: out = a u0 + b in + c_dt L(in), then the
// floors, with primitives, PLM face states and Riemann fluxes held in
// registers or small per-thread rows, never in full-size arrays.
//
// Three layouts, all bitwise equal to the native path (same operations in the
// same order for every face and cell):
//   cells  - one thread per cell computes all six faces around it (each face
//            twice); needs no array besides input and output.
//   sweeps - one sweep per axis walks lines of cells and computes each face
//            once, accumulating the divergence in place in `du`. For CPUs,
//            where the doubled Riemann work of `cells` costs 2.4x.
//   tiles  - a team per tile of columns walks planes along z, each face
//            once, the plane's primitives and the faces in team scratch;
//            no array either. The GPU default (H200: 2.7e9 against 2.0e9
//            for cells; 3.0e9 with HLLC's five divisions).
#pragma once

#include "backend/grid.hpp"
#include "backend/loops.hpp"
#include "fv/fv_options.hpp"
#include "hydro/floors.hpp"

namespace ax {

// Ghost cells of `in` must be filled (those along each axis: edges and
// corners are not read). `out` must not be `in` (neighbours read it); it
// may be `u0`, which is read only at the cell being written. Runs on the
// cells of `box` (the interior, or part of it: the cells away from rank
// boundaries while the ghost messages are in flight, then the rest) and
// reduces the number of cells that needed a floor into `hits` without
// waiting for it.
void fv_stage_fused_cells(const FvOptions& opt, const Grid& g, int order, Real a, Real b, Real c_dt,
                          const Floors& floors, const Array4& u0, const Array4& in, const Array4& out,
                          const Box& box, const DeviceCount& hits);

// The same in the tiles layout.
void fv_stage_fused_tiles(const FvOptions& opt, const Grid& g, int order, Real a, Real b, Real c_dt,
                          const Floors& floors, const Array4& u0, const Array4& in, const Array4& out,
                          const Box& box, const DeviceCount& hits);

// Ghost cells of `in` must be filled; `out` as above; `du` is a full-size
// accumulator (NHYDRO variables). Returns the number of cells that needed
// a floor.
long long fv_stage_fused_sweeps(const FvOptions& opt, const Grid& g, int order, Real a, Real b,
                                Real c_dt, const Floors& floors, const Array4& u0, const Array4& in,
                                const Array4& out, const Array4& du);

}  // namespace ax
