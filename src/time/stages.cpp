#include "time/stages.hpp"

namespace ax {

namespace {

Stage plain(Real a, Real b, Real c, bool first_order = false) {
  Stage s;
  s.a = a;
  s.b = b;
  s.c = c;
  s.first_order = first_order;
  return s;
}

// SSP-RK(5,4) of Spiteri & Ruuth (2002), SSP coefficient 1.508, in the
// Shu-Osher form of Gottlieb, Ketcheson & Shu (2009, eq. 4.1):
//   u1 = u0 + 0.391752226571890 dt L(u0)
//   u2 = 0.444370493651235 u0 + 0.555629506348765 u1 + 0.368410593050371 dt L(u1)
//   u3 = 0.620101851488403 u0 + 0.379898148511597 u2 + 0.251891774271694 dt L(u2)
//   u4 = 0.178079954393132 u0 + 0.821920045606868 u3 + 0.544974750228521 dt L(u3)
//   u5 = 0.517231671970585 u2 + 0.096059710526147 u3 + 0.063692468666290 dt L(u3)
//      + 0.386708617503269 u4 + 0.226007483236906 dt L(u4)
// R collects the u2 and u3 terms of the last stage as they pass.
Scheme ssprk54() {
  Scheme s;
  s.uses_r = true;
  s.stages.push_back(plain(0, 1, Real(0.391752226571890)));
  s.stages.push_back(plain(Real(0.444370493651235), Real(0.555629506348765), Real(0.368410593050371)));
  Stage s3 = plain(Real(0.620101851488403), Real(0.379898148511597), Real(0.251891774271694));
  s3.set_r = true;
  s3.rb = Real(0.517231671970585);
  s.stages.push_back(s3);
  Stage s4 = plain(Real(0.178079954393132), Real(0.821920045606868), Real(0.544974750228521));
  s4.set_r = true;
  s4.ra = 1;
  s4.rb = Real(0.096059710526147);
  s4.rc = Real(0.063692468666290);
  s.stages.push_back(s4);
  Stage s5 = plain(0, Real(0.386708617503269), Real(0.226007483236906));
  s5.e = 1;
  s5.rw = s3.rb + s4.rb;
  s.stages.push_back(s5);
  return s;
}

// Five-stage fourth-order 2N-storage Runge-Kutta of Carpenter & Kennedy
// (1994, solution 3): K = A_s K + dt L(U); U = U + B_s K.
Scheme lsrk4() {
  static const double A[5] = {0.0, -567301805773.0 / 1357537059087.0, -2404267990393.0 / 2016746695238.0,
                              -3550918686646.0 / 2091501179385.0, -1275806237668.0 / 842570457699.0};
  static const double B[5] = {1432997174477.0 / 9575080441755.0, 5161836677717.0 / 13612068292357.0,
                              1720146321549.0 / 2090206949498.0, 3134564353537.0 / 4481467310338.0,
                              2277821191437.0 / 14882151754819.0};
  Scheme s;
  s.in_place = true;
  for (int i = 0; i < 5; ++i) {
    Stage st = plain(0, 1, Real(B[i]));
    st.A = Real(A[i]);
    s.stages.push_back(st);
  }
  return s;
}

}  // namespace

Scheme scheme_of(Integrator integrator) {
  Scheme s;
  switch (integrator) {
    case Integrator::rk1:
      s.stages = {plain(0, 1, 1)};
      break;
    case Integrator::rk2:  // SSP RK2 (Heun)
      s.stages = {plain(0, 1, 1), plain(Real(0.5), Real(0.5), Real(0.5))};
      break;
    case Integrator::vl2:
      s.stages = {plain(0, 1, Real(0.5), true), plain(1, 0, 1)};
      break;
    case Integrator::rk3:  // SSP RK3 (Shu & Osher)
      s.stages = {plain(0, 1, 1), plain(Real(0.75), Real(0.25), Real(0.25)),
                  plain(Real(1) / Real(3), Real(2) / Real(3), Real(2) / Real(3))};
      break;
    case Integrator::ssprk5_4:
      return ssprk54();
    case Integrator::lsrk4:
      return lsrk4();
  }
  return s;
}

}  // namespace ax
