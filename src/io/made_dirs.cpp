#include "io/made_dirs.hpp"

#include <filesystem>
#include <system_error>

namespace ax {

std::vector<std::string> missing_dirs(const std::string& dir) {
  namespace fs = std::filesystem;
  std::vector<std::string> out;
  std::error_code ec;
  for (fs::path p = fs::absolute(dir, ec).lexically_normal(); !p.empty() && !fs::exists(p, ec); p = p.parent_path()) {
    out.push_back(p.string());
    if (p == p.parent_path()) break;
  }
  return out;
}

void remove_if_empty(const std::vector<std::string>& dirs) {
  namespace fs = std::filesystem;
  std::error_code ec;
  for (const std::string& d : dirs)
    if (fs::is_directory(d, ec) && fs::is_empty(d, ec)) fs::remove(d, ec);
}

}  // namespace ax
