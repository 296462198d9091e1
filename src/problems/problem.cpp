#include "problems/problem.hpp"

#include <cstdio>

#include "config/config.hpp"
#include "config/section.hpp"

namespace ax {

// One factory per problem, in its own file (declared here only: adding a
// problem recompiles this file, not every file that includes problem.hpp).
std::shared_ptr<const Problem> make_sod(Section& p, const Config& cfg);
std::shared_ptr<const Problem> make_sedov(Section& p, const Config& cfg);
std::shared_ptr<const Problem> make_blast(Section& p, const Config& cfg);
std::shared_ptr<const Problem> make_linear_wave(Section& p, const Config& cfg);
std::shared_ptr<const Problem> make_kelvin_helmholtz(Section& p, const Config& cfg);
std::shared_ptr<const Problem> make_rayleigh_taylor(Section& p, const Config& cfg);
std::shared_ptr<const Problem> make_shu_osher(Section& p, const Config& cfg);
std::shared_ptr<const Problem> make_orszag_tang(Section& p, const Config& cfg);
std::shared_ptr<const Problem> make_cpaw(Section& p, const Config& cfg);
std::shared_ptr<const Problem> make_mhd_shock_tube(Section& p, const Config& cfg);
std::shared_ptr<const Problem> make_field_loop(Section& p, const Config& cfg);

namespace {
// Every problem: its `problem.name`, the factory that reads its keys, and
// whether it sets a magnetic field (then physics.mhd must be true: without
// it the state has no face field to set). The others run with
// physics.mhd: true too, with B = 0 unless they read a field (blast,
// linear_wave). A new problem is a file in src/problems/ and its two lines
// here (docs/problems.md, "Your own problem").
enum class Field { none_or_optional, required };
struct ProblemEntry {
  const char* name;
  std::shared_ptr<const Problem> (*make)(Section&, const Config&);
  Field field;
};
constexpr ProblemEntry kProblems[] = {
    {"sod", make_sod, Field::none_or_optional},
    {"sedov", make_sedov, Field::none_or_optional},
    {"blast", make_blast, Field::none_or_optional},
    {"linear_wave", make_linear_wave, Field::none_or_optional},
    {"kelvin_helmholtz", make_kelvin_helmholtz, Field::none_or_optional},
    {"rayleigh_taylor", make_rayleigh_taylor, Field::none_or_optional},
    {"shu_osher", make_shu_osher, Field::none_or_optional},
    {"orszag_tang", make_orszag_tang, Field::required},
    {"cpaw", make_cpaw, Field::required},
    {"mhd_shock_tube", make_mhd_shock_tube, Field::required},
    {"field_loop", make_field_loop, Field::required},
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
  for (const ProblemEntry& e : kProblems) {
    if (name != e.name) continue;
    if (e.field == Field::required && !cfg.mhd)
      params.fail("name", "this problem has a magnetic field and needs physics.mhd: true");
    return e.make(params, cfg);
  }
  // Not reached: the caller validated the name against problem_names().
  params.fail("name", "unknown problem '" + name + "'");
}

}  // namespace ax
