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
// nearer rk1), else the nearest by edit distance if near enough.
std::string did_you_mean(const std::string& word_as_given, const std::string* begin, const std::string* end) {
  const std::string word = lower(word_as_given);
  for (auto it = begin; it != end; ++it)
    if (lower(*it) == word) return *it;
  std::string holder;
  if (word.size() >= 3)
    for (auto it = begin; it != end; ++it)
      if (lower(*it).find(word) != std::string::npos && (holder.empty() || it->size() < holder.size())) holder = *it;
  if (!holder.empty()) return holder;
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
  static const Name problem_names[] = {{"amp", "perturbation"}, {"amp", "amplitude"}, {"drat", "density_ratio"},
                                       {"prat", "pressure_ratio"}, {"drat", "density_contrast"},
                                       {"b0", "field"}, {"vflow", "flow_velocity"}};
  for (const Name& n : problem_names)
    if (key == n.athena && std::find(known.begin(), known.end(), n.here) != known.end())
      return std::string("problem.") + n.here;
  return "";
}

}  // namespace ax
