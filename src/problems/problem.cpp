#include "problems/problem.hpp"

#include <cstdio>

#include "config/config.hpp"
#include "config/section.hpp"

namespace ax {

const std::vector<std::string>& problem_names() {
  static const std::vector<std::string> names = {"sod", "sedov", "blast", "linear_wave",
                                                 "kelvin_helmholtz", "orszag_tang", "cpaw",
                                                 "mhd_shock_tube", "field_loop"};
  return names;
}

void require_mhd(Section& p, const Config& cfg) {
  if (!cfg.mhd) p.fail("name", "this problem has a magnetic field and needs physics.mhd: true");
}

void require_inside(Section& p, const std::string& key, double x, const Config& cfg, int axis, const std::string& why) {
  if (x > cfg.xmin[axis] && x < cfg.xmax[axis]) return;
  char range[128];
  std::snprintf(range, sizeof(range), "between mesh.lower and mesh.upper along %c (%g .. %g), got %g", "xyz"[axis],
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
  if (name == "sod") return make_sod(params, cfg);
  if (name == "sedov") return make_sedov(params, cfg);
  if (name == "blast") return make_blast(params, cfg);
  if (name == "linear_wave") return make_linear_wave(params, cfg);
  if (name == "kelvin_helmholtz") return make_kelvin_helmholtz(params, cfg);
  if (name == "orszag_tang") return make_orszag_tang(params, cfg);
  if (name == "cpaw") return make_cpaw(params, cfg);
  if (name == "mhd_shock_tube") return make_mhd_shock_tube(params, cfg);
  if (name == "field_loop") return make_field_loop(params, cfg);
  return nullptr;  // the caller validated the name against problem_names()
}

}  // namespace ax
