#include "config/config.hpp"

#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include <yaml-cpp/eventhandler.h>

#include "backend/comm.hpp"
#include "config/section.hpp"
#include "problems/problem.hpp"

namespace ax {

const char* to_string(Integrator i) {
  switch (i) {
    case Integrator::rk1: return "rk1";
    case Integrator::rk2: return "rk2";
    case Integrator::vl2: return "vl2";
    case Integrator::rk3: return "rk3";
    case Integrator::ssprk5_4: return "ssprk5_4";
    case Integrator::lsrk4: return "lsrk4";
  }
  return "?";
}
const char* to_string(WenoWeights w) { return w == WenoWeights::z ? "z" : "js"; }
const char* to_string(EigenAverage a) { return a == EigenAverage::roe ? "roe" : "arithmetic"; }
const char* to_string(Limiter l) {
  switch (l) {
    case Limiter::minmod: return "minmod";
    case Limiter::van_leer: return "van_leer";
    case Limiter::mc: return "mc";
    case Limiter::van_albada: return "van_albada";
    case Limiter::superbee: return "superbee";
  }
  return "?";
}
const char* to_string(MhdRiemannSolver r) {
  switch (r) {
    case MhdRiemannSolver::llf: return "llf";
    case MhdRiemannSolver::hlle: return "hlle";
    case MhdRiemannSolver::hlld: return "hlld";
  }
  return "?";
}

const char* to_string(CornerEmf e) { return e == CornerEmf::gs05 ? "gs05" : "uct_hlld"; }

const char* to_string(RiemannSolver r) {
  switch (r) {
    case RiemannSolver::llf: return "llf";
    case RiemannSolver::hlle: return "hlle";
    case RiemannSolver::hllc: return "hllc";
  }
  return "?";
}

namespace {

template <class E>
E pick(const std::string& s, std::initializer_list<std::pair<const char*, E>> table) {
  for (const auto& [name, value] : table)
    if (s == name) return value;
  return table.begin()->second;  // unreachable: the Section validated s
}

// The line of another code's input file's first block, where the text's
// first content line is a name between `open` and `close`; 0 for any other
// text. Athena++'s athinput (`<mesh>`) read as YAML is a scalar, Idefix's
// .ini (`[Grid]`; its `#` comments are YAML's too) a one-element list: both
// were refused with no line and no word of why.
int foreign_block_line(const std::string& text, char open, char close) {
  std::istringstream in(text);
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    const std::size_t a = line.find_first_not_of(" \t\r");
    if (a == std::string::npos || line[a] == '#') continue;
    const std::size_t b = line.find_last_not_of(" \t\r");
    if (line[a] != open || line[b] != close || b - a < 2) return 0;
    for (std::size_t i = a + 1; i < b; ++i)
      if (!std::isalnum(static_cast<unsigned char>(line[i])) && line[i] != '_') return 0;
    return n;
  }
  return 0;
}
int athinput_block_line(const std::string& text) { return foreign_block_line(text, '<', '>'); }
int idefix_block_line(const std::string& text) { return foreign_block_line(text, '[', ']'); }

// The line (from 1) where a second YAML document's content starts, or 0.
// Document markers stand at the start of a line: `---` starts a document
// (the first may open with one), `...` ends one; blank and comment lines are
// no content.
int second_document_line(const std::string& text) {
  bool content = false, ended = false;
  std::istringstream in(text);
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const auto is_marker = [&](const char* m) {
      return line.compare(0, 3, m) == 0 && (line.size() == 3 || line[3] == ' ' || line[3] == '\t');
    };
    std::string rest = line;
    if (is_marker("...")) {
      ended = ended || content;
      continue;
    }
    if (is_marker("---")) {
      ended = ended || content;
      rest = line.substr(3);
    }
    const std::size_t first = rest.find_first_not_of(" \t");
    if (first == std::string::npos || rest[first] == '#') continue;
    if (ended) return n;
    content = true;
  }
  return 0;
}

// Where text after the first YAML document's node starts, or a null mark.
// yaml-cpp's Load reads that node and drops the rest, so a config written
// as one flow mapping `{...}` with more lines after it, or `--set
// output.variables=[prim] cons`, lost that text without a word. A second
// document after `---` counts too (second_document_line names it first).
// The second HandleNextDocument alone: past it, some text (found by
// fuzzing) yields documents without end.
YAML::Mark trailing_text(const std::string& text) {
  struct FirstMark : YAML::EventHandler {
    YAML::Mark mark = YAML::Mark::null_mark();
    void at(const YAML::Mark& m) {
      if (mark.is_null()) mark = m;
    }
    void OnDocumentStart(const YAML::Mark&) override {}
    void OnDocumentEnd() override {}
    void OnNull(const YAML::Mark& m, YAML::anchor_t) override { at(m); }
    void OnAlias(const YAML::Mark& m, YAML::anchor_t) override { at(m); }
    void OnScalar(const YAML::Mark& m, const std::string&, YAML::anchor_t, const std::string&) override { at(m); }
    void OnSequenceStart(const YAML::Mark& m, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
      at(m);
    }
    void OnSequenceEnd() override {}
    void OnMapStart(const YAML::Mark& m, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
      at(m);
    }
    void OnMapEnd() override {}
  };
  std::istringstream in(text);
  YAML::Parser parser(in);
  FirstMark first, rest;
  try {
    parser.HandleNextDocument(first);
    if (!parser.HandleNextDocument(rest)) return YAML::Mark::null_mark();
  } catch (const YAML::Exception& e) {
    return e.mark;  // what follows the first node does not parse: text after it all the same
  }
  return rest.mark;
}

// Whether `node` is one of `nodes` (the same node, as aliases share it).
bool holds(const std::vector<YAML::Node>& nodes, const YAML::Node& node) {
  for (const auto& n : nodes)
    if (n.is(node)) return true;
  return false;
}

