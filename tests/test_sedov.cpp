// Sedov-Taylor blast: shock radius against the similarity solution, and
// total energy conserved while the shock is inside the box.
#include <gtest/gtest.h>

#include <cmath>

#include "config_text.hpp"
#include "run_helpers.hpp"

namespace ax::test {
namespace {

// Shock radius from the angle-averaged density profile (shells one cell
// wide): the outermost radius where it crosses halfway between the ambient
// density and its peak. Shell averaging and shock capturing lower the peak
// (about 2.4 instead of 4 at 64^3), which puts this point slightly ahead of
// the discontinuity: the measured radius converges from above.
double shock_radius(const Simulation& sim, double rho_ambient) {
  const Grid& g = sim.grid();
  const HostState s = interior(sim);
  const double dr = g.dx[0];
  const int nbins = int(0.5 / dr) + 4;
  std::vector<double> sum(nbins, 0), count(nbins, 0);
  for (int k = 0; k < g.nx[2]; ++k)
    for (int j = 0; j < g.nx[1]; ++j)
      for (int i = 0; i < g.nx[0]; ++i) {
        double r2 = 0;
        for (int d = 0; d < 3; ++d) {
          if (!g.active(d)) continue;
          const int idx[3] = {i, j, k};
          const double x = g.x_center(d, g.is(d) + idx[d]);
          r2 += x * x;
        }
        const int b = int(std::sqrt(r2) / dr);
        if (b < nbins) {
          sum[b] += s.at(IDN, k, j, i);
          count[b] += 1;
        }
      }
  std::vector<double> prof(nbins);
  int peak = 0;
  for (int b = 0; b < nbins; ++b) {
    prof[b] = count[b] > 0 ? sum[b] / count[b] : rho_ambient;
    if (prof[b] > prof[peak]) peak = b;
  }
  const double half = 0.5 * (rho_ambient + prof[peak]);
  for (int b = peak; b + 1 < nbins; ++b) {
    if (prof[b] >= half && prof[b + 1] < half) {
      const double f = (prof[b] - half) / (prof[b] - prof[b + 1]);
      return (b + 0.5 + f) * dr;
    }
  }
  return -1;
}

double total_energy(const Simulation& sim) {
  const HostState s = interior(sim);
  const std::size_t n = s.v.size() / NHYDRO;
  double e = 0;
  for (std::size_t c = 0; c < n; ++c) e += s.v[IEN * n + c];
  return allreduce_sum(sim.comm(), e) * sim.grid().cell_volume();
}

// Similarity constants xi0 of R = xi0 (E t^2 / rho)^(1/(nu + 2)) for gamma =
// 5/3: spherical (nu = 3; Kamm & Timmes 2007, alpha = 0.4936) and
// cylindrical (nu = 2, E per unit length; alpha = 0.56429, from the
// similarity equations integrated from the strong shock inwards, which
// give Kamm & Timmes' 0.4936, 0.8510 and 0.9840 for the spherical and
// gamma = 1.4 cases to four digits; xi0 = alpha^(-1/(nu + 2))).
constexpr double kXi3D = 1.15167;
constexpr double kXi2D = 1.15379;

// dim: 3 (an n^3 cube, the spherical constant) or 2 (n^2, cylindrical).
void check_sedov(const char* file, const char* label, std::vector<std::string> extra = {},
                 double max_err_fine = 0.04, double max_drift_32 = 1e-12, int fine = 64, int dim = 3) {
  std::vector<double> err;
  const int coarse = dim == 3 ? 32 : 64;
  for (int n : {coarse, fine}) {
    std::vector<std::string> sets = extra;
    const std::string nz = dim == 3 ? std::to_string(n) : "1";
    sets.push_back("mesh.cells=[" + std::to_string(n) + "," + std::to_string(n) + "," + nz + "]");
    Config cfg = config_from(read_config(file), sets);
    Comm comm = comm_for(cfg);
    {
      Simulation sim(cfg, comm, false);
      sim.initialize();
      const double e0 = total_energy(sim);
      // The deposited energy (1) and the cold medium's p / (gamma - 1) over
      // the rest of the unit box (under 1.5e-5): the radius below assumes E = 1.
      EXPECT_GT(e0, 1.0);
      EXPECT_LE(e0, 1.0 + 1.5e-5);
      evolve(sim);
      const double r = shock_radius(sim, 1.0);
      const double exact = (dim == 3 ? kXi3D : kXi2D) * std::pow(1.0 * sim.time() * sim.time() / 1.0, 1.0 / (dim + 2));
      const double drift = total_energy(sim) / e0 - 1;
      std::printf("sedov %dD %s %d^%d: R = %.4f, Sedov-Taylor %.4f, error %.2f%%; energy drift %.2e\n", dim, label, n,
                  dim, r, exact, 100 * (r / exact - 1), drift);
      err.push_back(r / exact - 1);
      // The shock has not reached the outflow boundaries: energy is conserved.
      EXPECT_LE(std::fabs(drift), n == coarse ? max_drift_32 : 1e-12);
    }
    free_comm(comm);
  }
  // Within 4% at 64^3 (or the bound given for the finer grid), and closer
  // than at 32^3. The half-height radius lies
  // ahead of the discontinuity (see shock_radius): a shock more than 1%
  // behind the similarity solution is one that lost energy or speed.
  EXPECT_LE(err[1], max_err_fine) << label;
  EXPECT_GE(err[1], -0.01) << label;
  EXPECT_LT(std::fabs(err[1]), std::fabs(err[0])) << label;
}

// FV: 3.2% at 64^3 when written.
TEST(Sedov, ShockRadius3D) { check_sedov("sedov3d.yaml", "fv"); }
// FD WENO5 + SSP-RK(5,4) at its default CFL 1.5.
// FD WENO5 + SSP-RK(5,4) at CFL 1.5 as shipped (WENO-Z weights): 1.6% at
// 64^3 when written, the same bound as FV.
TEST(Sedov, ShockRadius3DFd) { check_sedov("sedov3d_fd.yaml", "fd weno-z"); }
// Jiang-Shu weights smear the shell more (4.3% at 64^3 when written; CFL
// 0.6 gives the same), and at 32^3 the smeared front reaches the outflow
// boundary: energy leaves at the 4e-11 level there. Run to 48^3 (5.3%),
// not 64^3: the weights are the only difference from the test above, and
// the 64^3 run took a minute of CI's 2-core budget.
TEST(Sedov, ShockRadius3DFdJiangShu) {
  check_sedov("sedov3d_fd.yaml", "fd weno-js", {"solver.weno=js"}, 0.055, 1e-10, 48);
}
// The cylindrical blast as shipped (E = 1 per unit length, t = 0.05: R =
// 0.258), 64^2 and 128^2, FV and FD: within 3% at 128^2 (1.8% for both
// when written).
TEST(Sedov, ShockRadius2D) { check_sedov("sedov2d.yaml", "fv", {}, 0.03, 1e-12, 128, 2); }
TEST(Sedov, ShockRadius2DFd) { check_sedov("sedov2d.yaml", "fd", {"solver.family=fd"}, 0.03, 1e-12, 128, 2); }

}  // namespace
}  // namespace ax::test
