#pragma once

#include <stdexcept>
#include <string>

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

}  // namespace ax
