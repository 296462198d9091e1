// Config parsing in-process: defaults, overrides, the effective config, and
// messages that point at the right line. (Whole-program error handling, exit
// codes included, is in test_config_errors.py.)
#include <gtest/gtest.h>

#include "config/config_error.hpp"
#include "config_text.hpp"
#include "run_helpers.hpp"

namespace ax::test {
namespace {

TEST(Config, DefaultsAndFractions) {
  const Config c = config_from("mesh: {cells: [8, 1, 1]}\ntime: {end: 0.1}\nphysics: {gamma: 7/5}\nproblem: {name: sod}\n");
  EXPECT_DOUBLE_EQ(c.gamma, 1.4);
  EXPECT_EQ(c.integrator, Integrator::vl2);
  EXPECT_EQ(c.fv.riemann, RiemannSolver::hllc);
  EXPECT_EQ(c.fv.limiter, Limiter::van_leer);
  EXPECT_EQ(c.bc[0][0], BoundaryKind::periodic);
  EXPECT_NE(c.effective.find("integrator: vl2"), std::string::npos);
  EXPECT_NE(c.effective.find("gamma: 1.4"), std::string::npos);
}

TEST(Config, OverridesWinAndAreRecorded) {
  const Config c = config_from(read_config("sod.yaml"), {"time.cfl=0.25", "solver.riemann=llf", "mesh.cells=[64,1,1]"});
  EXPECT_DOUBLE_EQ(c.cfl, 0.25);
  EXPECT_EQ(c.fv.riemann, RiemannSolver::llf);
  EXPECT_EQ(c.nx[0], 64);
  EXPECT_NE(c.effective.find("cfl: 0.25"), std::string::npos);
}

TEST(Config, ErrorsNameLineAndKey) {
  const std::string text = "mesh:\n  cells: [8, 1, 1]\ntime:\n  end: 0.1\n  cfl: 2\nproblem: {name: sod}\n";
  try {
    config_from(text);
    FAIL() << "cfl = 2 was accepted";
  } catch (const ConfigError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("<test>:5:3: time.cfl"), std::string::npos) << m;
    EXPECT_NE(m.find("<= 1"), std::string::npos) << m;
  }
  try {
    config_from(text, {"time.cfl=0.3", "time.integratr=rk2"});
    FAIL() << "a typo in --set was accepted";
  } catch (const ConfigError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("--set time.integratr"), std::string::npos) << m;
    EXPECT_NE(m.find("did you mean 'integrator'"), std::string::npos) << m;
  }
}

TEST(Config, EveryShippedConfigIsValid) {
  for (const char* f : {"sod.yaml", "sod_y.yaml", "sod_z.yaml", "sedov2d.yaml", "sedov3d.yaml", "blast3d.yaml",
                        "linear_wave1d.yaml", "linear_wave2d.yaml", "linear_wave3d.yaml", "kelvin_helmholtz.yaml", "sedov3d_fd.yaml"}) {
    EXPECT_NO_THROW(config_from(read_config(f), {"solver.family=fd"})) << f << " with the fd family";
    EXPECT_NO_THROW(config_from(read_config(f))) << f;
  }
}

}  // namespace
}  // namespace ax::test
