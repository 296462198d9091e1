// Helpers for in-process physics tests: build a run from YAML text, evolve
// it, and read the interior of the conserved state back on the host.
#pragma once

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "config_text.hpp"
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

// Largest change of the density in the layer of cells next to the upper
// wall of axis d (the whole block on one rank).
inline double wall_layer_change(const HostState& before, const HostState& after, int d) {
  double worst = 0;
  for (int k = 0; k < after.nx[2]; ++k)
    for (int j = 0; j < after.nx[1]; ++j)
      for (int i = 0; i < after.nx[0]; ++i) {
        const int at[3] = {i, j, k};
        if (at[d] != after.nx[d] - 1) continue;
        worst = std::max(worst, std::fabs(after.at(IDN, k, j, i) - before.at(IDN, k, j, i)));
      }
  return worst;
}

// The next time step of a run that is still sound. A run that broke down
// (a cell no longer physical) has none: Simulation::run stops there, and a
// test that steps by itself fails here instead of going on with steps of
// zero length (or for ever, towards t_end).
inline Real next_dt_checked(Simulation& sim) {
  const Real dt = sim.next_dt();
  if (!(dt > 0) || !std::isfinite(double(dt)))
    throw std::runtime_error("the run broke down after step " + std::to_string(sim.steps()) +
                             " (next dt " + std::to_string(double(dt)) + ")");
  return dt;
}

// Evolves to cfg.t_end (or max_steps) without output.
inline void evolve(Simulation& sim) {
  const Config& c = sim.config();
  while (sim.time() < c.t_end * (1 - 1e-14) && (c.max_steps < 0 || sim.steps() < c.max_steps))
    sim.step(next_dt_checked(sim));
  sim.sync_cell_field();  // FD MHD: the field as the scheme reports it
}

// The interior state of `file` with `sets`, initialised and evolved as
// above; `path`, if given, receives the solver path that ran.
inline HostState evolved_state(const std::string& file, const std::vector<std::string>& sets,
                               std::string* path = nullptr) {
  Config cfg = config_from(read_config(file), sets);
  Comm comm = comm_for(cfg);
  HostState s;
  {
    Simulation sim(cfg, comm, false);
    if (path) *path = sim.hydro().path();
    sim.initialize();
    evolve(sim);
    s = interior(sim);
  }
  free_comm(comm);
  return s;
}

}  // namespace ax::test