// yaml-cpp keeps the first of two equal keys silently; a repeated key is
// almost always a mistake, so reject it where it repeats. Keys must be
// names: yaml-cpp does not apply merge keys (<<), and a list, mapping or null
// as a key would be reported under an empty name. Aliases share nodes: each
// is checked once (nested aliases would multiply the walk), and an alias
// inside the node it names (`a: &a {b: *a}`, a crash) is refused.
void reject_duplicate_keys(const YAML::Node& node, const std::string& file, const std::string& path,
                           std::vector<YAML::Node>& inside, std::vector<YAML::Node>& done) {
  if (!node.IsMap() && !node.IsSequence()) return;
  if (holds(inside, node))
    throw ConfigError(file + ": " + (path.empty() ? "the top level" : path) + ": a YAML alias stands inside the " +
                      "node it names; expected a config without such a loop");
  if (holds(done, node)) return;
  inside.push_back(node);
  if (node.IsSequence()) {
    for (const auto& child : node) reject_duplicate_keys(child, file, path, inside, done);
  } else {
    auto place = [&](const YAML::Node& n) {
      const YAML::Mark m = n.Mark();
      return m.is_null() ? file + ": "
                         : file + ":" + std::to_string(m.line + 1) + ":" + std::to_string(m.column + 1) + ": ";
    };
    std::vector<std::pair<std::string, int>> seen;
    for (auto it = node.begin(); it != node.end(); ++it) {
      const std::string where = path.empty() ? "at the top level" : "in " + path;
      if (!it->first.IsScalar())
        throw ConfigError(place(it->first) + "a key " + where + " is " +
                          (it->first.IsNull() ? std::string("null") : it->first.IsSequence() ? "a list" : "a mapping") +
                          "; expected a name, such as cfl");
      const std::string key = it->first.Scalar();
      const std::string full = path.empty() ? key : path + "." + key;
      if (key == "<<" && it->first.Tag() != "!")
        throw ConfigError(place(it->first) + full + ": YAML merge keys (<<) are not supported; expected the keys " +
                          "written out in the section");
      for (const auto& [k, line] : seen) {
        if (k == key)
          throw ConfigError(place(it->first) + full + ": duplicate key (first given at line " + std::to_string(line) +
                            ")");
      }
      seen.emplace_back(key, it->first.Mark().line + 1);
      reject_duplicate_keys(it->second, file, full, inside, done);
    }
  }
  inside.pop_back();
  done.push_back(node);
}

void reject_duplicate_keys(const YAML::Node& node, const std::string& file, const std::string& path) {
  std::vector<YAML::Node> inside, done;
  reject_duplicate_keys(node, file, path, inside, done);
}

// A boundary axis written beside both of its faces in the file, with
// another value, sets neither face: the file contradicts itself, refused
// whatever --set then changes (read before the overrides). Redundant
// equal values pass.
void reject_axis_beside_faces(const YAML::Node& root, const std::string& file) {
  YAML::Node b;  // found by walking the map: yaml-cpp throws on a missing key's node
  for (auto it = root.begin(); it != root.end(); ++it)
    if (it->first.IsScalar() && it->first.Scalar() == "boundaries") b = it->second;
  if (!b.IsMap()) return;
  // The scalar value of key and where it is.
  auto scalar = [&b](const std::string& key, std::string* value, YAML::Mark* at) {
    for (auto it = b.begin(); it != b.end(); ++it)
      if (it->first.IsScalar() && it->first.Scalar() == key && it->second.IsScalar()) {
        *value = it->second.Scalar();
        *at = it->first.Mark();
        return true;
      }
    return false;
  };
  for (const char* axis : {"x", "y", "z"}) {
    const std::string a = axis, in = a + "_inner", out = a + "_outer";
    YAML::Mark m, unused;
    std::string v, vi, vo;
    if (!scalar(a, &v, &m) || !scalar(in, &vi, &unused) || !scalar(out, &vo, &unused)) continue;
    if (v == vi && v == vo) continue;
    const std::string place = file + ":" + std::to_string(m.line + 1) + ":" + std::to_string(m.column + 1) + ": ";
    throw ConfigError(place + "boundaries." + a + ": is " + v + ", but " + in + " and " + out + " are given too (" + vi +
                      ", " + vo + "), so it sets neither face; expected the axis or its two faces, not both");
  }
}

// How many places in the tree hold `node` itself (more than one: aliases);
// each map and list walked once (the tree has no loops: checked above).
int references(const YAML::Node& tree, const YAML::Node& node, std::vector<YAML::Node>& done) {
  if (holds(done, tree)) return 0;
  done.push_back(tree);
  int n = 0;
  auto child = [&](const YAML::Node& c) {
    n += c.is(node) ? 1 : 0;
    if (c.IsMap() || c.IsSequence()) n += references(c, node, done);
  };
  if (tree.IsMap())
    for (const auto& kv : tree) child(kv.second);
  else if (tree.IsSequence())
    for (const auto& c : tree) child(c);
  return n;
}

int references(const YAML::Node& root, const YAML::Node& node) {
  std::vector<YAML::Node> done;
  return references(root, node, done);
}

// Sets the node at `parts` to `value` for the override `text`. A mapping
// given for a section the tree has sets each of its keys (recursively) and
// keeps the section's others: `--set physics={mhd: true}` replaced the
// section, so the file's gamma silently fell back to its default.
void set_override_node(YAML::Node root, const std::vector<std::string>& parts, const YAML::Node& value,
                       const std::string& text, ConfigContext& ctx) {
  // The value's node is replaced, not assigned: assigning to a node that a
  // YAML alias (*name) shares changes every place the alias stands, so
  // `--set output.dt=...` also changed a `time.end` it was anchored to.
  YAML::Node section = root;
  for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
    YAML::Node next = section[parts[i]];
    if (next.IsDefined() && !next.IsNull() && !next.IsMap())
      throw ConfigError("command line (--set " + text + "): '" + parts[i] + "' is not a section");
    if (next.IsMap() && references(root, next) > 1)
      throw ConfigError("command line (--set " + text + "): '" + parts[i] + "' is a YAML alias of a section " +
                        "that stands elsewhere too, and --set would change both; expected the section written out");
    section.reset(next);  // rebinds; `=` would write into the node
  }
  const YAML::Node existing = section[parts.back()];
  // Null (--set physics=, or ~) would have emptied the section: its keys
  // back to their defaults, the file's values dropped without a word.
  if (value.IsNull() && (existing.IsMap() || parts.size() == 1)) {
    std::string path = parts[0];
    for (std::size_t i = 1; i < parts.size(); ++i) path += "." + parts[i];
    throw ConfigError("command line (--set " + text + "): no value; '" + path + "' is a section, and an empty " +
                      "value would drop its keys; expected keys one by one (--set " + path + ".KEY=VALUE) or a " +
                      "mapping (--set '" + path + "={KEY: VALUE}')");
  }
  if (value.IsMap() && value.size() == 0 && existing.IsMap())
    throw ConfigError("command line (--set " + text + "): an empty mapping would change nothing in this section; "
                      "expected key: value pairs (--set 'a.b={c: 1}') or keys one by one (--set a.b.c=1)");
  if (value.IsMap() && value.size() > 0 && existing.IsMap()) {
    for (auto it = value.begin(); it != value.end(); ++it) {
      if (!it->first.IsScalar() || it->first.Scalar().empty())
        throw ConfigError("command line (--set " + text + "): expected names as the mapping's keys");
      std::vector<std::string> sub = parts;
      sub.push_back(it->first.Scalar());
      set_override_node(root, sub, it->second, text, ctx);
    }
    return;
  }
  section.remove(parts.back());
  section[parts.back()] = value;
  std::string key = parts[0];
  for (std::size_t i = 1; i < parts.size(); ++i) key += "." + parts[i];
  ctx.overridden.insert(key);
}

