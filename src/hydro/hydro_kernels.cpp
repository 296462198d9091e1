#include "hydro/hydro_kernels.hpp"

#include <cfloat>

#include "backend/reproducible_sum.hpp"
#include "hydro/cfl.hpp"
#include "time/stage_combination.hpp"

namespace ax {

Real local_signal_rate(const Grid& g, const IdealGas& eos, const Array4& u, bool sum_axes) {
  const CflAxes axes = cfl_axes(g, sum_axes);
  return par_max("cfl_rate", g.interior(), Real(0), KOKKOS_LAMBDA(int k, int j, int i) {
    Real uc[NHYDRO];
    for (int n = 0; n < NHYDRO; ++n) uc[n] = u(n, k, j, i);
    return cell_signal_rate(eos, axes, uc);
  });
}

Real local_cfl_dt(const Grid& g, const IdealGas& eos, const Array4& u, bool sum_axes) {
  return cfl_dt_from_rate(local_signal_rate(g, eos, u, sum_axes));
}

void stage_update(const Grid& g, Real a, Real b, Real c_dt, const Array4& u0, const Array4& in,
                  const Array4& out, const Array4& du) {
  par_for("stage_update", g.interior(), KOKKOS_LAMBDA(int k, int j, int i) {
    for (int n = 0; n < NHYDRO; ++n)
      out(n, k, j, i) = stage_combination(a, u0(n, k, j, i), b, in(n, k, j, i), c_dt, du(n, k, j, i));
  });
}

long long apply_floors(const Grid& g, const IdealGas& eos, const Floors& floors, const Array4& u) {
  long long count = 0;
  par_reduce("floors", g.interior(), KOKKOS_LAMBDA(int k, int j, int i, long long& n) {
    Real c[NHYDRO];
    for (int v = 0; v < NHYDRO; ++v) c[v] = u(v, k, j, i);
    if (apply_floors(eos, floors, c)) {
      ++n;
      for (int v = 0; v < NHYDRO; ++v) u(v, k, j, i) = c[v];
    }
  }, Kokkos::Sum<long long>(count));
  return count;
}

Totals global_totals(const Comm& c, const Grid& g, const Array4& u) {
  // The five sums, the kinetic energy per axis, and the density's largest
  // value and largest negative.
  constexpr int kSums = NHYDRO + 3;
  double sums[kSums], extremes[2];
  reproducible_sums<kSums, 2>(
      c, g,
      KOKKOS_LAMBDA(int k, int j, int i, double* v) {
        for (int n = 0; n < NHYDRO; ++n) v[n] = double(u(n, k, j, i));
        const double half_inv_rho = 0.5 / v[IDN];
        for (int d = 0; d < 3; ++d) v[NHYDRO + d] = v[IM1 + d] * v[IM1 + d] * half_inv_rho;
        v[kSums] = v[IDN];
        v[kSums + 1] = -v[IDN];
      },
      sums, extremes);
  Totals t;
  const double vol = g.cell_volume();
  t.mass = sums[IDN] * vol;
  t.energy = sums[IEN] * vol;
  for (int d = 0; d < 3; ++d) {
    t.mom[d] = sums[IM1 + d] * vol;
    t.kinetic[d] = sums[NHYDRO + d] * vol;
  }
  t.rho_max = extremes[0];
  t.rho_min = -extremes[1];
  return t;
}

}  // namespace ax
