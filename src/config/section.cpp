#include "config/section.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace ax {

namespace {

std::string quoted(const YAML::Node& v) {
  if (v.IsScalar()) return "'" + v.Scalar() + "'";
  if (v.IsSequence()) return "a list of " + std::to_string(v.size());
  if (v.IsMap()) return "a mapping";
  return "nothing";
}

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + v[i];
  return s;
}

std::optional<long long> to_integer(const YAML::Node& v) {
  if (!v.IsScalar()) return std::nullopt;
  const std::string& s = v.Scalar();
  std::size_t pos = 0;
  try {
    const long long x = std::stoll(s, &pos);
    if (pos == s.size()) return x;
  } catch (...) {
  }
  return std::nullopt;
}

// Numbers, and fractions such as 5/3 (as astrophysicists write gamma).
std::optional<double> to_real(const YAML::Node& v) {
  if (!v.IsScalar()) return std::nullopt;
  const std::string& s = v.Scalar();
  auto parse = [](const std::string& t) -> std::optional<double> {
    // Decimal only: stod reads 0x10 as 16, where the integer keys refuse it.
    if (t.find_first_of("xX") != std::string::npos) return std::nullopt;
    std::size_t pos = 0;
    try {
      const double x = std::stod(t, &pos);
      if (pos == t.size() && std::isfinite(x)) return x;
    } catch (...) {
    }
    return std::nullopt;
  };
  const auto slash = s.find('/');
  if (slash == std::string::npos) return parse(s);
  const auto a = parse(s.substr(0, slash)), b = parse(s.substr(slash + 1));
  // A quotient past a double's range (1e300/1e-300) is no number either.
  if (a && b && *b != 0 && std::isfinite(*a / *b)) return *a / *b;
  return std::nullopt;
}

// Shortest decimal text that reads back as the same double, so the effective
// config shows 0.2 rather than 0.20000000000000001.
YAML::Node real_node(double x) {
  char buf[32];
  for (int digits = 15; digits <= 17; ++digits) {
    std::snprintf(buf, sizeof(buf), "%.*g", digits, x);
    if (std::strtod(buf, nullptr) == x) break;
  }
  return YAML::Node(std::string(buf));
}

}  // namespace

Section::Section(YAML::Node node, std::string path, std::shared_ptr<ConfigContext> ctx)
    : node_(node), path_(std::move(path)), ctx_(std::move(ctx)) {}

std::string Section::full(const std::string& key) const {
  if (key.empty()) return path_;
  return path_.empty() ? key : path_ + "." + key;
}

// Whether `--set o=...` gives the dotted key `name` its value: o is the key
// itself or a section above it (--set time={...} gives time.cfl).
static bool gives(const std::string& o, const std::string& name) {
  return o == name || name.rfind(o + ".", 0) == 0;
}

const std::string* Section::override_of(const std::string& name) const {
  // A key the override gives, or a section one lies below (an unknown
  // section `--set solvr.riemann=...` is named here).
  for (const auto& o : ctx_->overridden)
    if (gives(o, name) || (!name.empty() && o.rfind(name + ".", 0) == 0)) return &o;
  return nullptr;
}

std::string Section::where(const std::string& key) const {
  const std::string name = full(key);
  if (const std::string* o = override_of(name)) return "command line (--set " + *o + "): " + name;
  // A key not given is placed at its section's own key (`time:`), not at
  // the section's first key.
  YAML::Mark mark = !head_.is_null() ? head_ : node_.IsDefined() ? node_.Mark() : YAML::Mark::null_mark();
  if (!key.empty() && node_.IsMap()) {
    for (auto it = node_.begin(); it != node_.end(); ++it) {
      if (it->first.Scalar() == key) {
        mark = it->first.Mark();
        break;
      }
    }
  }
  std::ostringstream os;
  os << ctx_->file;
  if (!mark.is_null() && ctx_->positions) os << ":" << mark.line + 1 << ":" << mark.column + 1;
  os << ": " << (name.empty() ? "(top level)" : name);
  return os.str();
}

void Section::fail(const std::string& key, const std::string& msg) const {
  throw ConfigError(where(key) + ": " + msg);
}

bool Section::has(const std::string& key) const {
  return node_.IsMap() && node_[key].IsDefined() && !node_[key].IsNull();
}

bool Section::present(const std::string& key) const { return node_.IsMap() && node_[key].IsDefined(); }