// Applies "a.b.c=value" overrides to the parsed tree.
void apply_override(YAML::Node root, const std::string& text, ConfigContext& ctx) {
  const auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0)
    throw ConfigError("command line (--set " + text + "): expected key=value, e.g. --set time.cfl=0.3");
  // Spaces around the '=' (--set "time.cfl = 0.3") belong to neither side.
  auto trimmed = [](std::string s) {
    const std::size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t");
    return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
  };
  const std::string key = trimmed(text.substr(0, eq)), value = text.substr(eq + 1);
  if (key.empty())
    throw ConfigError("command line (--set " + text + "): expected key=value, e.g. --set time.cfl=0.3");
  std::vector<std::string> parts;
  std::stringstream ss(key);
  for (std::string p; std::getline(ss, p, '.');) {
    if (p.empty()) throw ConfigError("command line (--set " + text + "): empty key component in '" + key + "'");
    parts.push_back(p);
  }
  YAML::Node parsed;
  try {
    parsed = YAML::Load(value);
  } catch (const YAML::Exception& e) {
    const std::string hint = yaml_error_hint(e.msg, value);
    throw ConfigError("command line (--set " + text + "): cannot parse value '" + value + "': " + e.msg +
                      (hint.empty() ? "" : "; " + hint));
  }
  const YAML::Mark rest = trailing_text(value);
  if (!rest.is_null()) {
    const std::size_t at = std::min(value.size(), std::size_t(std::max(rest.pos, 0)));
    throw ConfigError("command line (--set " + text + "): text after the value ('" + value.substr(at) +
                      "'), which would not be read; expected one value (a list in brackets, e.g. [prim, cons]; " +
                      "quote the whole --set for the shell where it holds spaces)");
  }
  reject_duplicate_keys(parsed, "command line (--set " + text + ")", key);
  set_override_node(root, parts, parsed, text, ctx);
}

const char* boundary_name(BoundaryKind k) {
  return k == BoundaryKind::periodic ? "periodic" : k == BoundaryKind::outflow ? "outflow" : "reflecting";
}

BoundaryKind boundary(Section& b, const std::string& axis, const std::string& side,
                      const std::string& both) {
  static const std::vector<std::string> kinds = {"periodic", "outflow", "reflecting"};
  const std::string k = b.choice(axis + "_" + side, both, kinds);
  return pick<BoundaryKind>(k, {{"periodic", BoundaryKind::periodic},
                                {"outflow", BoundaryKind::outflow},
                                {"reflecting", BoundaryKind::reflecting}});
}

// For `check`, which writes nothing: the directory, or else the nearest
// folder on its path that exists, must be a directory this process may
// write into.
void check_output_dir_creatable(Section& out, const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path p = fs::absolute(dir, ec);
  if (ec) out.fail("directory", "cannot create output directory '" + dir + "': " + ec.message());
  while (!fs::exists(p, ec) && p.has_parent_path() && p != p.parent_path()) p = p.parent_path();
  if (!fs::is_directory(p, ec))
    out.fail("directory", "cannot create output directory '" + dir + "': " + p.string() + " is not a directory");
  if (::access(p.c_str(), W_OK | X_OK) != 0)
    out.fail("directory", "cannot create output directory '" + dir + "': " + p.string() + ": " + std::strerror(errno));
  // access() lets root through where mkdir fails (/proc): as root, make a
  // folder there as the run would, and remove it at once (others rely on
  // access(), sparing a parallel file system a probe per rank).
  if (::geteuid() == 0) {
    std::string probe = (p / ".astronomix_check_XXXXXX").string();
    if (!::mkdtemp(probe.data()))
      out.fail("directory", "cannot create output directory '" + dir + "': making a folder in " + p.string() +
                                " failed (" + std::strerror(errno) + ")");
    ::rmdir(probe.c_str());
  }
}

// Creates `dir` and probes that files can be made there; `fail(message)`
// throws.
template <class Fail>
void make_output_dir(const std::string& dir, const Fail& fail) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) fail("cannot create output directory '" + dir + "': " + ec.message());
  // Probe that files can be created there; remove the probe at once.
  const fs::path probe = fs::path(dir) / (".astronomix_probe_" + std::to_string(::getpid()));
  {
    std::ofstream f(probe);
    if (!f) fail("output directory '" + dir + "' is not writable");
  }
  fs::remove(probe, ec);
}

void check_output_dir(Section& out, const std::string& dir) {
  make_output_dir(dir, [&](const std::string& msg) { out.fail("directory", msg); });
}

