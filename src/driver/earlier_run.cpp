#include "driver/earlier_run.hpp"

#include <algorithm>
#include <filesystem>
#include <regex>

namespace ax {

std::vector<std::string> earlier_run_files(const std::string& dir, const std::string& basename) {
  namespace fs = std::filesystem;
  static const std::regex written(
      R"((out1\.\d{5}\.athdf(\.xdmf)?|\d{5}\.rst|final\.rst|history\.csv|summary\.json|emergency\.athdf(\.xdmf)?)(\.tmp)?)");
  std::vector<std::string> found;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.size() > basename.size() + 1 && name.compare(0, basename.size() + 1, basename + ".") == 0 &&
        std::regex_match(name.substr(basename.size() + 1), written) && !it->is_directory(ec))
      found.push_back(name);
  }
  std::sort(found.begin(), found.end());
  return found;
}

std::string newest_checkpoint_of(const std::vector<std::string>& files, const std::string& basename) {
  std::string newest;
  for (const std::string& f : files) {
    if (f == basename + ".final.rst") return f;
    if (f.size() == basename.size() + 10 && f.compare(f.size() - 4, 4, ".rst") == 0) newest = f;  // sorted
  }
  return newest;
}

}  // namespace ax
