#include "problems/problem.hpp"

#include <cstdio>

#include "config/config.hpp"
#include "config/section.hpp"

namespace ax {

namespace {
// Every problem: its `problem.name` and the factory that reads its keys.
// A new problem is a file in src/problems/ and one line here
// (docs/problems.md, "Your own problem").
struct ProblemEntry {
  const char* name;
  std::shared_ptr<const Problem> (*make)(Section&, const Config&);
};
constexpr ProblemEntry kProblems[] = {
    {"sod", make_sod},
    {"sedov", make_sedov},
    {"blast", make_blast},
    {"linear_wave", make_linear_wave},
    {"kelvin_helmholtz", make_kelvin_helmholtz},
    {"shu_osher", make_shu_osher},
    {"orszag_tang", make_orszag_tang},
    {"cpaw", make_cpaw},
    {"mhd_shock_tube", make_mhd_shock_tube},
    {"field_loop", make_field_loop},
};
}  // namespace

const std::vector<std::string>& problem_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (const ProblemEntry& e : kProblems) v.emplace_back(e.name);
    return v;
  }();
  return names;
}

void require_mhd(Section& p, const Config& cfg) {
  if (!cfg.mhd) p.fail("name", "this problem has a magnetic field and needs physics.mhd: true");
}

void require_inside(Section& p, const std::string& key, double x, const Config& cfg, int axis,
                    const std::string& why) {
  if (x > cfg.xmin[axis] && x < cfg.xmax[axis]) return;
  char range[128];
  std::snprintf(range, sizeof(range),
                "between mesh.lower and mesh.upper along %c (%g .. %g), got %g", "xyz"[axis],
                cfg.xmin[axis], cfg.xmax[axis], x);
  p.fail(key, "expected a point strictly " + std::string(range) + ": " + why);
}

void read_center(Section& p, const Config& cfg, Real center[3]) {
  std::vector<double> mid(3);
  for (int d = 0; d < 3; ++d) mid[d] = 0.5 * (cfg.xmin[d] + cfg.xmax[d]);
  const auto c = p.reals("center", 3, mid);
  for (int d = 0; d < 3; ++d) center[d] = Real(c[d]);
}

std::shared_ptr<const Problem> make_problem(const std::string& name, Section& params,
                                            const Config& cfg) {
  for (const ProblemEntry& e : kProblems)
    if (name == e.name) return e.make(params, cfg);
  params.fail("name",
              "unknown problem '" + name + "'");  // the caller validated it against problem_names()
}

}  // namespace ax
