// What the integrator evolves: the cell-centred variables (5 for hydro, 8
// for MHD with the cell-centred field) and, for MHD, the face-centred
// magnetic field that constrained transport keeps divergence-free.
#pragma once

#include "backend/grid.hpp"

namespace ax {

// One magnetic-field component per face orientation: x1f lives on the faces
// normal to x (extent + 1 along x), and so on. Each is an Array4 with one
// variable, so the ghost exchange and the loop wrappers take it as is.
// Along an inactive axis a face array still has its two faces (extent 2);
// both hold the same value.
struct FaceField {
  Array4 x1f, x2f, x3f;

  KOKKOS_INLINE_FUNCTION const Array4& operator[](int d) const { return d == 0 ? x1f : d == 1 ? x2f : x3f; }
  KOKKOS_INLINE_FUNCTION Array4& operator[](int d) { return d == 0 ? x1f : d == 1 ? x2f : x3f; }
  bool allocated() const { return x1f.data() != nullptr; }
  std::int64_t bytes() const {
    return std::int64_t(x1f.span() + x2f.span() + x3f.span()) * std::int64_t(sizeof(Real));
  }
};

// Face array normal to axis d on grid g (one variable).
inline Array4 make_face_array(const Grid& g, int d, const char* name) {
  return Array4(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(name)), 1, g.extent(2) + (d == 2),
                g.extent(1) + (d == 1), g.extent(0) + (d == 0));
}

inline std::int64_t face_field_bytes(const Grid& g) {
  return std::int64_t(sizeof(Real)) *
         ((std::int64_t(g.extent(0)) + 1) * g.extent(1) * g.extent(2) +
          std::int64_t(g.extent(0)) * (g.extent(1) + 1) * g.extent(2) +
          std::int64_t(g.extent(0)) * g.extent(1) * (g.extent(2) + 1));
}

inline FaceField make_face_field(const Grid& g, const char* name) {
  return {make_face_array(g, 0, name), make_face_array(g, 1, name), make_face_array(g, 2, name)};
}

struct State {
  Array4 u;     // cell-centred variables (var, k, j, i)
  FaceField b;  // MHD only; empty for hydro
  bool mhd() const { return b.allocated(); }
  bool same_as(const State& o) const { return u.data() == o.u.data(); }
};

inline State make_state(const Grid& g, int nvar, bool mhd, const char* name) {
  State s;
  s.u = g.make_array(name, nvar);
  if (mhd) s.b = make_face_field(g, name);
  return s;
}

// Bytes of one state on grid g (for memory plans, before allocating).
inline std::int64_t state_bytes(const Grid& g, int nvar, bool mhd) {
  return g.array_bytes(nvar) + (mhd ? face_field_bytes(g) : 0);
}

}  // namespace ax