Config parse(YAML::Node root, const std::shared_ptr<ConfigContext>& ctx, int nranks, OutputDir output_dir) {
  Config c;
  c.file = ctx->file;
  if (!root.IsMap()) throw ConfigError(ctx->file + ": expected a mapping of sections (mesh, time, ...) at the top level");
  Section top(root, "", ctx);
  // A misspelt section (`boundary:`) named first: the defaults its absence
  // brings gave other errors first (a tube meeting itself at a periodic seam).
  top.reject_unknown({"mesh", "boundaries", "time", "physics", "solver", "problem", "output"});

  // The solver first: the ghost depth, the integrator and the CFL number
  // depend on its family.
  Section phys = top.section("physics", false);
  c.mhd = phys.boolean("mhd", false);
  Section solver = top.section("solver", false);
  c.family = solver.choice("family", "fv", {"fv", "fd"});
  const bool fd = c.family == "fd";
  c.ghost = fd ? (c.mhd ? kFdMhdGhost : kFdGhost) : kFvGhost;
  // The other family's options are validated if present (a typo fails
  // either way) but not used: the run header names the scheme that runs.
  // Defaults are recorded for the chosen family only.
  auto option = [&](bool of_fd, const std::string& key, const std::string& def,
                    const std::vector<std::string>& allowed) {
    return of_fd == fd || solver.present(key) ? solver.choice(key, def, allowed) : def;
  };
  c.order = option(false, "reconstruction", "plm", {"plm", "pcm"}) == "plm" ? 2 : 1;
  c.fv.limiter = pick<Limiter>(
      option(false, "limiter", "van_leer", {"minmod", "van_leer", "mc", "van_albada", "superbee"}),
      {{"minmod", Limiter::minmod}, {"van_leer", Limiter::van_leer}, {"mc", Limiter::mc},
       {"van_albada", Limiter::van_albada}, {"superbee", Limiter::superbee}});
  // One key for both equation sets: hllc is hydro's, hlld MHD's.
  const std::string riemann =
      option(false, "riemann", c.mhd ? "hlld" : "hllc", {"llf", "hlle", "hllc", "hlld"});
  if (c.mhd && riemann == "hllc")
    solver.fail("riemann", "hllc is a hydrodynamics solver; with physics.mhd: true expected one of: llf, hlle, hlld");
  if (!c.mhd && riemann == "hlld" && !fd)
    solver.fail("riemann", "hlld is an MHD solver and needs physics.mhd: true; expected one of: llf, hlle, hllc");
  c.fv.riemann = riemann == "llf" ? RiemannSolver::llf : riemann == "hlle" ? RiemannSolver::hlle : RiemannSolver::hllc;
  c.fv.mhd_riemann = riemann == "llf"    ? MhdRiemannSolver::llf
                     : riemann == "hlle" ? MhdRiemannSolver::hlle
                                         : MhdRiemannSolver::hlld;
  // Stated for FV MHD only, as the other family's options (option()): FD
  // MHD checkpoints that stated it warned of it on every continuation.
  c.fv.corner_emf = pick<CornerEmf>((c.mhd && !fd) || solver.present("corner_emf")
                                        ? solver.choice("corner_emf", "gs05", {"gs05", "uct_hlld"})
                                        : "gs05",
                                    {{"gs05", CornerEmf::gs05}, {"uct_hlld", CornerEmf::uct_hlld}});
  c.fd.weights = pick<WenoWeights>(option(true, "weno", "js", {"js", "z"}),
                                   {{"js", WenoWeights::js}, {"z", WenoWeights::z}});
  // The weights square 1 / (epsilon + IS): in float epsilon below ~1e-19
  // would overflow in smooth regions.
  if (fd || solver.present("weno_epsilon"))
    c.fd.epsilon = Real(solver.real("weno_epsilon", 1e-7, sizeof(Real) == 8 ? 1e-30 : 1e-15, 1));
  if (c.mhd && fd && solver.present("eigen_average") && solver.choice("eigen_average", "arithmetic", {"arithmetic", "roe"}) == "roe")
    solver.fail("eigen_average", "roe averages are for hydrodynamics; FD MHD evaluates its eigenvectors at the "
                                 "arithmetic mean (expected arithmetic)");
  // FD MHD's face-field filter (docs/fd_mhd.md "Field filter"); its bound
  // with the CFL number is checked once that is known.
  double field_filter = 0;  // as given: the bound below is checked on it, not on a float's rounding
  if ((c.mhd && fd) || solver.present("field_filter")) {
    field_filter = solver.real("field_filter", 0.02, 0, 0.05);
    c.fd.field_filter = Real(field_filter);
  }
  // Options given where they do nothing, said (as the other family's below).
  if (!fd && !c.mhd && solver.present("corner_emf"))
    c.warnings.push_back(solver.where("corner_emf") + ": the edge EMFs of MHD's constrained transport, unused with "
                         "physics.mhd: false");
  if (!fd && c.order == 1 && solver.present("limiter"))
    c.warnings.push_back(solver.where("limiter") + ": unused with reconstruction: pcm (first order: no slopes to "
                         "limit)");
  if (fd && !c.mhd && solver.present("field_filter"))
    c.warnings.push_back(solver.where("field_filter") + ": the filter of FD MHD's face field, unused with "
                         "physics.mhd: false");
  c.fd.average = pick<EigenAverage>(option(true, "eigen_average", "arithmetic", {"arithmetic", "roe"}),
                                    {{"arithmetic", EigenAverage::arithmetic}, {"roe", EigenAverage::roe}});
  c.backend = pick<Backend>(solver.choice("backend", "auto", {"auto", "native", "fused"}),
                            {{"auto", Backend::automatic}, {"native", Backend::native},
                             {"fused", Backend::fused}});
  // Tuning knob of the fused kernels: FV auto takes sweeps on CPUs and
  // tiles on GPUs (measured); FD MHD sweeps = pencils, tiles = segments
  // (auto: segments on GPUs); FD hydro tiles = segments, else faces; FD
  // takes cells as auto (fd_fused_layout).
  c.fused_layout = pick<FusedLayout>(solver.choice("fused_layout", "auto", {"auto", "cells", "sweeps", "tiles"}),
                                     {{"auto", FusedLayout::automatic}, {"cells", FusedLayout::cells},
                                      {"sweeps", FusedLayout::sweeps}, {"tiles", FusedLayout::tiles}});
  if (c.backend == Backend::native && solver.present("fused_layout"))
    c.warnings.push_back(solver.where("fused_layout") + ": a layout of the fused kernels, unused with backend: "
                         "native");
  // The other family's keys, given: checked above, unused, and said so (a
  // corner_emf: uct_hlld under FD ran the FD scheme without a word).
  {
    const std::vector<std::string> other = fd ? std::vector<std::string>{"reconstruction", "limiter", "riemann",
                                                                         "corner_emf"}
                                              : std::vector<std::string>{"weno", "weno_epsilon", "eigen_average",
                                                                         "field_filter"};
    std::string also, first;
    for (const std::string& k : other)
      if (solver.present(k)) {
        if (first.empty()) first = k;
        else also += (also.empty() ? " (also solver." : ", solver.") + k;
      }
    if (!first.empty())
      c.warnings.push_back(solver.where(first) + ": " + (fd ? "a finite-volume" : "a finite-difference") +
                           " option" + (also.empty() ? "" : also + ")") + ", unused by solver.family " + c.family +
                           " (" + (fd ? "WENO5 with Lax-Friedrichs splitting" : "PLM with a Riemann solver") + ")");
  }

  Section mesh = top.section("mesh", true);
  const auto cells = mesh.integers("cells", 3, std::nullopt, 1, 1 << 20);
  c.cells_where = mesh.where("cells");
  const auto lower = mesh.reals("lower", 3, std::vector<double>{0, 0, 0});
  const auto upper = mesh.reals("upper", 3, std::vector<double>{1, 1, 1});
  const auto ranks = mesh.integers("ranks", 3, std::vector<long long>{0, 0, 0}, 0, 1 << 20);
  c.gpu_aware_mpi = mesh.boolean("gpu_aware_mpi", false);
  c.overlap_exchange = mesh.boolean("overlap_exchange", true);
  for (int d = 0; d < 3; ++d) {
    c.nx[d] = int(cells[d]);
    c.xmin[d] = lower[d];
    c.xmax[d] = upper[d];
    if (!(upper[d] > lower[d])) {
      char got[128];
      std::snprintf(got, sizeof(got), "mesh.upper = %.17g <= mesh.lower = %.17g on axis %c", upper[d], lower[d],
                    "xyz"[d]);
      // Blamed on the key given on the command line, if one of the two was,
      // else on the one given where the other was left to its default.
      const bool lower_set = mesh.set_on_command_line("lower") ||
                             (!mesh.set_on_command_line("upper") && mesh.present("lower") && !mesh.present("upper"));
      mesh.fail(lower_set ? "lower" : "upper", std::string("expected upper > lower on every axis, got ") + got);
    }
    // Cell sizes and centres come from upper - lower, which must be a number.
    if (!std::isfinite(upper[d] - lower[d]) || (upper[d] - lower[d]) / double(cells[d]) == 0) {
      char got[128];
      std::snprintf(got, sizeof(got), "%.17g .. %.17g on axis %c over %lld cells", lower[d], upper[d], "xyz"[d],
                    cells[d]);
      mesh.fail(mesh.set_on_command_line("lower") ? "lower" : "upper",
                std::string("expected a width (upper - lower) and cell size a double can hold, got ") + got);
    }
  }
  // A grid of one cell has no axis to evolve along (its CFL step is
  // infinite): problems then blamed their own keys for it.
  if (cells[0] == 1 && cells[1] == 1 && cells[2] == 1)
    mesh.fail("cells", "expected at least one axis with more than one cell (an active axis), got [1, 1, 1]");
  // Sizes in bytes are 64-bit integers: 2^40 cells (a 10240^3 grid) keeps
  // every array's size far from overflow, and is more than any machine holds.
  const double total_cells = double(cells[0]) * double(cells[1]) * double(cells[2]);
  if (total_cells > 0x1p40) {
    char got[96];
    std::snprintf(got, sizeof(got), "%.4g", total_cells);
    mesh.fail("cells", std::string("expected at most 2^40 (1.1e12) cells in all, got ") + got);
  }
  if (ranks[0] || ranks[1] || ranks[2]) {
    long long prod = 1;
    for (int d = 0; d < 3; ++d) {
      if (ranks[d] == 0) mesh.fail("ranks", "expected all three entries > 0 (or all 0 for automatic)");
      prod *= ranks[d];
      if (c.nx[d] % ranks[d])
        mesh.fail("ranks", std::string("axis ") + "xyz"[d] + ": " + std::to_string(c.nx[d]) +
                               " cells do not split evenly over " + std::to_string(ranks[d]) + " ranks");
      if (c.nx[d] > 1 && c.nx[d] / ranks[d] < c.ghost)
        mesh.fail("ranks", std::string("axis ") + "xyz"[d] + ": blocks of " + std::to_string(c.nx[d] / ranks[d]) +
                               " cells are thinner than the " + std::to_string(c.ghost) + " ghost cells the solver needs");
      c.dims[d] = int(ranks[d]);
    }
    if (prod != nranks)
      mesh.fail("ranks", "the process grid has " + std::to_string(prod) + " ranks but the run has " +
                             std::to_string(nranks));
  } else {
    // An axis thinner than the ghost zones fits no rank count: said as such
    // (it read "1 ranks cannot split the grid" on one rank).
    for (int d = 0; d < 3; ++d)
      if (c.nx[d] > 1 && c.nx[d] < c.ghost)
        mesh.fail("cells", std::string("axis ") + "xyz"[d] + " has " + std::to_string(c.nx[d]) + " cells; the " +
                               (fd ? (c.mhd ? "FD MHD" : "FD WENO5") : "finite-volume") + " stencil needs " +
                               std::to_string(c.ghost) + " ghost cells, so expected at least " +
                               std::to_string(c.ghost) + " cells on an axis (or 1, an axis the run leaves out)");
    std::string why;
    if (!choose_dims(nranks, c.nx, c.ghost, c.dims, &why)) {
      // mesh.ranks cannot help (choose_dims tried every process grid); say
      // which rank counts can, since a restart may not change mesh.cells.
      std::string counts;
      int shown = 0;
      int dims[3];
      for (int n = 1; n <= 4 * nranks + 16 && shown < 12; ++n)
        if (choose_dims(n, c.nx, c.ghost, dims, nullptr)) counts += (shown++ ? ", " : "") + std::to_string(n);
      mesh.fail("cells", why + "; expected a rank count that can" + (counts.empty() ? "" : " (" + counts + ", ...)") +
                             ", or mesh.cells that split over " + std::to_string(nranks) +
                             " ranks (a run continued from a checkpoint keeps its mesh.cells)");
    }
  }
  mesh.finish();

  Section bnd = top.section("boundaries", false);
  for (int d = 0; d < 3; ++d) {
    const std::string axis(1, "xyz"[d]);
    const std::string both = bnd.choice(axis, "periodic", {"periodic", "outflow", "reflecting"});
    c.bc[d][0] = boundary(bnd, axis, "inner", both);
    c.bc[d][1] = boundary(bnd, axis, "outer", both);
    // The faces win over their axis. An axis given with --set where both
    // faces are given would change nothing, silently: refused (and one
    // beside both faces in the file, by reject_axis_beside_faces). Faces
    // given with --set over a file's axis are an override, as meant.
    // (The axis itself given: a --set mapping of the whole section counts
    // as setting every key under it, the faces-only one too.)
    if (bnd.has(axis) && bnd.set_on_command_line(axis) && bnd.has(axis + "_inner") && bnd.has(axis + "_outer") &&
        (boundary_name(c.bc[d][0]) != both || boundary_name(c.bc[d][1]) != both))
      bnd.fail(axis, "is " + both + ", but " + axis + "_inner and " + axis + "_outer are given too (" +
                         boundary_name(c.bc[d][0]) + ", " + boundary_name(c.bc[d][1]) + "), so it sets neither face; " +
                         "expected --set " + axis + "_inner and " + axis + "_outer instead");
    if ((c.bc[d][0] == BoundaryKind::periodic) != (c.bc[d][1] == BoundaryKind::periodic)) {
      const std::string key = bnd.has(axis + "_inner") ? axis + "_inner"
                              : bnd.has(axis + "_outer") ? axis + "_outer" : axis;
      bnd.fail(key, "a periodic axis must be periodic on both faces (inner and outer)");
    }
    // The resolved config states each axis once: `y: outflow` where both
    // faces agree, else y_inner and y_outer alone (`y` would be the default
    // the faces overrode).
    if (c.bc[d][0] == c.bc[d][1]) {
      bnd.restate(axis, boundary_name(c.bc[d][0]));  // y_inner and y_outer may have overridden y's default
      bnd.forget(axis + "_inner");
      bnd.forget(axis + "_outer");
    } else {
      bnd.forget(axis);
    }
  }
  bnd.finish();

  Section time = top.section("time", true);
  c.t_end = time.real("end", std::nullopt, 0, 1e300, true);
  c.max_steps = time.integer("max_steps", -1, -1, 1LL << 62);
  // Defaults: Athena++'s VL2 for FV; SSP-RK(5,4) for FD, as astronomix.
  const std::string integ =
      time.choice("integrator", fd ? "ssprk5_4" : "vl2", {"rk1", "rk2", "vl2", "rk3", "ssprk5_4", "lsrk4"});
  c.integrator = pick<Integrator>(integ, {{"rk1", Integrator::rk1}, {"rk2", Integrator::rk2},
                                          {"vl2", Integrator::vl2}, {"rk3", Integrator::rk3},
                                          {"ssprk5_4", Integrator::ssprk5_4}, {"lsrk4", Integrator::lsrk4}});
  if (fd && (integ == "rk1" || integ == "rk2" || integ == "vl2"))
    time.fail("integrator", "'" + integ + "' is not stable with solver.family: fd (WENO5 needs a third- or "
                            "fourth-order Runge-Kutta); expected rk3, ssprk5_4 or lsrk4");
  if (!fd && (integ == "ssprk5_4" || integ == "lsrk4"))
    time.fail("integrator", "'" + integ + "' is available with solver.family: fd only; the fv family takes "
                            "rk1, rk2, vl2 or rk3");
  // FD's CFL number is relative to the sum of the per-axis signal speeds
  // (so 1D and 3D runs mean the same); the defaults sit below each
  // integrator's stability limit with WENO5 (SSP-RK(5,4): SSP coefficient 1.508).
  double cfl_default = 0.3, cfl_max = 1.0;
  if (fd) {
    cfl_default = c.integrator == Integrator::ssprk5_4 ? 1.5 : c.integrator == Integrator::lsrk4 ? 1.0 : 0.8;
    cfl_max = c.integrator == Integrator::ssprk5_4 ? 1.6 : 1.4;
  }
  c.cfl = time.real("cfl", cfl_default, 0, cfl_max, true);
  // The field filter's fastest mode (the checkerboard in 3D) decays by
  // about 30 field_filter cfl a step: kept to about 1, well inside every
  // FD integrator's stable range. 1D runs are not filtered.
  const int filtered_axes = (c.nx[0] > 1) + (c.nx[1] > 1) + (c.nx[2] > 1);
  if (fd && c.mhd && filtered_axes >= 2 && field_filter * c.cfl > kMaxFieldFilterTimesCfl * (1 + 1e-9)) {
    // The largest value allowed, rounded down so that it is itself allowed.
    const double most = std::floor(kMaxFieldFilterTimesCfl / c.cfl * 1e6) / 1e6;
    std::ostringstream m;
    m << "is " << field_filter << " with time.cfl " << c.cfl << ", and field_filter x cfl may be at most "
      << kMaxFieldFilterTimesCfl << " (beyond, the filter's fastest mode leaves the integrator's stable range): "
      << "expected at most " << most;
    solver.fail("field_filter", m.str());
  }
  // Forward Euler keeps limited PLM slopes TVD only while the Courant
  // numbers of the active axes sum to 1/2; beyond, smooth flow grows
  // oscillations (a 2D Kelvin-Helmholtz run at 0.4 lost a quarter of its
  // least density). Allowed, as in Athena++, but said.
  const int active = (c.nx[0] > 1) + (c.nx[1] > 1) + (c.nx[2] > 1);
  if (!fd && c.integrator == Integrator::rk1 && c.order == 2 && c.cfl > 0.5 / active + 1e-12) {
    std::ostringstream w;
    w << (time.has("cfl") ? time.where("cfl") : c.file + ": time.cfl (default)") << ": " << c.cfl
      << " with time.integrator rk1 and reconstruction plm is above forward Euler's limit for limited slopes, 0.5 / "
      << active << " active axes = " << 0.5 / active << "; expect growing oscillations"
      << (c.cfl <= 0.5 ? " (vl2, rk2 and rk3 are stable at this cfl)" : "");
    c.warnings.push_back(w.str());
  }
  // The unsplit FV schemes in 2D and 3D are stable to 0.5 (Athena++ long
  // refused more there); above it a run goes on with oscillations that hit
  // the floors (Orszag-Tang 64^2 at 0.9: 734 hits, at 0.45 none).
  if (!fd && c.integrator != Integrator::rk1 && active >= 2 && c.cfl > 0.5 + 1e-12) {
    std::ostringstream w;
    w << time.where("cfl") << ": " << c.cfl << " is above 0.5, the stability limit of the " << active
      << "D finite-volume schemes; expect oscillations and floor hits";
    c.warnings.push_back(w.str());
  }
  // A config written for FV switched to FD on the command line keeps its
  // FV CFL number: said, as FD's default takes several times fewer steps.
  if (fd && solver.set_on_command_line("family") && time.has("cfl") && !time.set_on_command_line("cfl") &&
      c.cfl < cfl_default) {
    std::ostringstream w;
    w << time.where("cfl") << ": " << c.cfl << ", this file's value (for its finite-volume solver), is kept though "
      << "--set solver.family=fd changed the solver; FD's default with this integrator is " << cfl_default << " ("
      << cfl_default / c.cfl << "x fewer steps): --set time.cfl=" << cfl_default;
    c.warnings.push_back(w.str());
  }
  time.finish();

  c.gamma = phys.real("gamma", 5.0 / 3.0, -1e300, 1e300);
  c.eos = IdealGas(Real(c.gamma));
  if (c.gamma <= 1) {
    std::ostringstream got;  // 0.9 as given, not std::to_string's 0.900000
    got << c.gamma;
    phys.fail("gamma", "expected a number > 1 (ratio of specific heats), got " + got.str());
  }
  c.density_floor = phys.real("density_floor", 1e-10, 0, 1e300);
  c.pressure_floor = phys.real("pressure_floor", 1e-13, 0, 1e300);
  // Athena++'s grav_acc1..3. A component along an axis of one cell would
  // only accelerate the whole grid along it: a mistake, not a set-up.
  const auto grav = phys.reals("gravity", 3, std::vector<double>{0, 0, 0});
  for (int d = 0; d < 3; ++d) {
    if (grav[d] != 0 && c.nx[d] == 1) {
      std::ostringstream got;
      got << grav[d];
      phys.fail("gravity", std::string("component ") + "xyz"[d] + " is " + got.str() + " but mesh.cells[" +
                               std::to_string(d) + "] is 1: expected 0 along an axis of one cell");
    }
    c.gravity[d] = Real(grav[d]);
  }
  phys.finish();

  // Whether `fused` is available is the families' predicates' to say: the
  // driver asks them (driver/solver_factory.hpp) before `check` prints or
  // `run` allocates, and names this key.
  c.backend_where = solver.where("backend");
  // Both families' keys, whichever this run reads (a typo of either gets
  // its suggestion).
  solver.also_known({"reconstruction", "limiter", "riemann", "corner_emf", "weno", "weno_epsilon", "eigen_average",
                     "field_filter"});
  solver.finish();


  Section out = top.section("output", false);
  c.out_dir = out.text("directory", "output");
  c.basename = out.text("basename", "snapshot");
  const auto blank_at_end = [](const std::string& t) {
    return t.empty() || std::isspace((unsigned char)t.front()) || std::isspace((unsigned char)t.back());
  };
  if (c.basename.find('/') != std::string::npos || c.basename.front() == '.' || blank_at_end(c.basename))
    out.fail("basename", "expected a file name without '/', not starting with '.' and without spaces at either "
                         "end, got '" + c.basename + "'");
  // A folder name YAML took literally where a shell would not have: '~' is
  // not expanded, and a name of spaces is almost surely a slip.
  if (c.out_dir.empty() || c.out_dir.front() == '~' || blank_at_end(c.out_dir))
    out.fail("directory", "expected a folder path without spaces at either end and not starting with '~' (which "
                          "only a shell expands: write the path out, e.g. $HOME's), got '" + c.out_dir + "'");
  c.out_dt = out.real("dt", 0.0, 0, 1e300);
  c.out_every = out.integer("every_steps", 0, 0, 1LL << 62);
  c.out_vars = out.choices("variables", std::vector<std::string>{"prim"}, {"prim", "cons"});
  c.history_every = out.integer("history_every", 1, 0, 1LL << 62);
  c.progress_every = out.integer("progress_every", 10, 0, 1LL << 62);
  c.write_files = out.boolean("enabled", true);
  // "sequential" writes rank by rank, as a serial-HDF5 build must; parallel
  // HDF5 builds can choose it where MPI-IO is slow or broken.
  c.sequential_io = out.choice("hdf5_mode", "auto", {"auto", "sequential"}) == "sequential";
  // Checkpoints for `astronomix run --restart` (io/restart.hpp).
  c.restart_dt = Real(out.real("restart_dt", 0.0, 0, 1e300));
  c.restart_every_steps = out.integer("restart_every_steps", 0, 0, 1LL << 62);
  c.restart_at_end = out.boolean("restart_at_end", true);
  out.finish();
  // yt's Athena++ reader takes the dimensions in Athena++'s order (1D
  // along x, 2D in x-y): with one cell along y it reads a snapshot as 1D
  // along x, silently (a z-only run as one cell). The files are whole.
  if (c.write_files && c.nx[1] == 1 && c.nx[2] > 1)
    c.warnings.push_back(c.cells_where + ": " + (c.nx[0] > 1 ? "an x-z" : "a z-only") +
                         " mesh, which yt's Athena++ reader takes as 1D along x (it reads " +
                         (c.nx[0] > 1 ? "the first x row" : "one cell") +
                         " of each snapshot); ParaView (the .xdmf) and h5py read it whole; for yt put the active "
                         "axes first (x, or x-y)");

  Section prob = top.section("problem", true);
  c.problem_name = prob.choice("name", std::nullopt, problem_names());
  c.key_where = ctx->where;  // the keys given so far, for problems whose defaults depend on them
  c.keys_from_set = ctx->from_set;
  c.problem = make_problem(c.problem_name, prob, c);
  prob.finish();

  top.finish();
  if (c.write_files) {
    if (output_dir == OutputDir::create) check_output_dir(out, c.out_dir);
    else check_output_dir_creatable(out, c.out_dir);
  }

  YAML::Emitter em;
  em << ctx->effective;
  c.effective = em.c_str();
  c.key_where = ctx->where;
  c.keys_from_set = ctx->from_set;
  return c;
}

}  // namespace

