// Constrained transport of the FD WENO5 MHD solver (HOW-MHD, Seo & Ryu
// 2023): face point values of B are the primary field, advanced by a
// sixth-order discrete curl of edge EMFs, in three stages as the seed
// splits them:
//   1. modified fluxes: F*_d(B_t) = F_d(B_t) + I4_d(B_d v_t) ~ v_d B_t on the
//      d-faces (F the WENO flux of B_t along d);
//   2. edge EMFs: Omega_c = I4_a(F*_b(B_a)) - I4_b(F*_a(B_b)), (a, b, c)
//      cyclic, the modified fluxes carried to the edges;
//   3. curl: point values to averages, Omega + sum_e (Omega(e-1) - 2 Omega
//      + Omega(e+1)) / 24 over the edge's plane, plus the field filter's
//      nu HP(J) (not HOW-MHD's; ct/fd_ct_point.hpp says why), then
//      sixth-order differences: K(b_d) = -dt/dx_t1 D6_t1(Omega_t2) + dt/dx_t2 D6_t2(Omega_t1).
// The divergence D6 . b changes by zero up to rounding (the differences
// commute). The cell-centred field is rebuilt from the faces by sixth-order
// interpolation at the start of each stage, keeping the gas pressure.
//
// Arrays of stages 1-3 are "node" arrays: one entry more than the cells on
// every active axis, (k, j, i) the lower face / edge of cell (k, j, i); an
// inactive axis has the one index 0. Native reference here (fd_ct_native.cpp),
// fused twins in fd/fd_mhd_fused.cpp; both call ct/fd_ct_point.hpp.
#pragma once

#include "backend/state.hpp"
#include "fd/fd_options.hpp"
#include "hydro/eos.hpp"
#include "time/stages.hpp"

namespace ax {

inline int node_extent(const Grid& g, int d) { return g.extent(d) + (g.active(d) ? 1 : 0); }
inline Array4 make_node_array(const Grid& g, const char* name, int nvar) {
  return Array4(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(name)), nvar, node_extent(g, 2),
                node_extent(g, 1), node_extent(g, 0));
}
inline std::int64_t node_array_bytes(const Grid& g, int nvar) {
  return std::int64_t(sizeof(Real)) * nvar * node_extent(g, 0) * node_extent(g, 1) * node_extent(g, 2);
}

// Faces along d at which the WENO fluxes and modified fluxes are needed:
// along d from three below the interior to three above its last face, and
// five cells out along the other active axes.
Box fd_mhd_flux_box(const Grid& g, int d);
// Edges along c whose EMF stage 2 computes (three out along the edge's
// plane), and those whose average stage 3 forms (two out).
Box fd_ct_edge_box(const Grid& g, int c, int w);
// Faces normal to d of the interior (both boundary faces; an inactive
// axis keeps its two equal faces).
Box ct_interior_faces(const Grid& g, int d);

// Cell-centred field from the faces (sixth order) over `box`, the total
// energy changed so that the gas pressure is kept. Faces two beyond `box`
// must be filled.
void fd_ct_cell_field(const Grid& g, const FaceField& b, const Array4& u, const Box& box);

// Stage 1 (native): fstar[d] (2 variables: F*(B_t1), F*(B_t2)) from the
// WENO face fluxes flux[d] (cell-variable order) and the cells u. Along an
// inactive d, F*_d(B_t) = v_d B_t at the cell.
void fd_ct_modified_fluxes_native(const Grid& g, const Array4& u, const Array4 flux[3], const Array4 fstar[3]);
// Stage 2 (native): omega[c] (1 variable) on fd_ct_edge_box(g, c, 3).
void fd_ct_edge_emfs_native(const Grid& g, const Array4 fstar[3], const Array4 omega[3]);
// Stage 3 (native), two kernels: the averages, then the face increments
// K(b) = A K(b) + dt (-curl Omega_bar) on the interior faces.
void fd_ct_edge_averages_native(const Grid& g, const Array4 omega[3], const Array4 omega_bar[3]);
// The field filter (ct/fd_ct_point.hpp), two kernels: the edge currents J
// into slot 1 of jc (the modified-flux arrays, dead once the EMFs are
// formed) from the stage's input faces `bf` (filled six out), then
// omega_bar += nu HP(J).
void fd_ct_edge_currents_native(const Grid& g, const FaceField& bf, const Array4 jc[3]);
void fd_ct_field_filter_native(const Grid& g, Real nu, const Array4 jc[3], const Array4 omega_bar[3]);
void fd_ct_face_increments_native(const Grid& g, Real dt, Real A, const Array4 omega_bar[3], const FaceField& kb);

// The end of a stage for the faces: R and out from K (time/stages.hpp).
void fd_ct_finish_faces(const Grid& g, const Stage& st, const FaceField& u0, const FaceField& in,
                        const FaceField& r, const FaceField& out, const FaceField& kb);

// Largest |D6 . b| dx_min over this rank's interior and in *bmax the
// largest |B| (sixth-order cell values). Face ghosts must be filled.
// wall[d][side]: that side is an outflow or reflecting boundary. The
// cells within two (below) or three (above) of it are left out: their D6
// reads ghost faces that the boundary condition sets, not the curl, so
// nothing keeps their divergence; every other cell's is kept to rounding
// (and the left-out cells' values never reach it).
Real fd_ct_local_div_b(const Grid& g, const FaceField& b, const bool wall[3][2], Real* bmax);

// Largest |B| of a face component over this rank's interior faces.
Real fd_ct_local_face_field_max(const Grid& g, const FaceField& b);
// Largest |B_d| on this rank's wall faces of axis d (the domain's first
// face where wall[0], its last where wall[1]). FD MHD refuses reflecting
// walls that the field threads (Simulation::initialize): the boundary
// mirrors B_n with a change of sign and the sixth-order stencils across
// the wall break down on the jump of 2 B_n.
Real fd_ct_local_wall_normal_field(const Grid& g, const FaceField& b, int d, const bool wall[2]);

}  // namespace ax
