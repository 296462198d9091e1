// Native (reference) finite-volume MHD right-hand side: PLM in primitive
// variables, a Riemann solver per face with the normal field taken from the
// face-centred field, and the three constrained-transport stages of
// src/ct. One simple kernel per step, full-size intermediates.
#pragma once

#include "backend/grid.hpp"
#include "backend/state.hpp"
#include "ct/ct_native.hpp"
#include "fv/fv_options.hpp"
#include "hydro/floors.hpp"

namespace ax {

struct FvMhdNativeWorkspace {
  Array4 w;         // primitives (8)
  Array4 slope;     // limited slopes along the current axis (8)
  Array4 wl, wr;    // face states along the current axis (8 each)
  Array4 flux[3];   // face fluxes of each axis: rho, m1..m3, E (global order), F(b_t1), F(b_t2)
  Array4 du;        // -div F of the five hydro variables
  Array4 e_cell;    // cell-centred E (3)
  FaceEmfs face_e;  // E on faces (2 per axis)
  EdgeEmfs edge_e;  // edge EMFs (1 per axis)
  Array4 uct[3];    // UCT face coefficients (ct/uct.hpp), only with corner_emf: uct_hlld
  FvMhdNativeWorkspace(const Grid& g, bool uct);
  std::int64_t bytes() const;
  static std::int64_t planned_bytes(const Grid& g, bool uct);
};

// One stage: out = a u0 + b in + c_dt L(in) for the cells (the field
// through CT), cell-centred field from the faces, floors. `order` 1 is donor
// cell, 2 PLM; L includes gravity's source (opt.gravity) where it is on.
// Returns the floor activations.
long long fv_mhd_stage_native(const FvOptions& opt, const Grid& g, int order, Real a, Real b, Real c_dt,
                              const Floors& floors, const State& u0, const State& in, const State& out,
                              FvMhdNativeWorkspace& ws);

}  // namespace ax