std::optional<YAML::Node> Section::value(const std::string& key, bool required,
                                         const std::string& expected) {
  known_.push_back(key);
  if (node_.IsMap()) {
    YAML::Node v = node_[key];
    if (v.IsDefined() && !v.IsNull()) return v;
    // `cfl:` or `--set time.cfl=` with nothing after it: a slip, not a
    // request for the default (which would run silently with another value).
    if (v.IsDefined())
      fail(key, "no value given (expected " + expected + "); leave the key out for the default");
  }
  if (required) {
    // A misspelt required key shows up as an unknown one: name it.
    if (node_.IsMap()) {
      for (auto it = node_.begin(); it != node_.end(); ++it) {
        const std::string present = it->first.Scalar();
        if (!did_you_mean(present, &key, &key + 1).empty())
          fail(present, "unknown key (did you mean '" + key + "'?)");
        if (athena_counterpart(path_, present, {key}) == full(key))
          fail(present, "unknown key (Athena++'s " + present + " is " + full(key) + " here; docs/athena.md)");
      }
    }
    fail(key, "missing required key (expected " + expected + ")");
  }
  return std::nullopt;
}

void Section::record(const std::string& key, const YAML::Node& v) {
  // Walk (and create) the effective tree along the dotted path, then store a
  // copy. yaml-cpp only attaches a new child once it is assigned to, so each
  // level is assigned a mapping before descending into it.
  YAML::Node cur = ctx_->effective;
  std::stringstream ss(path_);
  for (std::string part; std::getline(ss, part, '.');) {
    if (part.empty()) continue;
    if (!cur[part] || !cur[part].IsMap()) cur[part] = YAML::Node(YAML::NodeType::Map);
    cur.reset(cur[part]);
  }
  cur[key] = YAML::Clone(v);
  // Only keys the file or --set gives have a place: a default's would be
  // its section's line. (--set physics={mhd: true} gives physics.mhd, not
  // physics.gamma: a key is given only where its node is.)
  const YAML::Node& node = node_;
  if (!(node.IsMap() && node[key].IsDefined())) return;
  ctx_->where[full(key)] = where(key);
  if (set_on_command_line(key)) ctx_->from_set.insert(full(key));
}

void Section::forget(const std::string& key) {
  YAML::Node cur = ctx_->effective;
  std::stringstream ss(path_);
  for (std::string part; std::getline(ss, part, '.');) {
    if (part.empty()) continue;
    if (!cur[part]) return;
    cur.reset(cur[part]);
  }
  if (cur.IsMap()) cur.remove(key);
}

bool Section::set_on_command_line(const std::string& key) const {
  const std::string name = full(key);
  for (const auto& o : ctx_->overridden)
    if (gives(o, name)) return true;
  return false;
}

// An integer bound as a reader takes it in: the 2^62 "no limit" of the
// counters as 2^62, not 4611686018427387904.
static std::string bound_text(long long v) {
  if (v >= (1LL << 40) && (v & (v - 1)) == 0) {
    int k = 0;
    while ((1LL << k) != v) ++k;
    return "2^" + std::to_string(k);
  }
  return std::to_string(v);
}

long long Section::integer(const std::string& key, std::optional<long long> def, long long min,
                           long long max) {
  const std::string expected = "an integer in [" + bound_text(min) + ", " + bound_text(max) + "]";
  const auto ov = value(key, !def, expected);
  long long x = def.value_or(0);
  if (ov) {
    const YAML::Node& v = *ov;
    const auto parsed = to_integer(v);
    if (!parsed) fail(key, "expected " + expected + ", got " + quoted(v));
    x = *parsed;
    if (x < min || x > max) fail(key, "expected " + expected + ", got " + std::to_string(x));
  }
  record(key, YAML::Node(x));
  return x;
}

