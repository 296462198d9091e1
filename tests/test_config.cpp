// Config parsing in-process: defaults, overrides, the effective config, and
// messages that point at the right line. (Whole-program error handling, exit
// codes included, is in test_config_errors.py.)
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "config/config_error.hpp"
#include "config_text.hpp"
#include "problems/problem.hpp"
#include "run_helpers.hpp"

namespace ax::test {
namespace {

TEST(Config, DefaultsAndFractions) {
  // sedov: a tube (sod) refuses the default periodic boundaries along it.
  const Config c = config_from("mesh: {cells: [8, 1, 1]}\ntime: {end: 0.1}\nphysics: {gamma: 7/5}\nproblem: {name: sedov}\n");
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

// The resolved config states each axis once: the axis where its faces
// agree, else the two faces (an axis key beside them would be a default the
// faces overrode). It reads back as the same boundaries.
TEST(Config, EffectiveBoundariesStateEachAxisOnce) {
  const std::string text =
      "mesh: {cells: [8, 8, 1]}\nboundaries: {x: outflow, y_inner: reflecting, y_outer: outflow}\n"
      "time: {end: 0.1}\nproblem: {name: sedov}\n";
  const Config c = config_from(text);
  const YAML::Node b = YAML::Load(c.effective)["boundaries"];
  EXPECT_EQ(b["x"].as<std::string>(), "outflow");
  EXPECT_FALSE(b["x_inner"] || b["x_outer"]) << c.effective;
  EXPECT_FALSE(b["y"]) << c.effective;
  EXPECT_EQ(b["y_inner"].as<std::string>(), "reflecting");
  EXPECT_EQ(b["y_outer"].as<std::string>(), "outflow");
  EXPECT_EQ(b["z"].as<std::string>(), "periodic");

  const Config again = config_from(c.effective);
  for (int d = 0; d < 3; ++d)
    for (int s = 0; s < 2; ++s) EXPECT_EQ(again.bc[d][s], c.bc[d][s]) << "axis " << d << " side " << s;
  EXPECT_EQ(again.bc[1][0], BoundaryKind::reflecting);

  // Faces that agree, given without their axis: the axis states them (not
  // the default they overrode).
  const Config faces = config_from(
      "mesh: {cells: [8, 8, 1]}\nboundaries: {x: outflow, y_inner: reflecting, y_outer: reflecting}\n"
      "time: {end: 0.1}\nproblem: {name: sedov}\n");
  const YAML::Node fb = YAML::Load(faces.effective)["boundaries"];
  EXPECT_EQ(fb["y"].as<std::string>(), "reflecting") << faces.effective;
  EXPECT_FALSE(fb["y_inner"] || fb["y_outer"]) << faces.effective;
  EXPECT_EQ(config_from(faces.effective).bc[1][1], BoundaryKind::reflecting);
}

// rk1 with PLM beyond forward Euler's TVD limit (Courant numbers summing
// to 1/2) runs, with a warning that names the key and the limit.
TEST(Config, ForwardEulerPastItsLimitWarns) {
  const std::string kh = read_config("kelvin_helmholtz.yaml");  // 2D, cfl 0.4
  const Config past = config_from(kh, {"time.integrator=rk1"});
  ASSERT_EQ(past.warnings.size(), 1u);
  EXPECT_NE(past.warnings[0].find("time.cfl"), std::string::npos) << past.warnings[0];
  EXPECT_NE(past.warnings[0].find("0.5 / 2 active axes = 0.25"), std::string::npos) << past.warnings[0];
  EXPECT_TRUE(config_from(kh, {"time.integrator=rk1", "time.cfl=0.25"}).warnings.empty());
  // PCM is within the limit: the one warning left is of the file's limiter, which PCM does not use.
  const Config pcm = config_from(kh, {"time.integrator=rk1", "solver.reconstruction=pcm"});
  ASSERT_EQ(pcm.warnings.size(), 1u);
  EXPECT_NE(pcm.warnings[0].find("solver.limiter: unused with reconstruction: pcm"), std::string::npos)
      << pcm.warnings[0];
  EXPECT_TRUE(config_from(kh).warnings.empty());
  EXPECT_TRUE(config_from(read_config("sod.yaml"), {"time.integrator=rk1", "time.cfl=0.45"}).warnings.empty());
}

// A key is given where its node is: a mapping given with --set gives the
// keys in it and keeps the section's others (it replaced the section, and
// the file's gamma fell back to its default without a word).
TEST(Config, KeysGivenAndKeysFromSet) {
  const std::string text =
      "mesh: {cells: [8, 1, 1]}\nboundaries: {x: outflow}\ntime: {end: 0.1}\nphysics: {gamma: 2}\nproblem: {name: sod}\n";
  const Config file = config_from(text);
  EXPECT_EQ(file.key_where.count("physics.gamma"), 1u);
  EXPECT_EQ(file.key_where.count("time.cfl"), 0u);  // its default
  EXPECT_FALSE(key_from_set(file, "physics.gamma"));
  EXPECT_NE(key_place(file, "time.cfl").find("(default)"), std::string::npos);

  const Config set = config_from(text, {"physics={mhd: true}", "time.cfl=0.25"});
  EXPECT_EQ(set.key_where.count("physics.gamma"), 1u);  // the file's gamma stays
  EXPECT_EQ(set.gamma, 2.0);
  EXPECT_TRUE(set.mhd);
  EXPECT_TRUE(key_from_set(set, "physics.mhd"));
  EXPECT_TRUE(key_from_set(set, "time.cfl"));
  EXPECT_FALSE(key_from_set(set, "time.end"));
  EXPECT_FALSE(key_from_set(set, "physics.gamma"));
  EXPECT_NE(key_place(set, "time.cfl").find("--set time.cfl"), std::string::npos) << key_place(set, "time.cfl");
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

// No process grid of 3 ranks splits 100 x 100: the message says which rank
// counts can (it suggested mesh.ranks, which cannot help, and mesh.cells,
// which a restart may not change).
TEST(Config, ImpossibleDecompositionNamesRankCountsThatSplit) {
  const std::string text =
      "mesh: {cells: [100, 100, 1]}\nboundaries: {x: outflow}\ntime: {end: 0.1}\nproblem: {name: sod}\n";
  try {
    parse_config(text, "<test>", {"output.enabled=false"}, 3);
    FAIL() << "3 ranks on 100 x 100 were accepted";
  } catch (const ConfigError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("mesh.cells: 3 ranks cannot split the grid 100x100x1"), std::string::npos) << m;
    EXPECT_NE(m.find("a rank count that can (1, 2, 4, 5, 8, 10, 16, 20, 25, ...)"), std::string::npos) << m;
    EXPECT_EQ(m.find("set mesh.ranks"), std::string::npos) << m;
  }
}

// Every file in configs/, as shipped and with the other solver family (the
// README says each runs with --set solver.family=fd; those that name an FV
// integrator need an FD one with it).
TEST(Config, EveryShippedConfigIsValid) {
  int files = 0;
  for (const auto& e : std::filesystem::directory_iterator(std::string(ASTRONOMIX_SOURCE_DIR) + "/configs")) {
    if (e.path().extension() != ".yaml") continue;
    const std::string f = e.path().filename().string(), text = read_config(f);
    ++files;
    EXPECT_NO_THROW(config_from(text)) << f;
    std::vector<std::string> fd = {"solver.family=fd"};
    for (const char* fv_only : {"integrator: rk1", "integrator: rk2", "integrator: vl2"})
      if (text.find(fv_only) != std::string::npos) fd.push_back("time.integrator=rk3");
    EXPECT_NO_THROW(config_from(text, fd)) << f << " with the fd family";
  }
  EXPECT_GE(files, 23);
}

// Every problem a config can name has its section in docs/problems.md (and
// is listed in its table).
TEST(Config, EveryProblemIsDocumented) {
  std::ifstream in(std::string(ASTRONOMIX_SOURCE_DIR) + "/docs/problems.md");
  std::stringstream doc;
  doc << in.rdbuf();
  ASSERT_FALSE(doc.str().empty());
  for (const std::string& name : problem_names()) {
    EXPECT_NE(doc.str().find("\n## " + name + "\n"), std::string::npos) << name << " has no section";
    EXPECT_NE(doc.str().find("| [`" + name + "`](#" + name + ") |"), std::string::npos) << name << " not in the table";
  }
  EXPECT_GE(problem_names().size(), 10u);
}

}  // namespace
}  // namespace ax::test
