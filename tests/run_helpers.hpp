// Helpers for in-process physics tests: build a run from YAML text, evolve
// it, and read the interior of the conserved state back on the host.
#pragma once

#include <mpi.h>

#include <string>
#include <vector>

#include "config/config.hpp"
#include "driver/simulation.hpp"

namespace ax::test {

// A config from YAML text with output switched off, for the world communicator.
inline Config config_from(const std::string& yaml, std::vector<std::string> sets = {}) {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  sets.push_back("output.enabled=false");
  return parse_config(yaml, "<test>", sets, size);
}

inline Comm comm_for(const Config& cfg) {
  bool periodic[3];
  for (int d = 0; d < 3; ++d) periodic[d] = cfg.bc[d][0] == BoundaryKind::periodic;
  return make_comm(MPI_COMM_WORLD, cfg.dims, periodic);
}

// Interior of the conserved state on the host: [var][k][j][i] flattened,
// every cell variable of the state (5 for hydro, 8 for MHD).
struct HostState {
  int nx[3];
  int nvar = NHYDRO;
  std::vector<double> v;
  double at(int n, int k, int j, int i) const {
    return v[((std::size_t(n) * nx[2] + k) * nx[1] + j) * nx[0] + i];
  }
};

inline HostState interior(const Simulation& sim) {
  const Grid& g = sim.grid();
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), sim.state());
  HostState s{{g.nx[0], g.nx[1], g.nx[2]}, int(h.extent(0)), {}};
  for (int n = 0; n < s.nvar; ++n)
    for (int k = g.is(2); k < g.ie(2); ++k)
      for (int j = g.is(1); j < g.ie(1); ++j)
        for (int i = g.is(0); i < g.ie(0); ++i) s.v.push_back(h(n, k, j, i));
  return s;
}

// Evolves to cfg.t_end (or max_steps) without output.
inline void evolve(Simulation& sim) {
  const Config& c = sim.config();
  while (sim.time() < c.t_end * (1 - 1e-14) && (c.max_steps < 0 || sim.steps() < c.max_steps))
    sim.step(sim.next_dt());
  sim.sync_cell_field();  // FD MHD: the field as the scheme reports it
}

}  // namespace ax::test