double Section::real(const std::string& key, std::optional<double> def, double min, double max,
                     bool positive) {
  // The bounds a message names: +-1e300 stand for "none" unless the value
  // broke them (then the message must say which bound it was).
  auto expected_for = [&](bool show_min, bool show_max) {
    std::ostringstream e;
    e << "a number";
    if (positive) e << " > 0";
    else if (show_min) e << " >= " << min;
    if (show_max) e << (positive || show_min ? " and" : "") << " <= " << max;
    return e.str();
  };
  const std::string expected = expected_for(min > -1e300, max < 1e300);
  const auto ov = value(key, !def, expected);
  double x = def.value_or(0);
  if (ov) {
    const YAML::Node& v = *ov;
    const auto parsed = to_real(v);
    if (!parsed) {
      // strtod's ERANGE: a number a double cannot hold (1e-400, 1e400).
      errno = 0;
      const char* text = v.IsScalar() ? v.Scalar().c_str() : "";
      char* end = nullptr;
      std::strtod(text, &end);
      const bool range = v.IsScalar() && end && *end == '\0' && end != text && errno == ERANGE;
      fail(key, "expected " + expected + ", got " + quoted(v) +
                    (range ? ", which is outside what a double holds (magnitudes 2.2e-308 to 1.8e308, or 0)" : ""));
    }
    x = *parsed;
    if (x < min || x > max || (positive && x <= 0))
      fail(key, "expected " + expected_for(min > -1e300 || x < min, max < 1e300 || x > max) + ", got " + v.Scalar());
  }
  record(key, real_node(x));
  return x;
}

bool Section::boolean(const std::string& key, std::optional<bool> def) {
  const auto ov = value(key, !def, "true or false");
  bool x = def.value_or(false);
  if (ov) {
    const YAML::Node& v = *ov;
    if (!v.IsScalar() || (v.Scalar() != "true" && v.Scalar() != "false"))
      fail(key, "expected true or false, got " + quoted(v));
    x = v.Scalar() == "true";
  }
  record(key, YAML::Node(x));
  return x;
}

std::string Section::choice(const std::string& key, std::optional<std::string> def,
                            const std::vector<std::string>& choices) {
  const std::string expected = "one of: " + join(choices);
  const auto ov = value(key, !def, expected);
  std::string x = def.value_or("");
  if (ov) {
    const YAML::Node& v = *ov;
    if (!v.IsScalar()) fail(key, "expected " + expected + ", got " + quoted(v));
    x = v.Scalar();
    bool ok = false;
    for (const auto& c : choices) ok = ok || c == x;
    if (!ok) {
      const std::string s = did_you_mean(x, choices.data(), choices.data() + choices.size());
      fail(key, "unknown value '" + x + "'" + (s.empty() ? "" : " (did you mean '" + s + "'?)") +
                    "; expected " + expected);
    }
  }
  record(key, YAML::Node(x));
  return x;
}

std::string Section::text(const std::string& key, std::optional<std::string> def) {
  const auto ov = value(key, !def, "a string");
  std::string x = def.value_or("");
  if (ov) {
    const YAML::Node& v = *ov;
    if (!v.IsScalar() || v.Scalar().empty()) fail(key, "expected a non-empty string, got " + quoted(v));
    x = v.Scalar();
  }
  record(key, YAML::Node(x));
  return x;
}

std::vector<long long> Section::integers(const std::string& key, std::size_t n,
                                         std::optional<std::vector<long long>> def, long long min,
                                         long long max) {
  const std::string expected = "a list of " + std::to_string(n) + " integers in [" +
                               bound_text(min) + ", " + bound_text(max) + "]";
  const auto ov = value(key, !def, expected);
  std::vector<long long> x = def.value_or(std::vector<long long>{});
  if (ov) {
    const YAML::Node& v = *ov;
    if (!v.IsSequence() || v.size() != n) fail(key, "expected " + expected + ", got " + quoted(v));
    x.clear();
    for (std::size_t i = 0; i < n; ++i) {
      const auto p = to_integer(v[i]);
      if (!p || *p < min || *p > max)
        fail(key, "expected " + expected + ", got " + quoted(v[i]) + " at position " + std::to_string(i + 1));
      x.push_back(*p);
    }
  }
  YAML::Node r;
  for (auto e : x) r.push_back(e);
  r.SetStyle(YAML::EmitterStyle::Flow);
  record(key, r);
  return x;
}

std::vector<double> Section::reals(const std::string& key, std::size_t n,
                                   std::optional<std::vector<double>> def) {
  const std::string expected = "a list of " + std::to_string(n) + " numbers";
  const auto ov = value(key, !def, expected);
  std::vector<double> x = def.value_or(std::vector<double>{});
  if (ov) {
    const YAML::Node& v = *ov;
    if (!v.IsSequence() || v.size() != n) fail(key, "expected " + expected + ", got " + quoted(v));
    x.clear();
    for (std::size_t i = 0; i < n; ++i) {
      const auto p = to_real(v[i]);
      if (!p) fail(key, "expected " + expected + ", got " + quoted(v[i]) + " at position " + std::to_string(i + 1));
      x.push_back(*p);
    }
  }
  YAML::Node r;
  for (auto e : x) r.push_back(real_node(e));
  r.SetStyle(YAML::EmitterStyle::Flow);
  record(key, r);
  return x;
}

