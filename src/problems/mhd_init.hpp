// Initial MHD states: the face field as the discrete curl of a vector
// potential given on cell edges (plus a uniform field), so the discrete
// divergence is zero to rounding from step 0, then the cells from a
// primitive hydro state with the cell-centred field averaged from the
// faces, as Athena++ and AthenaK set up their MHD problems.
#pragma once

#include <stdexcept>

#include "backend/state.hpp"
#include "ct/ct_native.hpp"
#include "ct/fd_ct_stencils.hpp"
#include "mhd/mhd_eos.hpp"
#include "problems/problem.hpp"

namespace ax {

// A problem that sets a field on a state without one (its kProblems entry
// lacks Field::required, so physics.mhd: false got through) would write
// through null face arrays: stop with a message instead.
inline void require_face_field(const FaceField& b) {
  if (!b.allocated())
    throw std::logic_error("problem set-up: this problem sets a magnetic field but the state has none "
                           "(physics.mhd: false); its entry in kProblems (src/problems/problem.cpp) needs "
                           "Field::required");
}

// b = b0 + curl A over every face of the interior (boundary faces
// included). pot(x, y, z, a) writes A at a point; A_c is taken on the edges
// along c. Derivatives along inactive axes are left out (problems vary only
// along active axes). The FV family's faces hold face averages: two-point
// differences of A. The FD family's hold point values (sixth_order): the
// D6 differences of ct/fd_ct_stencils.hpp over six edges, which its
// divergence D6 . b annihilates to rounding.
template <class Potential>
void set_faces_from_potential(const Grid& g, const Real b0[3], const Potential& pot, const FaceField& b,
                              bool sixth_order = false) {
  require_face_field(b);
  const bool a0 = g.active(0), a1 = g.active(1), a2 = g.active(2);
  const Real dx0 = g.dx[0], dx1 = g.dx[1], dx2 = g.dx[2];
  // Face and centre coordinates from global indices (bitwise equal on every
  // rank for the same face).
  auto xf = [=] KOKKOS_FUNCTION(int d, int local) { return g.x_face(d, g.offset[d] + local - g.gh[d]); };
  auto xc = [=] KOKKOS_FUNCTION(int d, int local) { return g.x_center(d, local); };
  for (int d = 0; d < 3; ++d) {
    Box box = g.interior();
    if (d == 0) box.ie = a0 ? box.ie + 1 : 2;
    if (d == 1) box.je = a1 ? box.je + 1 : 2;
    if (d == 2) box.ke = a2 ? box.ke + 1 : 2;
    const Array4 face = b[d];
    const Real b0d = b0[d];
    par_for("mhd_init_faces", box, KOKKOS_LAMBDA(int k, int j, int i) {
      const bool act[3] = {a0, a1, a2};
      const Real h[3] = {dx0, dx1, dx2};
      const int idx[3] = {i, j, k};
      Real x[3];
      for (int e = 0; e < 3; ++e) x[e] = e == d ? xf(d, act[d] ? idx[d] : 0) : xc(e, idx[e]);
      // d/dx_e of A_c at the face: A_c on the edges through it along e.
      auto derivative = [&](int e, int c) {
        auto at = [&](int m) {
          Real q[3] = {x[0], x[1], x[2]}, a[3];
          q[e] = xf(e, idx[e] + m);
          pot(q[0], q[1], q[2], a);
          return a[c];
        };
        if (sixth_order) return ct_d6(at(-2), at(-1), at(0), at(1), at(2), at(3)) / h[e];
        return (at(1) - at(0)) / h[e];
      };
      const int t1 = (d + 1) % 3, t2 = (d + 2) % 3;
      Real v = b0d;
      if (act[t1]) v += derivative(t1, t2);
      if (act[t2]) v -= derivative(t2, t1);
      face(0, k, j, i) = v;
    });
  }
}

// b_d(face centre) = f(d, x, y, z) on every face of the interior. Only for
// fields whose discrete divergence vanishes by construction: a constant
// normal component with transverse components varying along one axis (shock
// tubes), or a uniform field.
template <class F>
void set_faces_pointwise(const Grid& g, const F& f, const FaceField& b) {
  require_face_field(b);
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
  require_face_field(s.b);
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

// A pointwise primitive hydro state f(x, y, z, w[5]) threaded by the
// uniform field b0 with MHD, or alone without (the blast's and
// Rayleigh-Taylor's set-ups).
template <class F>
void fill_in_uniform_field(const Grid& g, const IdealGas& eos, const State& s, const Real b0[3], const F& f) {
  if (!s.mhd()) return fill_from_primitives(g, eos, s.u, f);
  const Real bx = b0[0], by = b0[1], bz = b0[2];
  set_faces_pointwise(g, KOKKOS_LAMBDA(int d, Real, Real, Real) { return d == 0 ? bx : d == 1 ? by : bz; }, s.b);
  fill_mhd_cells(g, eos, s, f);
}

}  // namespace ax