namespace {

Config parse_text(const std::string& yaml_text, const std::string& name, bool positions,
                  const std::vector<std::string>& overrides, int nranks, OutputDir output_dir) {
  auto ctx = std::make_shared<ConfigContext>();
  ctx->file = name;
  ctx->positions = positions;
  YAML::Node root;
  if (const int line = athinput_block_line(yaml_text))
    throw ConfigError(name + ":" + std::to_string(line) + ":1: an Athena++ input file (<block> and key = value " +
                      "lines); expected YAML: each block is a section of key: value lines, e.g. <time> tlim = 1 " +
                      "is time: {end: 1} (docs/athena.md maps the names)");
  if (const int line = idefix_block_line(yaml_text))
    throw ConfigError(name + ":" + std::to_string(line) + ":1: an Idefix input file ([Block] and key value " +
                      "lines); expected YAML: sections of key: value lines, e.g. [TimeIntegrator] tstop 1 is " +
                      "time: {end: 1} (README.md lists the sections and keys)");
  try {
    // yaml-cpp's Load reads the first document and drops the rest, so keys
    // after a `---` or `...` were silently not read. Not LoadAll: on some
    // malformed text (found by fuzzing) it makes documents without end.
    root = YAML::Load(yaml_text);
    if (const int line = second_document_line(yaml_text))
      throw ConfigError(name + ":" + std::to_string(line) + ":1: a second YAML document (after '---' or '...'), " +
                        "which would not be read; expected one document, the whole config in it");
    const YAML::Mark rest = trailing_text(yaml_text);
    if (!rest.is_null())
      throw ConfigError(name + ":" + std::to_string(rest.line + 1) + ":" + std::to_string(rest.column + 1) +
                        ": text after the config's top-level node ends, which would not be read; expected the " +
                        "whole config in one mapping (a flow mapping {...} ends at its closing brace; write the " +
                        "sections as key: value lines, or all inside the braces)");
  } catch (const YAML::Exception& e) {
    std::ostringstream os;
    os << name;
    if (!e.mark.is_null()) os << ":" << e.mark.line + 1 << ":" << e.mark.column + 1;
    os << ": invalid YAML: " << e.msg;
    std::string line_text, line_before;
    if (!e.mark.is_null()) {
      std::istringstream in(yaml_text);
      for (int n = 0; n <= e.mark.line && std::getline(in, n == e.mark.line ? line_text : line_before);) ++n;
    }
    const std::string hint = yaml_error_hint(e.msg, line_text, line_before);
    if (!hint.empty()) os << "; " << hint;
    throw ConfigError(os.str());
  }
  if (!root.IsDefined() || root.IsNull()) root = YAML::Node(YAML::NodeType::Map);
  // Before the overrides, which index the top level (found by fuzzing: a
  // file holding a single scalar made yaml-cpp throw on --set).
  if (!root.IsMap()) {
    const YAML::Mark m = root.Mark();
    const std::string at = m.is_null() ? "" : ":" + std::to_string(m.line + 1) + ":" + std::to_string(m.column + 1);
    throw ConfigError(name + at + ": expected a mapping of sections (mesh, time, ...) at the top level, got " +
                      (root.IsSequence() ? "a list" : "a single value"));
  }
  reject_duplicate_keys(root, name, "");
  if (positions) reject_axis_beside_faces(root, name);  // a file, not a checkpoint's stored config
  for (const auto& o : overrides) apply_override(root, o, *ctx);
  Config c = parse(root, ctx, nranks, output_dir);
  c.sets = overrides;
  return c;
}

}  // namespace

