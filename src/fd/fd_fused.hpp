// Fused FD WENO5 stage: per axis, one kernel computes the characteristic
// WENO flux of every face in registers (weno_face_flux, halo 3) into a face
// array, and one kernel accumulates its divergence into the increment K in
// place (halo 1). The last axis' kernel also finishes the stage (R, out,
// floors), so K is neither re-read nor, unless the 2N scheme needs it,
// written back.
//
// Memory: besides the state and K, only the face array of one axis for one
// slab of z-planes (3D runs are processed in two slabs: half the domain).
// Axes run z, y, x: the last (x) sweep touches one z-plane at a time, so a
// slab can finish its stage in place (out == in) while the next slab still
// reads unchanged cells.
//
// The segments layout (solver.fused_layout: tiles; fd_fused_segments.cpp)
// is the GPU form: one team kernel per axis with each cell converted once
// and the face fluxes in team scratch, so no face array at all.
#pragma once

#include "backend/grid.hpp"
#include "time/stages.hpp"
#include "fd/fd_options.hpp"
#include "hydro/floors.hpp"

namespace ax {

struct FdFusedPlan {
  int slabs = 1;     // z-slabs (3D)
  bool store_k = false;  // keep K after the stage (2N schemes read it next stage)
  bool segments = false;  // the team kernels (no face array, no slabs)
};

// Face array the fused path needs for `plan` on grid g.
Array4 fd_fused_face_array(const Grid& g, const FdFusedPlan& plan);
std::int64_t fd_fused_face_bytes(const Grid& g, const FdFusedPlan& plan);  // without allocating
int fd_fused_slab_count(const Grid& g);

// One stage: K = A K + dt L(in), then R / out / floors (time/stages.hpp).
long long fd_stage_fused(const FdOptions& opt, const Grid& g, const FdFusedPlan& plan, const Stage& st,
                         Real dt, const Floors& floors, const Array4& u0, const Array4& in,
                         const Array4& out, const Array4& r, const Array4& k, const Array4& faces);
// The same stage in the segments layout.
long long fd_stage_fused_segments(const FdOptions& opt, const Grid& g, const FdFusedPlan& plan, const Stage& st,
                                  Real dt, const Floors& floors, const Array4& u0, const Array4& in,
                                  const Array4& out, const Array4& r, const Array4& k);

}  // namespace ax
