// Initial conditions. Each problem reads its parameters from the config's
// `problem` section when the config is validated, and later fills the
// conserved state on every rank from global cell coordinates (so the result
// does not depend on the decomposition).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "backend/comm.hpp"
#include "backend/grid.hpp"
#include "backend/state.hpp"
#include "hydro/eos.hpp"

namespace ax {

class Section;
struct Config;

class Problem {
 public:
  virtual ~Problem() = default;
  // Fills the interior of the state: the conserved cell variables and, for
  // MHD, the face field (from a vector potential, so div B = 0 exactly).
  virtual void initialize(const Grid& g, const IdealGas& eos, const Comm& comm,
                          const State& s) const = 0;
};

// Reads the parameters of problem `name` from `params` (the problem section).
// Throws ConfigError for an unknown name, a problem with a magnetic field
// without physics.mhd, or a bad parameter. The names and factories are one
// table in problem.cpp.
std::shared_ptr<const Problem> make_problem(const std::string& name, Section& params,
                                            const Config& cfg);
const std::vector<std::string>& problem_names();

// Fails at `key` unless x lies strictly inside the domain along axis; `why`
// ends the message.
void require_inside(Section& p, const std::string& key, double x, const Config& cfg, int axis,
                    const std::string& why = "elsewhere the domain holds one state only");

// Reads the `center` parameter (default: the middle of the domain).
void read_center(Section& p, const Config& cfg, Real center[3]);

// Fills the interior from a pointwise primitive-state function f(x, y, z, w).
template <class F>
void fill_from_primitives(const Grid& g, const IdealGas& eos, const Array4& u, const F& f) {
  par_for("problem_init", g.interior(), KOKKOS_LAMBDA(int k, int j, int i) {
    Real w[NHYDRO], c[NHYDRO];
    f(g.x_center(0, i), g.x_center(1, j), g.x_center(2, k), w);
    prim_to_cons(eos, w, c);
    for (int n = 0; n < NHYDRO; ++n) u(n, k, j, i) = c[n];
  });
}

}  // namespace ax
