// Athena++'s error metric for wave tests (shared/REFERENCE.md section 2):
// after the run, the RMS over the conserved cell variables (rho, M, E and,
// for MHD, the cell-centred B) of the volume-averaged L1 difference from
// the initial state.
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "config_text.hpp"
#include "run_helpers.hpp"

namespace ax::test {

struct WaveRun {
  double rms = 0;     // RMS-L1 error
  long long steps = 0;
};

// Runs `file` at resolution n (1D: n; 2D: n x n, or n x n/2 on a box twice
// as long as wide; 3D: Athena++'s n x n/2 x n/2 on 3 x 1.5 x 1.5), with
// `sets` on top.
inline WaveRun wave_error(const std::string& file, int n, std::vector<std::string> sets) {
  Config probe = config_from(read_config(file));
  const std::string nn = std::to_string(n), half = std::to_string(n / 2);
  std::string cells = "[" + nn + ",1,1]";
  if (probe.nx[1] > 1)
    cells = probe.nx[0] == 2 * probe.nx[1] ? "[" + nn + "," + half + ",1]" : "[" + nn + "," + nn + ",1]";
  if (probe.nx[2] > 1) cells = "[" + nn + "," + half + "," + half + "]";
  sets.push_back("mesh.cells=" + cells);
  Config cfg = config_from(read_config(file), sets);
  Comm comm = comm_for(cfg);
  WaveRun out;
  {
    Simulation sim(cfg, comm, false);
    sim.initialize();
    const HostState s0 = interior(sim);
    evolve(sim);
    const HostState s1 = interior(sim);
    const std::size_t cells_local = s0.v.size() / s0.nvar;
    double sum2 = 0;
    for (int v = 0; v < s0.nvar; ++v) {
      double l1 = 0;
      for (std::size_t c = 0; c < cells_local; ++c)
        l1 += std::fabs(s1.v[v * cells_local + c] - s0.v[v * cells_local + c]);
      l1 = allreduce_sum(comm, l1) / double(sim.grid().cells_global());
      sum2 += l1 * l1;
    }
    out.rms = std::sqrt(sum2);
    out.steps = sim.steps();
  }
  free_comm(comm);
  return out;
}

}  // namespace ax::test
