#include "mhd/mhd_kernels.hpp"

#include "backend/reproducible_sum.hpp"
#include "hydro/cfl.hpp"
#include "mhd/mhd_eos.hpp"
#include "mhd/mhd_floors.hpp"

namespace ax {

Real mhd_local_cfl_dt(const Grid& g, const IdealGas& eos, const Array4& u, bool sum_axes) {
  const CflAxes axes = cfl_axes(g, sum_axes);
  // As hydro/cfl.hpp's cell_signal_rate with the fast speed along each axis.
  const Real rate = par_max("mhd_cfl_rate", g.interior(), Real(0), KOKKOS_LAMBDA(int k, int j, int i) {
    Real uc[NMHD], w[NMHD];
    for (int n = 0; n < NMHD; ++n) uc[n] = u(n, k, j, i);
    mhd_cons_to_prim(eos, uc, w);
    Real r = 0, fastest = 0;
    for (int d = 0; d < 3; ++d) {
      if (!axes.active[d]) continue;
      // The field along d first, then the two across it.
      const Real cf = fast_speed(eos, w[IDN], w[IPR], w[IB1 + d], w[IB1 + (d + 1) % 3], w[IB1 + (d + 2) % 3]);
      const Real rd = (math::fabs(w[IVX + d]) + cf) * axes.inv_dx[d];
      r = axes.sum_axes ? r + rd : math::fmax(r, rd);
      fastest = math::fmax(fastest, cf);
    }
    // max() drops NaN operands: a broken state must stop the run instead.
    const Real speed = math::fabs(w[IVX]) + math::fabs(w[IVY]) + math::fabs(w[IVZ]) + fastest;
    if (!(speed == speed) || !(w[IDN] > Real(0)) || !(w[IPR] > Real(0))) r = kBrokenRate;
    return r;
  });
  return cfl_dt_from_rate(rate);
}

long long mhd_apply_floors(const Grid& g, const IdealGas& eos, const Floors& floors, const Array4& u) {
  long long count = 0;
  par_reduce("mhd_floors", g.interior(), KOKKOS_LAMBDA(int k, int j, int i, long long& n) {
    Real c[NMHD];
    for (int v = 0; v < NMHD; ++v) c[v] = u(v, k, j, i);
    if (apply_mhd_floors(eos, floors, c)) {
      ++n;
      for (int v = 0; v < NHYDRO; ++v) u(v, k, j, i) = c[v];
    }
  }, Kokkos::Sum<long long>(count));
  return count;
}

void mhd_magnetic_energy(const Comm& c, const Grid& g, const Array4& u, double energy[3]) {
  reproducible_sums<3>(c, g, KOKKOS_LAMBDA(int k, int j, int i, double* v) {
    for (int d = 0; d < 3; ++d) {
      const double b = double(u(IB1 + d, k, j, i));
      v[d] = 0.5 * b * b;
    }
  }, energy);
  const double vol = g.cell_volume();
  for (int d = 0; d < 3; ++d) energy[d] *= vol;
}

}  // namespace ax
