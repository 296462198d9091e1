#include "driver/broken_state.hpp"

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <sstream>
#include <vector>

#include "mhd/mhd_eos.hpp"

namespace ax {

namespace {

constexpr int kListed = 8;  // offenders listed per rank and in the report

struct Offender {
  std::int64_t global;  // (k * ny + j) * nx + i over the whole grid, for ordering
  int cell[3];
  int var;  // conserved slot, or -1 for the pressure
  double value, x[3];
};

const char* variable_name(int var) {
  static const char* names[] = {"density", "momentum x", "momentum y", "momentum z", "total energy",
                                "B x", "B y", "B z"};
  return var < 0 ? "pressure" : names[var];
}

}  // namespace

std::string broken_state_report(const Grid& g, const Comm& comm, const Config& cfg, const Array4& u) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), u);
  const int nvar = cfg.nvar();
  std::vector<Offender> mine;
  long long count = 0;
  for (int k = g.is(2); k < g.ie(2); ++k)
    for (int j = g.is(1); j < g.ie(1); ++j)
      for (int i = g.is(0); i < g.ie(0); ++i) {
        Real c[NMHD] = {0, 0, 0, 0, 0, 0, 0, 0}, w[NMHD] = {0, 0, 0, 0, 0, 0, 0, 0};
        int bad = -2;  // the first offending variable, if any
        for (int n = 0; n < nvar && bad == -2; ++n) {
          c[n] = h(n, k, j, i);
          if (!std::isfinite(double(c[n])) || (n == IDN && !(c[n] > 0))) bad = n;
        }
        if (bad == -2) {
          if (cfg.mhd) mhd_cons_to_prim(cfg.eos, c, w);
          else cons_to_prim(cfg.eos, c, w);
          if (!(w[IPR] > 0)) bad = -1;
        }
        if (bad == -2) continue;
        ++count;
        if (int(mine.size()) == kListed) continue;
        Offender o;
        const int gi = g.offset[0] + i - g.is(0), gj = g.offset[1] + j - g.is(1), gk = g.offset[2] + k - g.is(2);
        o.global = (std::int64_t(gk) * g.nx_global[1] + gj) * g.nx_global[0] + gi;
        o.cell[0] = gi;
        o.cell[1] = gj;
        o.cell[2] = gk;
        o.var = bad;
        o.value = bad >= 0 ? double(c[bad]) : double(w[IPR]);
        o.x[0] = g.x_center(0, i);
        o.x[1] = g.x_center(1, j);
        o.x[2] = g.x_center(2, k);
        mine.push_back(o);
      }
  long long total = 0;
  MPI_Allreduce(&count, &total, 1, MPI_LONG_LONG, MPI_SUM, comm.cart);
  mine.resize(kListed, Offender{-1, {0, 0, 0}, 0, 0, {0, 0, 0}});
  std::vector<Offender> all(comm.root() ? std::size_t(kListed) * comm.size : 0);
  MPI_Gather(mine.data(), int(kListed * sizeof(Offender)), MPI_BYTE, all.data(), int(kListed * sizeof(Offender)),
             MPI_BYTE, 0, comm.cart);
  if (!comm.root()) return "";
  all.erase(std::remove_if(all.begin(), all.end(), [](const Offender& o) { return o.global < 0; }), all.end());
  std::sort(all.begin(), all.end(), [](const Offender& a, const Offender& b) { return a.global < b.global; });
  std::ostringstream os;
  os << total << " cell" << (total == 1 ? "" : "s") << " with a NaN, density <= 0 or pressure <= 0";
  if (total > 0) os << "; the first " << std::min<long long>(total, kListed) << ":";
  for (std::size_t n = 0; n < all.size() && n < std::size_t(kListed); ++n) {
    const Offender& o = all[n];
    char value[32], line[256];
    // A NaN's sign bit means nothing here: "nan", not printf's "-nan".
    if (std::isnan(o.value)) std::snprintf(value, sizeof(value), "nan");
    else std::snprintf(value, sizeof(value), "%.6g", o.value);
    std::snprintf(line, sizeof(line), "\n  %s = %s in cell (i, j, k) = (%d, %d, %d) at (x, y, z) = (%.6g, %.6g, %.6g)",
                  variable_name(o.var), value, o.cell[0], o.cell[1], o.cell[2], o.x[0], o.x[1], o.x[2]);
    os << line;
  }
  return os.str();
}

}  // namespace ax
