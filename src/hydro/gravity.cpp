#include "hydro/gravity.hpp"

#include "backend/loops.hpp"

namespace ax {

void add_gravity(const Grid& g, const Gravity& grav, Real scale, const Array4& u, const Array4& du) {
  par_for("gravity_source", g.interior(), KOKKOS_LAMBDA(int k, int j, int i) {
    Real s[4];
    gravity_source(grav, scale, u(IDN, k, j, i), u(IM1, k, j, i), u(IM2, k, j, i), u(IM3, k, j, i), s);
    du(IM1, k, j, i) += s[0];
    du(IM2, k, j, i) += s[1];
    du(IM3, k, j, i) += s[2];
    du(IEN, k, j, i) += s[3];
  });
}

}  // namespace ax