std::vector<std::string> Section::choices(const std::string& key,
                                          std::optional<std::vector<std::string>> def,
                                          const std::vector<std::string>& allowed) {
  const std::string expected = "a list of names from: " + join(allowed);
  const auto ov = value(key, !def, expected);
  std::vector<std::string> x = def.value_or(std::vector<std::string>{});
  if (ov) {
    // One name alone is a list of one (Athena++ writes `variable = prim`).
    YAML::Node v = *ov;
    if (v.IsScalar()) {
      YAML::Node one(YAML::NodeType::Sequence);
      one.push_back(v);
      v.reset(one);
    }
    if (!v.IsSequence() || v.size() == 0) fail(key, "expected " + expected + ", got " + quoted(v));
    x.clear();
    for (std::size_t i = 0; i < v.size(); ++i) {
      bool found = false;
      if (v[i].IsScalar())
        for (const auto& a : allowed) found = found || a == v[i].Scalar();
      if (!found) {
        const std::string s = v[i].IsScalar() ? did_you_mean(v[i].Scalar(), allowed.data(), allowed.data() + allowed.size()) : "";
        fail(key, "unknown entry " + quoted(v[i]) + (s.empty() ? "" : " (did you mean '" + s + "'?)") +
                      "; expected " + expected);
      }
      // Twice would mean twice the same dataset in a snapshot, which HDF5 refuses mid-run.
      for (const auto& e : x)
        if (e == v[i].Scalar())
          fail(key, "'" + e + "' is listed twice; expected each name once, from: " + join(allowed));
      x.push_back(v[i].Scalar());
    }
  }
  YAML::Node r;
  for (auto& e : x) r.push_back(e);
  r.SetStyle(YAML::EmitterStyle::Flow);
  record(key, r);
  return x;
}

namespace {
// `cfl:0.4` is one scalar to YAML, not a key and its value: the hint for
// a key or value that holds such a colon, else "".
std::string colon_hint(const std::string& text) {
  const std::size_t colon = text.find(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 >= text.size() || text[colon + 1] == ' ') return "";
  return " (a key's ':' needs a space after it: '" + text.substr(0, colon) + ": " + text.substr(colon + 1) + "')";
}
}  // namespace

Section Section::section(const std::string& key, bool required) {
  // A section with nothing under it (`output:`) is an empty mapping.
  if (node_.IsMap() && node_[key].IsDefined() && node_[key].IsNull()) {
    known_.push_back(key);
    return Section(YAML::Node(YAML::NodeType::Map), full(key), ctx_);
  }
  const auto ov = value(key, required, "a mapping");
  if (ov && !ov->IsMap())
    fail(key, "expected a mapping of keys, got " + quoted(*ov) + (ov->IsScalar() ? colon_hint(ov->Scalar()) : ""));
  Section sub(ov ? *ov : YAML::Node(YAML::NodeType::Map), full(key), ctx_);
  if (ov && node_.IsMap())
    for (auto it = node_.begin(); it != node_.end(); ++it)
      if (it->first.Scalar() == key) sub.head_ = it->first.Mark();
  return sub;
}

void Section::also_known(const std::vector<std::string>& keys) {
  for (const std::string& k : keys)
    if (std::find(known_.begin(), known_.end(), k) == known_.end()) known_.push_back(k);
}

void Section::finish() const { reject_unknown(known_); }

void Section::reject_unknown(const std::vector<std::string>& keys) const {
  if (!node_.IsMap()) return;
  for (auto it = node_.begin(); it != node_.end(); ++it) {
    const std::string key = it->first.Scalar();
    bool known = false;
    for (const auto& k : keys) known = known || k == key;
    if (known) continue;
    const std::string athena = athena_counterpart(path_, key, keys);
    const std::string s = athena.empty() ? did_you_mean(key, keys.data(), keys.data() + keys.size()) : "";
    std::string msg = "unknown key" + std::string(s.empty() ? "" : " (did you mean '" + s + "'?)") + colon_hint(key);
    if (!athena.empty()) msg += " (Athena++'s " + key + " is " + athena + " here; docs/athena.md)";
    msg += "; known keys here: ";
    for (std::size_t i = 0; i < keys.size(); ++i) msg += (i ? ", " : "") + keys[i];
    fail(key, msg);
  }
}

}  // namespace ax
