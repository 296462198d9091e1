// Fused FD WENO5 MHD stage: per active axis one kernel that walks pencils
// along the axis with the six-cell stencil in registers (each cell's
// primitives, flux and wave speeds computed once), writes the modified
// fluxes constrained transport needs and adds the flux difference to K in
// place; the last axis' kernel also ends the stage for the cells. Then one
// kernel for the three edge EMFs, one for their averages and one for the
// curl, which ends the stage for the faces.
#pragma once

#include "backend/loops.hpp"
#include "backend/state.hpp"
#include "fd/fd_options.hpp"
#include "hydro/floors.hpp"
#include "time/stages.hpp"

namespace ax {

struct FdMhdFusedWorkspace {
  // segments: the team-scratch WENO kernel (GPUs), else the pencils (CPUs);
  // store_k: K kept after the stage (2N schemes read it next stage).
  FdMhdFusedWorkspace(const Grid& g, bool segments, bool store_k);
  bool segments = false;
  bool store_k = true;
  Array4 fstar[3];  // modified fluxes per face axis (2 variables, node arrays)
  Array4 omega[3];  // edge EMFs per edge axis (1 variable)
  DeviceCount hits;  // floor activations of a segments kernel
  std::int64_t bytes() const;
  static std::int64_t planned_bytes(const Grid& g);
};

// One stage: K and R from `in`, `out` written (cells and faces), floors on
// the cells; returns the floor activations. The cell-centred field of `in`
// must be rebuilt (fd_ct_cell_field) and its ghosts filled.
// nu: the field filter's coefficient (fd_field_filter_nu; 0 turns it off).
long long fd_mhd_stage_fused(const FdOptions& opt, const Grid& g, const Stage& st, Real dt, Real nu,
                             const Floors& floors,
                             const State& u0, const State& in, const State& out, const State& r, const Array4& k,
                             const FaceField& kb, FdMhdFusedWorkspace& ws);

// The WENO kernel of one axis (fd_mhd_fused_segments.cpp, team scratch:
// the GPU form of the pencils): F* of the axis' faces, K += the flux
// difference, and on the last axis the end of the stage for the cells (K
// stored there only with store_k).
long long fd_mhd_segments(const FdOptions& opt, const Grid& g, int d, bool first, bool last,
                          bool store_k, const Stage& st, Real dt, const Floors& floors,
                          const State& u0, const State& in, const State& out, const State& r,
                          const Array4& k, const Array4& fstar, const DeviceCount& count);

}  // namespace ax
