// Exact solution of the Riemann problem for the Euler equations with an
// ideal gas (Toro, "Riemann Solvers and Numerical Methods for Fluid
// Dynamics", ch. 4): Newton iteration for the star pressure, then sampling.
#pragma once

#include <algorithm>
#include <cmath>

namespace ax::test {

struct Prim1D {
  double rho, u, p;
};

class ExactRiemann {
 public:
  ExactRiemann(Prim1D l, Prim1D r, double gamma) : l_(l), r_(r), g_(gamma) {
    cl_ = std::sqrt(g_ * l.p / l.rho);
    cr_ = std::sqrt(g_ * r.p / r.rho);
    double p = std::max(1e-12, 0.5 * (l.p + r.p));
    for (int it = 0; it < 100; ++it) {
      double fl, dfl, fr, dfr;
      f(p, l_, cl_, fl, dfl);
      f(p, r_, cr_, fr, dfr);
      const double dp = (fl + fr + r.u - l.u) / (dfl + dfr);
      p = std::max(1e-14, p - dp);
      if (std::fabs(dp) < 1e-15 * p) break;
    }
    ps_ = p;
    double fl, dfl, fr, dfr;
    f(p, l_, cl_, fl, dfl);
    f(p, r_, cr_, fr, dfr);
    us_ = 0.5 * (l.u + r.u) + 0.5 * (fr - fl);
  }

  double star_pressure() const { return ps_; }
  double star_velocity() const { return us_; }

  // State at similarity coordinate s = (x - x0) / t.
  Prim1D sample(double s) const {
    const double g = g_;
    if (s <= us_) {  // left of the contact
      if (ps_ > l_.p) {  // left shock
        const double sl = l_.u - cl_ * std::sqrt((g + 1) / (2 * g) * ps_ / l_.p + (g - 1) / (2 * g));
        if (s <= sl) return l_;
        const double r = (ps_ / l_.p + (g - 1) / (g + 1)) / ((g - 1) / (g + 1) * ps_ / l_.p + 1);
        return {l_.rho * r, us_, ps_};
      }
      const double head = l_.u - cl_;
      const double cs = cl_ * std::pow(ps_ / l_.p, (g - 1) / (2 * g));
      const double tail = us_ - cs;
      if (s <= head) return l_;
      if (s >= tail) return {l_.rho * std::pow(ps_ / l_.p, 1 / g), us_, ps_};
      const double c = 2 / (g + 1) * (cl_ + (g - 1) / 2 * (l_.u - s));
      const double u = 2 / (g + 1) * (cl_ + (g - 1) / 2 * l_.u + s);
      const double rho = l_.rho * std::pow(c / cl_, 2 / (g - 1));
      return {rho, u, l_.p * std::pow(c / cl_, 2 * g / (g - 1))};
    }
    if (ps_ > r_.p) {  // right shock
      const double sr = r_.u + cr_ * std::sqrt((g + 1) / (2 * g) * ps_ / r_.p + (g - 1) / (2 * g));
      if (s >= sr) return r_;
      const double r = (ps_ / r_.p + (g - 1) / (g + 1)) / ((g - 1) / (g + 1) * ps_ / r_.p + 1);
      return {r_.rho * r, us_, ps_};
    }
    const double head = r_.u + cr_;
    const double cs = cr_ * std::pow(ps_ / r_.p, (g - 1) / (2 * g));
    const double tail = us_ + cs;
    if (s >= head) return r_;
    if (s <= tail) return {r_.rho * std::pow(ps_ / r_.p, 1 / g), us_, ps_};
    const double c = 2 / (g + 1) * (cr_ - (g - 1) / 2 * (r_.u - s));
    const double u = 2 / (g + 1) * (-cr_ + (g - 1) / 2 * r_.u + s);
    const double rho = r_.rho * std::pow(c / cr_, 2 / (g - 1));
    return {rho, u, r_.p * std::pow(c / cr_, 2 * g / (g - 1))};
  }

 private:
  // Toro's pressure function f_K(p) and its derivative.
  void f(double p, const Prim1D& k, double ck, double& val, double& dval) const {
    const double g = g_;
    if (p > k.p) {
      const double a = 2 / ((g + 1) * k.rho), b = (g - 1) / (g + 1) * k.p;
      const double q = std::sqrt(a / (p + b));
      val = (p - k.p) * q;
      dval = q * (1 - 0.5 * (p - k.p) / (b + p));
    } else {
      val = 2 * ck / (g - 1) * (std::pow(p / k.p, (g - 1) / (2 * g)) - 1);
      dval = 1 / (k.rho * ck) * std::pow(p / k.p, -(g + 1) / (2 * g));
    }
  }

  Prim1D l_, r_;
  double g_, cl_, cr_, ps_ = 0, us_ = 0;
};

}  // namespace ax::test
