// Initial MHD states: the face field as the discrete curl of a vector
// potential given on cell edges (plus a uniform field), so the discrete
// divergence is zero to rounding from step 0, then the cells from a
// primitive hydro state with the cell-centred field averaged from the
// faces, as Athena++ and AthenaK set up their MHD problems.
#pragma once

#include "backend/state.hpp"
#include "ct/ct_native.hpp"
#include "mhd/mhd_eos.hpp"

namespace ax {

// b = b0 + curl A over every face of the interior (boundary faces
// included). pot(x, y, z, a) writes A at a point; A_c is taken on the edges
// along c. Derivatives along inactive axes are left out (problems vary only
// along active axes).
template <class Potential>
void set_faces_from_potential(const Grid& g, const Real b0[3], const Potential& pot, const FaceField& b) {
  const bool a0 = g.active(0), a1 = g.active(1), a2 = g.active(2);
  const Real dx = g.dx[0], dy = g.dx[1], dz = g.dx[2];
  const Real b00 = b0[0], b01 = b0[1], b02 = b0[2];
  // Face and centre coordinates from global indices (bitwise equal on every
  // rank for the same face).
  auto xf = [=] KOKKOS_FUNCTION(int d, int local) { return g.x_face(d, g.offset[d] + local - g.gh[d]); };
  auto xc = [=] KOKKOS_FUNCTION(int d, int local) { return g.x_center(d, local); };
  Box f0 = g.interior(), f1 = g.interior(), f2 = g.interior();
  f0.ie = a0 ? f0.ie + 1 : 2;
  f1.je = a1 ? f1.je + 1 : 2;
  f2.ke = a2 ? f2.ke + 1 : 2;
  const Array4 x1f = b.x1f, x2f = b.x2f, x3f = b.x3f;
  par_for("mhd_init_x1f", f0, KOKKOS_LAMBDA(int k, int j, int i) {
    const int ii = a0 ? i : 0;
    const Real x = xf(0, ii), y = xc(1, j), z = xc(2, k);
    Real lo[3], hi[3], v = b00;
    if (a1) {  // + dA3/dy, A3 on the edges (x_f, y_f, z_c)
      pot(x, xf(1, j), z, lo);
      pot(x, xf(1, j + 1), z, hi);
      v += (hi[2] - lo[2]) / dy;
    }
    if (a2) {  // - dA2/dz, A2 on the edges (x_f, y_c, z_f)
      pot(x, y, xf(2, k), lo);
      pot(x, y, xf(2, k + 1), hi);
      v -= (hi[1] - lo[1]) / dz;
    }
    x1f(0, k, j, i) = v;
  });
  par_for("mhd_init_x2f", f1, KOKKOS_LAMBDA(int k, int j, int i) {
    const int jj = a1 ? j : 0;
    const Real x = xc(0, i), y = xf(1, jj), z = xc(2, k);
    Real lo[3], hi[3], v = b01;
    if (a2) {  // + dA1/dz, A1 on (x_c, y_f, z_f)
      pot(x, y, xf(2, k), lo);
      pot(x, y, xf(2, k + 1), hi);
      v += (hi[0] - lo[0]) / dz;
    }
    if (a0) {  // - dA3/dx, A3 on (x_f, y_f, z_c)
      pot(xf(0, i), y, z, lo);
      pot(xf(0, i + 1), y, z, hi);
      v -= (hi[2] - lo[2]) / dx;
    }
    x2f(0, k, j, i) = v;
  });
  par_for("mhd_init_x3f", f2, KOKKOS_LAMBDA(int k, int j, int i) {
    const int kk = a2 ? k : 0;
    const Real x = xc(0, i), y = xc(1, j), z = xf(2, kk);
    Real lo[3], hi[3], v = b02;
    if (a0) {  // + dA2/dx, A2 on (x_f, y_c, z_f)
      pot(xf(0, i), y, z, lo);
      pot(xf(0, i + 1), y, z, hi);
      v += (hi[1] - lo[1]) / dx;
    }
    if (a1) {  // - dA1/dy, A1 on (x_c, y_f, z_f)
      pot(x, xf(1, j), z, lo);
      pot(x, xf(1, j + 1), z, hi);
      v -= (hi[0] - lo[0]) / dy;
    }
    x3f(0, k, j, i) = v;
  });
}

// b_d(face centre) = f(d, x, y, z) on every face of the interior. Only for
// fields whose discrete divergence vanishes by construction: a constant
// normal component with transverse components varying along one axis (shock
// tubes), or a uniform field.
template <class F>
void set_faces_pointwise(const Grid& g, const F& f, const FaceField& b) {
  for (int d = 0; d < 3; ++d) {
    Box box = g.interior();
    if (d == 0) box.ie = g.active(0) ? box.ie + 1 : 2;
    if (d == 1) box.je = g.active(1) ? box.je + 1 : 2;
    if (d == 2) box.ke = g.active(2) ? box.ke + 1 : 2;
    const Array4 face = b[d];
    const bool a = g.active(d);
    par_for("mhd_init_faces_pointwise", box, KOKKOS_LAMBDA(int k, int j, int i) {
      // Along its normal a face sits at x_face; along the others at the centre.
      const int idx[3] = {i, j, k};
      Real x[3];
      for (int e = 0; e < 3; ++e)
        x[e] = e == d ? (a ? g.x_face(e, g.offset[e] + idx[e] - g.gh[e]) : g.x_center(e, 0)) : g.x_center(e, idx[e]);
      face(0, k, j, i) = f(d, x[0], x[1], x[2]);
    });
  }
}

// The cells from a pointwise primitive hydro state f(x, y, z, w[5]), with
// the cell-centred field from the faces (set those first).
template <class F>
void fill_mhd_cells(const Grid& g, const IdealGas& eos, const State& s, const F& f) {
  ct_cell_centred_field(g, s.b, s.u);
  const Array4 u = s.u;
  par_for("mhd_init_cells", g.interior(), KOKKOS_LAMBDA(int k, int j, int i) {
    Real w[NMHD], c[NMHD];
    f(g.x_center(0, i), g.x_center(1, j), g.x_center(2, k), w);
    for (int n = 0; n < 3; ++n) w[IB1 + n] = u(IB1 + n, k, j, i);
    mhd_prim_to_cons(eos, w, c);
    for (int n = 0; n < NHYDRO; ++n) u(n, k, j, i) = c[n];
  });
}

}  // namespace ax
