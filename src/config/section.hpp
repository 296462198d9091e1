// Typed, validating access to one mapping of the YAML config. Every getter
// records the key as known and the resolved value (default included) in the
// effective config; finish() rejects keys nobody asked for, with a
// did-you-mean suggestion. Errors name file, line, key and what was expected.
#pragma once

#include <yaml-cpp/yaml.h>

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "config/config_error.hpp"

namespace ax {

struct ConfigContext {
  std::string file;                   // config file name, for messages
  bool positions = true;              // line:col in messages (not for a checkpoint's stored config, unseen)
  std::set<std::string> overridden;   // dotted keys set on the command line
  YAML::Node effective{YAML::NodeType::Map};  // resolved config, written into snapshots
  std::map<std::string, std::string> where;   // dotted key -> "file:line:col: key" of every key given
  std::set<std::string> from_set;             // dotted keys of `where` whose value --set gave
};

class Section {
 public:
  Section(YAML::Node node, std::string path, std::shared_ptr<ConfigContext> ctx);

  bool has(const std::string& key) const;      // given with a value
  bool present(const std::string& key) const;  // given at all (even empty)
  long long integer(const std::string& key, std::optional<long long> def, long long min,
                    long long max);
  double real(const std::string& key, std::optional<double> def, double min, double max,
              bool positive = false);
  bool boolean(const std::string& key, std::optional<bool> def);
  std::string choice(const std::string& key, std::optional<std::string> def,
                     const std::vector<std::string>& choices);
  std::string text(const std::string& key, std::optional<std::string> def);
  std::vector<long long> integers(const std::string& key, std::size_t n,
                                  std::optional<std::vector<long long>> def, long long min,
                                  long long max);
  std::vector<double> reals(const std::string& key, std::size_t n,
                            std::optional<std::vector<double>> def);
  std::vector<std::string> choices(const std::string& key,
                                   std::optional<std::vector<std::string>> def,
                                   const std::vector<std::string>& allowed);
  // Sub-mapping; an absent optional one reads as empty (all defaults).
  Section section(const std::string& key, bool required);

  // Leaves a key that was read out of the effective config (a resolved
  // value that another key states better), keeping it known.
  void forget(const std::string& key);
  // Records `value` as the key's resolved value (one that other keys decided).
  void restate(const std::string& key, const std::string& value) { record(key, YAML::Node(value)); }

  // Rejects unknown keys. Call after every getter of this section ran.
  // Keys valid here that this config does not read (the other solver
  // family's): finish() then names them as known and suggests them.
  void also_known(const std::vector<std::string>& keys);
  void finish() const;
  // finish() against `keys` before any is read: the top level's sections,
  // so a misspelt one is named before the errors its absence causes.
  void reject_unknown(const std::vector<std::string>& keys) const;

  // Whether --set gave `key` a value (itself or a section above it).
  bool set_on_command_line(const std::string& key) const;

  // "file:line:col: path.key" for messages about `key` (or the section).
  std::string where(const std::string& key = "") const;
  // The --set override that gives the dotted key `name`, or nullptr.
  const std::string* override_of(const std::string& name) const;
  [[noreturn]] void fail(const std::string& key, const std::string& msg) const;
  const std::string& path() const { return path_; }

 private:
  std::optional<YAML::Node> value(const std::string& key, bool required, const std::string& expected);
  void record(const std::string& key, const YAML::Node& v);
  std::string full(const std::string& key) const;

  YAML::Node node_;
  YAML::Mark head_ = YAML::Mark::null_mark();  // where the section's own key is (`time:`), if given
  std::string path_;
  std::shared_ptr<ConfigContext> ctx_;
  std::vector<std::string> known_;
};

}  // namespace ax
