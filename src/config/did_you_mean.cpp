#include <algorithm>
#include <cctype>
#include <vector>

#include "config/config_error.hpp"

namespace ax {

namespace {
std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t sub = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, sub});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

std::string lower(std::string s) {
  for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}
}  // namespace

// The candidate meant by a misspelt word: the same word in other case
// (HLLC), else the shortest candidate that holds it (rk4: lsrk4, not the
// nearer rk1), else one with its stem, else the nearest by edit distance if
// near enough.
std::string did_you_mean(const std::string& word_as_given, const std::string* begin, const std::string* end) {
  const std::string word = lower(word_as_given);
  for (auto it = begin; it != end; ++it)
    if (lower(*it) == word) return *it;
  std::string holder;
  if (word.size() >= 3)
    for (auto it = begin; it != end; ++it)
      if (lower(*it).find(word) != std::string::npos && (holder.empty() || it->size() < holder.size())) holder = *it;
  if (!holder.empty()) return holder;
  // The same stem with another ending (boundary: boundaries, three edits
  // from it): a common start of five letters or more that leaves at most
  // two of the word's.
  std::string stem;
  std::size_t stem_len = 0;
  for (auto it = begin; it != end; ++it) {
    const std::string c = lower(*it);
    std::size_t n = 0;
    while (n < word.size() && n < c.size() && word[n] == c[n]) ++n;
    if (n >= 5 && n + 2 >= word.size() && n > stem_len) {
      stem_len = n;
      stem = *it;
    }
  }
  if (!stem.empty()) return stem;
  std::string best;
  std::size_t best_d = std::max<std::size_t>(2, word.size() / 3) + 1;
  for (auto it = begin; it != end; ++it) {
    const std::size_t d = edit_distance(word, lower(*it));
    if (d < best_d) {
      best_d = d;
      best = *it;
    }
  }
  return best;
}

std::string athena_counterpart(const std::string& path, const std::string& key,
                               const std::vector<std::string>& known) {
  struct Name {
    const char* athena;
    const char* here;
  };
  // docs/athena.md: the athinput keys whose names differ here.
  static const Name names[] = {
      {"tlim", "time.end"}, {"nlim", "time.max_steps"}, {"cfl_number", "time.cfl"},
      {"xorder", "solver.reconstruction (1: pcm, 2: plm)"}, {"problem_id", "output.basename"},
      {"nx1", "mesh.cells"}, {"nx2", "mesh.cells"}, {"nx3", "mesh.cells"},
      {"x1min", "mesh.lower"}, {"x2min", "mesh.lower"}, {"x3min", "mesh.lower"},
      {"x1max", "mesh.upper"}, {"x2max", "mesh.upper"}, {"x3max", "mesh.upper"},
      {"ix1_bc", "boundaries.x_inner"}, {"ox1_bc", "boundaries.x_outer"}, {"ix2_bc", "boundaries.y_inner"},
      {"ox2_bc", "boundaries.y_outer"}, {"ix3_bc", "boundaries.z_inner"}, {"ox3_bc", "boundaries.z_outer"},
      {"dfloor", "physics.density_floor"}, {"pfloor", "physics.pressure_floor"},
      {"grav_acc1", "physics.gravity: [g1, g2, g3]"}, {"grav_acc2", "physics.gravity: [g1, g2, g3]"},
      {"grav_acc3", "physics.gravity: [g1, g2, g3]"}, {"ncycle_out", "output.progress_every"},
      {"file_type", "not needed (output writes HDF5 always; restart_dt for rst, history_every for hst)"},
      {"variable", "output.variables"}, {"hydro", "physics"}, {"job", "output"},
      {"meshblock", "mesh.ranks (one block per rank)"}};
  for (const Name& n : names)
    if (key == n.athena) return n.here;
  if (key.size() > 6 && key.compare(0, 6, "output") == 0 &&
      key.find_first_not_of("0123456789", 6) == std::string::npos)
    return "output";  // <output1>, <output2>, ...: one output section here
  // A problem's parameters, where this problem has the counterpart.
  if (path != "problem") return "";
  // The first whose key (`needs`) this problem has; `here` says what it is.
  struct ProblemName {
    const char* athena;
    const char* needs;  // a key of the problem, or two (a+b)
    const char* here;
  };
  static const ProblemName problem_names[] = {
      {"amp", "perturbation", "problem.perturbation"}, {"amp", "amplitude", "problem.amplitude"},
      {"drat", "density_ratio", "problem.density_ratio"}, {"prat", "pressure_ratio", "problem.pressure_ratio"},
      // kh.cpp's drat (iprob 1) is the layers' density; its drho_rho0
      // (iprob 4, the smooth set-up run here) is this contrast.
      {"drat", "density_contrast", "1 + problem.density_contrast (the density between the layers)"},
      {"drho_rho0", "density_contrast", "problem.density_contrast"},
      {"b0", "field", "problem.field"}, {"vflow", "flow_velocity", "problem.flow_velocity"},
      // blast.cpp's ambient state and field angle (degrees from x, in x-y);
      // field_loop.cpp's flow, radius and orientation; kh.cpp's variants.
      {"pamb", "pressure", "problem.pressure"}, {"damb", "density", "problem.density"},
      {"angle", "field+pressure_ratio", "problem.field: [b0 cos(angle), b0 sin(angle), 0]"},
      {"vflow", "velocity", "problem.velocity"}, {"rad", "radius", "problem.radius"},
      {"iprob", "radius+amplitude", "not needed (the loop lies in the x-y plane, as with iprob 1)"},
      {"iprob", "density_contrast", "not needed (the smooth shear layer, iprob 4, is the set-up)"},
      // shock_tube.cpp: sod's left_density, ..., the MHD tube's left: {density, ...}.
      {"dl", "left_density", "problem.left_density"}, {"pl", "left_pressure", "problem.left_pressure"},
      {"ul", "left_velocity", "problem.left_velocity"}, {"dr", "right_density", "problem.right_density"},
      {"pr", "right_pressure", "problem.right_pressure"}, {"ur", "right_velocity", "problem.right_velocity"},
      {"dl", "left", "problem.left.density"}, {"pl", "left", "problem.left.pressure"},
      {"ul", "left", "problem.left.velocity[0]"}, {"vl", "left", "problem.left.velocity[1]"},
      {"wl", "left", "problem.left.velocity[2]"}, {"bxl", "left", "problem.left.field[0]"},
      {"byl", "left", "problem.left.field[1]"}, {"bzl", "left", "problem.left.field[2]"},
      {"dr", "right", "problem.right.density"}, {"pr", "right", "problem.right.pressure"},
      {"ur", "right", "problem.right.velocity[0]"}, {"vr", "right", "problem.right.velocity[1]"},
      {"wr", "right", "problem.right.velocity[2]"}, {"bxr", "right", "problem.right.field[0]"},
      {"byr", "right", "problem.right.field[1]"}, {"bzr", "right", "problem.right.field[2]"},
      {"xshock", "position", "problem.position"},
      {"shock_dir", "direction", "problem.direction (x, y or z for 1, 2 or 3)"}};
  // `needs` may name two keys (a+b): both must be this problem's.
  auto has = [&](const std::string& k) { return std::find(known.begin(), known.end(), k) != known.end(); };
  for (const ProblemName& n : problem_names) {
    if (key != n.athena) continue;
    const std::string needs = n.needs;
    const std::size_t plus = needs.find('+');
    if (plus == std::string::npos ? has(needs) : has(needs.substr(0, plus)) && has(needs.substr(plus + 1)))
      return n.here;
  }
  return "";
}

}  // namespace ax
