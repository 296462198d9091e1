#include "hydro/hydro_kernels.hpp"

#include <cfloat>

#include "time/stage_combination.hpp"

namespace ax {

Real local_cfl_dt(const Grid& g, const IdealGas& eos, const Array4& u, bool sum_axes) {
  const bool a0 = g.active(0), a1 = g.active(1), a2 = g.active(2);
  const Real dx0 = g.dx[0], dx1 = g.dx[1], dx2 = g.dx[2];
  Real dt = 0;
  par_reduce("cfl_dt", g.interior(), KOKKOS_LAMBDA(int k, int j, int i, Real& m) {
    Real uc[NHYDRO], w[NHYDRO];
    for (int n = 0; n < NHYDRO; ++n) uc[n] = u(n, k, j, i);
    cons_to_prim(eos, uc, w);
    const Real c = eos.sound_speed(w[IDN], w[IPR]);
    if (sum_axes) {
      Real rate = 0;
      if (a0) rate += (math::fabs(w[IVX]) + c) / dx0;
      if (a1) rate += (math::fabs(w[IVY]) + c) / dx1;
      if (a2) rate += (math::fabs(w[IVZ]) + c) / dx2;
      m = math::fmin(m, Real(1) / rate);
    } else {
      if (a0) m = math::fmin(m, dx0 / (math::fabs(w[IVX]) + c));
      if (a1) m = math::fmin(m, dx1 / (math::fabs(w[IVY]) + c));
      if (a2) m = math::fmin(m, dx2 / (math::fabs(w[IVZ]) + c));
    }
    // min() drops NaN operands: a broken state (NaN, or a negative pressure
    // whose sound speed is NaN) must stop the run instead.
    const Real speed = math::fabs(w[IVX]) + math::fabs(w[IVY]) + math::fabs(w[IVZ]) + c;
    if (!(speed == speed) || !(w[IDN] > Real(0))) m = Real(-1);
  }, Kokkos::Min<Real>(dt));
  return dt;
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

Totals local_totals(const Grid& g, const Array4& u) {
  Totals t;
  const double vol = g.cell_volume();
  for (int v = 0; v < NHYDRO; ++v) {
    double s = 0;
    par_reduce("totals", g.interior(), KOKKOS_LAMBDA(int k, int j, int i, double& acc) {
      acc += double(u(v, k, j, i));
    }, Kokkos::Sum<double>(s));
    if (v == IDN) t.mass = s * vol;
    else if (v == IEN) t.energy = s * vol;
    else t.mom[v - IM1] = s * vol;
  }
  Real lo = 0, hi = 0;
  par_reduce("rho_min", g.interior(), KOKKOS_LAMBDA(int k, int j, int i, Real& m) {
    m = math::fmin(m, u(IDN, k, j, i));
  }, Kokkos::Min<Real>(lo));
  par_reduce("rho_max", g.interior(), KOKKOS_LAMBDA(int k, int j, int i, Real& m) {
    m = math::fmax(m, u(IDN, k, j, i));
  }, Kokkos::Max<Real>(hi));
  t.rho_min = lo;
  t.rho_max = hi;
  return t;
}

}  // namespace ax
