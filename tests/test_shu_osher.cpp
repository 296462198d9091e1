// Shu & Osher's shock-entropy wave: a Mach 3 shock running into a
// sinusoidal density. Without the sinusoid the shock must move at the speed
// its two states give (Rankine-Hugoniot); with it, FD WENO5 must keep far
// more of the compressed wiggles behind the shock than PLM, as in Shu &
// Osher (1989) and every WENO paper since.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "run_helpers.hpp"

namespace ax::test {
namespace {

constexpr double kRhoL = 3.857143, kUL = 2.629369, kPL = 10.33333, kRhoR = 1, kTEnd = 1.8;

// Density profile along x at t = 1.8 on `n` cells, and the cell size.
std::vector<double> density_at_end(int n, const std::vector<std::string>& extra,
                                   double* dx = nullptr) {
  std::vector<std::string> sets = {"mesh.cells=[" + std::to_string(n) + ",1,1]"};
  sets.insert(sets.end(), extra.begin(), extra.end());
  const HostState s = evolved_state("shu_osher.yaml", sets);
  if (dx) *dx = 10.0 / n;
  std::vector<double> rho(n);
  for (int i = 0; i < n; ++i) rho[i] = s.at(IDN, 0, 0, i);
  return rho;
}

double x_center(int i, int n) {
  return -5 + (i + 0.5) * 10.0 / n;
}

const std::vector<std::string> kFd = {"solver.family=fd", "time.cfl=1.5"};

TEST(ShuOsher, PlainShockMovesAtItsRankineHugoniotSpeed) {
  // Mass conservation across the shock gives its speed from the two states
  // (3 sqrt(1.4), Mach 3 into gas at rest with c = sqrt(1.4)).
  const double speed = kRhoL * kUL / (kRhoL - kRhoR);
  EXPECT_NEAR(speed, 3 * std::sqrt(1.4), 1e-5);
  const double expected = -4 + speed * kTEnd;
  for (const auto& family : {std::vector<std::string>{}, kFd}) {
    std::vector<std::string> sets = family;
    sets.push_back("problem.amplitude=0");
    double dx = 0;
    const int n = 400;
    const std::vector<double> rho = density_at_end(n, sets, &dx);
    // Where the density crosses the mean of its two states, interpolated.
    const double mid = 0.5 * (kRhoL + kRhoR);
    double shock = NAN;
    for (int i = 0; i + 1 < n; ++i)
      if (rho[i] >= mid && rho[i + 1] < mid)
        shock = x_center(i, n) + dx * (rho[i] - mid) / (rho[i] - rho[i + 1]);
    const char* what = family.empty() ? "fv" : "fd";
    // Measured 0.36 (FV) and 0.47 (FD) cells ahead at 400 cells; a speed 1%
    // off would be 2.5 cells.
    EXPECT_NEAR(shock, expected, dx) << what;
    // Behind the shock the state is the left one, except where the start-up
    // error of the initial jump went: an entropy wave moving with the gas
    // and an acoustic one at u - c (about 1% in density, as in every
    // shock-capturing scheme). Elsewhere it holds to 2e-3: measured 5.7e-4
    // (FV) and 9.9e-4 (FD, whose shock leaves a weak noise behind it).
    const double c_l = std::sqrt(1.4 * kPL / kRhoL);
    const double startup[2] = {-4 + (kUL - c_l) * kTEnd, -4 + kUL * kTEnd};
    double worst = 0;
    for (int i = 0; i < n; ++i) {
      const double x = x_center(i, n);
      if (x < -3.5 || x > expected - 0.3) continue;
      if (std::fabs(x - startup[0]) < 0.4 || std::fabs(x - startup[1]) < 0.4) continue;
      worst = std::max(worst, std::fabs(rho[i] - kRhoL));
    }
    EXPECT_LT(worst / kRhoL, 2e-3) << what;
  }
}

// Mean |a - b| over x in (lo, hi); b is a reference on `r` times as many
// cells, averaged onto a's (FD's point values average to within the
// reference's own error).
double l1_against(const std::vector<double>& a, const std::vector<double>& ref, double lo,
                  double hi) {
  const int n = int(a.size()), r = int(ref.size()) / n;
  double sum = 0;
  int count = 0;
  for (int i = 0; i < n; ++i) {
    if (x_center(i, n) <= lo || x_center(i, n) >= hi) continue;
    double mean = 0;
    for (int m = 0; m < r; ++m) mean += ref[i * r + m];
    sum += std::fabs(a[i] - mean / r);
    ++count;
  }
  return sum / count;
}

// Total variation of the density over x in (lo, hi): how much of the wiggles survive.
double variation(const std::vector<double>& a, double lo, double hi) {
  const int n = int(a.size());
  double tv = 0;
  for (int i = 0; i + 1 < n; ++i)
    if (x_center(i, n) > lo && x_center(i + 1, n) < hi) tv += std::fabs(a[i + 1] - a[i]);
  return tv;
}

TEST(ShuOsher, WenoKeepsTheEntropyWavesPlmSmears) {
  // Reference: FD WENO5 on 1600 cells. The wiggles behind the shock
  // (wavelength about 0.2) lie in 0.5 < x < 2.2 at t = 1.8.
  const std::vector<double> ref = density_at_end(1600, kFd);
  const std::vector<double> fd = density_at_end(400, kFd);
  const std::vector<double> fv = density_at_end(400, {});
  const double lo = 0.5, hi = 2.2;
  const double tv_ref = variation(ref, lo, hi), tv_fd = variation(fd, lo, hi),
               tv_fv = variation(fv, lo, hi);
  const double e_fd = l1_against(fd, ref, -5, 5), e_fv = l1_against(fv, ref, -5, 5);
  // Measured (x86-64, 2026-12-07): wiggle variation 10.8 (reference), 9.4
  // (FD), 2.9 (FV); L1 0.023 (FD), 0.057 (FV).
  EXPECT_GT(tv_ref, 10) << "the reference lost its wiggles";
  EXPECT_GT(tv_fd, 0.75 * tv_ref);
  EXPECT_LT(tv_fv, 0.5 * tv_ref) << "PLM kept the wiggles: is the reference still resolved?";
  EXPECT_LT(e_fd, 0.5 * e_fv);
  EXPECT_LT(e_fd, 0.03);
  EXPECT_LT(e_fv, 0.07);
}

}  // namespace
}  // namespace ax::test
