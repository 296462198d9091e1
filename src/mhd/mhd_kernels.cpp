#include "mhd/mhd_kernels.hpp"

#include "mhd/mhd_eos.hpp"
#include "mhd/mhd_floors.hpp"

namespace ax {

Real mhd_local_cfl_dt(const Grid& g, const IdealGas& eos, const Array4& u, bool sum_axes) {
  const bool a0 = g.active(0), a1 = g.active(1), a2 = g.active(2);
  const Real dx0 = g.dx[0], dx1 = g.dx[1], dx2 = g.dx[2];
  Real dt = 0;
  par_reduce("mhd_cfl_dt", g.interior(), KOKKOS_LAMBDA(int k, int j, int i, Real& m) {
    Real uc[NMHD], w[NMHD];
    for (int n = 0; n < NMHD; ++n) uc[n] = u(n, k, j, i);
    mhd_cons_to_prim(eos, uc, w);
    const Real b1 = w[IB1], b2 = w[IB2], b3 = w[IB3];
    Real fastest = 0, rate = 0;
    if (a0) {
      const Real cf = fast_speed(eos, w[IDN], w[IPR], b1, b2, b3);
      if (!sum_axes) m = math::fmin(m, dx0 / (math::fabs(w[IVX]) + cf));
      rate += (math::fabs(w[IVX]) + cf) / dx0;
      fastest = math::fmax(fastest, cf);
    }
    if (a1) {
      const Real cf = fast_speed(eos, w[IDN], w[IPR], b2, b3, b1);
      if (!sum_axes) m = math::fmin(m, dx1 / (math::fabs(w[IVY]) + cf));
      rate += (math::fabs(w[IVY]) + cf) / dx1;
      fastest = math::fmax(fastest, cf);
    }
    if (a2) {
      const Real cf = fast_speed(eos, w[IDN], w[IPR], b3, b1, b2);
      if (!sum_axes) m = math::fmin(m, dx2 / (math::fabs(w[IVZ]) + cf));
      rate += (math::fabs(w[IVZ]) + cf) / dx2;
      fastest = math::fmax(fastest, cf);
    }
    if (sum_axes) m = math::fmin(m, Real(1) / rate);
    // min() drops NaN operands: a broken state must stop the run instead.
    const Real speed = math::fabs(w[IVX]) + math::fabs(w[IVY]) + math::fabs(w[IVZ]) + fastest;
    if (!(speed == speed) || !(w[IDN] > Real(0)) || !(w[IPR] > Real(0))) m = Real(-1);
  }, Kokkos::Min<Real>(dt));
  return dt;
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

void mhd_local_magnetic_energy(const Grid& g, const Array4& u, double energy[3]) {
  const double vol = g.cell_volume();
  for (int d = 0; d < 3; ++d) {
    double s = 0;
    par_reduce("mhd_magnetic_energy", g.interior(), KOKKOS_LAMBDA(int k, int j, int i, double& acc) {
      const double b = double(u(IB1 + d, k, j, i));
      acc += 0.5 * b * b;
    }, Kokkos::Sum<double>(s));
    energy[d] = s * vol;
  }
}

}  // namespace ax
