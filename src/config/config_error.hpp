#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace ax {

// Bad user input (config file, --set override, command line). The message is
// complete: where (file:line:column), which key, what was expected. The
// application prints it and exits with code 2.
class ConfigError : public std::runtime_error {
 public:
  explicit ConfigError(const std::string& msg) : std::runtime_error(msg) {}
};

// Closest candidate to `word` by edit distance, or "" if none is close.
std::string did_you_mean(const std::string& word, const std::string* begin, const std::string* end);

// What an Athena++ input parameter (tlim, nx1, ix2_bc, grav_acc2, a
// problem's amp) is called here, for an unknown key in section `path`
// whose keys are `known`: "time.end", or "" if `key` is no such name.
std::string athena_counterpart(const std::string& path, const std::string& key,
                               const std::vector<std::string>& known);

// What yaml-cpp's parse error `msg` most likely means, given the text of
// the line it points at and of the line before: "expected ..." or ""
// (yaml_hints.cpp).
std::string yaml_error_hint(const std::string& msg, const std::string& line_text, const std::string& line_before = "");

}  // namespace ax