Config parse_config(const std::string& yaml_text, const std::string& name,
                    const std::vector<std::string>& overrides, int nranks, OutputDir output_dir) {
  return parse_text(yaml_text, name, true, overrides, nranks, output_dir);
}

Config parse_stored_config(const std::string& yaml_text, const std::string& checkpoint,
                           const std::vector<std::string>& overrides, int nranks, OutputDir output_dir) {
  Config c = parse_text(yaml_text, checkpoint + " (its stored config; change a key with --set)", false, overrides,
                        nranks, output_dir);
  c.from_checkpoint = true;
  c.path = checkpoint;
  return c;
}

Config load_config(const std::string& file, const std::vector<std::string>& overrides, int nranks,
                   OutputDir output_dir) {
  std::error_code ec;
  if (std::filesystem::is_directory(file, ec))
    throw ConfigError(file + ": cannot read the config file (it is a directory)");
  std::ifstream in(file, std::ios::binary);
  if (!in) throw ConfigError(file + ": cannot read the config file (" + std::strerror(errno) + ")");
  // Before the whole file is read: a checkpoint may be many GiB.
  char head[8] = {0};
  in.read(head, 8);
  if (in.gcount() == 8 && std::memcmp(head, "\x89HDF\r\n\x1a\n", 8) == 0)
    throw ConfigError(file + ": an HDF5 file, not a YAML config; a checkpoint (.rst) goes after --restart: "
                      "astronomix run --restart CHECKPOINT [config.yaml] (check likewise)");
  in.clear();
  in.seekg(0);
  std::stringstream ss;
  ss << in.rdbuf();
  if (in.bad()) throw ConfigError(file + ": cannot read the config file (" + std::strerror(errno) + ")");
  Config c = parse_config(ss.str(), file, overrides, nranks, output_dir);
  c.path = file;
  return c;
}

std::string key_place(const Config& c, const std::string& key) {
  const auto w = c.key_where.find(key);
  return w != c.key_where.end() ? w->second : c.file + ": " + key + " (default)";
}

bool key_from_set(const Config& c, const std::string& key) { return c.keys_from_set.count(key) > 0; }

void create_output_dir(const Config& c) {
  if (!c.write_files) return;
  const std::string where = key_place(c, "output.directory");
  make_output_dir(c.out_dir, [&](const std::string& msg) { throw ConfigError(where + ": " + msg); });
}

}  // namespace ax
