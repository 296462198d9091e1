#pragma once

#include <fstream>
#include <sstream>
#include <string>

namespace ax::test {

// Text of a shipped config, so tests run exactly what users run.
inline std::string read_config(const std::string& name) {
  std::ifstream f(std::string(ASTRONOMIX_SOURCE_DIR) + "/configs/" + name);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

}  // namespace ax::test
