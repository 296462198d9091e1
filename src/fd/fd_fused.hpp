// Fused FD WENO5 stage, slab by slab of z-planes: per axis one kernel
// computes the characteristic WENO flux of every face of the slab in
// registers (weno_face_flux, halo 3) into a face array, then one kernel
// forms K from the flux differences of all axes and finishes the stage (R,
// out, floors), so K is neither re-read nor, unless the 2N scheme needs it,
// written back.
//
// Memory: besides the state and K, the face array of one slab: z-faces for
// it and the next slab (the next one's are formed before this slab is
// finished in place, out == in, since their stencil reaches into it), y-
// and x-faces for it; at most eight slabs of at least eight planes. And
// each cell's 1/rho, pressure and sound speed for a slab and three planes
// on either side (a ring of z-planes), formed once a stage, so that no face
// converts its six cells.
//
// The segments layout (solver.fused_layout: tiles; fd_fused_segments.cpp)
// is a team kernel per axis with the cells and the face fluxes in team
// scratch, so no face array at all (opt-in: slower on the H200).
#pragma once

#include "backend/grid.hpp"
#include "backend/loops.hpp"
#include "time/stages.hpp"
#include "fd/fd_options.hpp"
#include "hydro/floors.hpp"

namespace ax {

struct FdFusedPlan {
  int slabs = 1;     // z-slabs (3D with x or y active)
  bool store_k = false;  // keep K after the stage (2N schemes read it next stage)
  bool segments = false;  // the team kernels (no face array, no slabs)
};

// Face array the fused path needs for `plan` on grid g.
Array4 fd_fused_face_array(const Grid& g, const FdFusedPlan& plan);
std::int64_t fd_fused_face_bytes(const Grid& g, const FdFusedPlan& plan);  // without allocating
// The ring of cells' thermodynamic values (weno.hpp, CellThermo) the face kernels read.
Array4 fd_fused_thermo_array(const Grid& g, const FdFusedPlan& plan);
std::int64_t fd_fused_thermo_bytes(const Grid& g, const FdFusedPlan& plan);
int fd_fused_slab_count(const Grid& g);

// One stage: K = A K + dt L(in), then R / out / floors (time/stages.hpp);
// the floor activations are added to `hits` on the device.
void fd_stage_fused(const FdOptions& opt, const Grid& g, const FdFusedPlan& plan, const Stage& st, Real dt,
                    const Floors& floors, const Array4& u0, const Array4& in, const Array4& out, const Array4& r,
                    const Array4& k, const Array4& faces, const Array4& thermo, const DeviceCount& hits);
// The same stage in the segments layout.
long long fd_stage_fused_segments(const FdOptions& opt, const Grid& g, const FdFusedPlan& plan, const Stage& st,
                                  Real dt, const Floors& floors, const Array4& u0, const Array4& in,
                                  const Array4& out, const Array4& r, const Array4& k);

}  // namespace ax
