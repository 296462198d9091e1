// Constrained transport for the finite-volume MHD solver, native reference,
// in the three stages the seed splits it into:
//   1. face EMFs: on every face, E from the Riemann fluxes of the two
//      transverse field components (E = -v x B there);
//   2. edge EMFs: the face values carried to the cell edges, upwinded by the
//      sign of the mass flux (Gardiner & Stone 2005);
//   3. curl: the face field advanced with the stage's weights by
//      -curl E, and the cell-centred field rebuilt as the face average.
// Each stage is one simple kernel over full-size arrays. Because stage 3
// takes a discrete curl of edge values, the discrete divergence of the face
// field changes by exactly zero up to rounding.
#pragma once

#include "backend/grid.hpp"
#include "backend/state.hpp"
#include "fv/limiters.hpp"

namespace ax {

// E on the faces normal to axis d, in that face's frame: slot 0 holds
// E_t1, slot 1 E_t2, with (t1, t2) = ((d + 1) % 3, (d + 2) % 3).
// Indexing as the face fluxes: (k, j, i) is the lower face of that cell.
struct FaceEmfs {
  Array4 e[3];
};

// EMFs on cell edges: ec[c] holds E_c on the edges along axis c, (k, j, i)
// at the lower corner of that cell in the two other directions.
struct EdgeEmfs {
  Array4 ec[3];
};

// Stage 1 on axis d: E_t1 = +F(b_t2), E_t2 = -F(b_t1) from the face fluxes
// (slots 5 and 6 hold the fluxes of b_t1 and b_t2), over `box`.
void ct_face_emfs(const Box& box, const Array4& flux, const Array4& face_e);

// Cell-centred E = -v x B from the primitive state (8 variables) over `box`.
void ct_cell_emfs(const Box& box, const Array4& w, const Array4& e_cell);

// The edges along c whose EMFs the curl of the interior faces reads: the
// interior along c, one more along each other active axis.
Box ct_interior_edges(const Grid& g, int c);

// Stage 2: edge EMFs on every edge the curl of the interior faces needs.
// `flux[d]` are the face fluxes (slot 0 the mass flux) of the active axes.
void ct_edge_emfs_gs05(const Grid& g, const FaceEmfs& face, const Array4 flux[3], const Array4& e_cell,
                       const EdgeEmfs& edge);

// Stage 2, UCT variant (ct/uct.hpp): `uct[d]` holds the coefficients of the
// faces normal to d (over the faces of flux_box widened by two cells), the
// field `b` is reconstructed to the edges with limiter L; where an axis is
// inactive the face EMFs are used as in GS05.
template <Limiter L>
void ct_edge_emfs_uct(const Grid& g, const FaceEmfs& face, const Array4 uct[3], const FaceField& b,
                      const Array4& e_cell, const EdgeEmfs& edge);

// Stage 3: out = a u0 + b in - c_dt curl(edge) on every face of the interior
// (both boundary faces included), then the cell-centred field of `out_cells`
// (slots IB1..IB3) from the new faces.
void ct_curl_update(const Grid& g, Real a, Real b, Real c_dt, const FaceField& u0, const FaceField& in,
                    const EdgeEmfs& edge, const FaceField& out);
void ct_cell_centred_field(const Grid& g, const FaceField& faces, const Array4& cells);

// Largest |div B| dx_min over this rank's interior, and in *bmax its largest
// cell-centred |B|: their global ratio is AthenaK's normalised div B.
Real ct_local_div_b(const Grid& g, const FaceField& faces, Real* bmax);

}  // namespace ax
