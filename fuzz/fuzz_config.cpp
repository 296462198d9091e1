// libFuzzer target over the config loader and the --set parser: whatever
// the bytes, parsing either succeeds or throws a ConfigError whose message
// says where (the file, or the command line) - never another exception, a
// crash or undefined behaviour (built with ASan and UBSan).
//
// Input: lines starting with "--set " are overrides (as on the command
// line), the rest is the YAML text. Output stays off (the loader would
// create the output directory), so nothing is written.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "config/config_error.hpp"

namespace {

[[noreturn]] void fail(const char* what, const std::string& detail) {
  std::fprintf(stderr, "fuzz_config: %s: %s\n", what, detail.c_str());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  std::string yaml;
  std::vector<std::string> sets;
  std::size_t at = 0;
  while (at < input.size()) {
    std::size_t end = input.find('\n', at);
    if (end == std::string::npos) end = input.size();
    const std::string line = input.substr(at, end - at);
    if (line.rfind("--set ", 0) == 0)
      sets.push_back(line.substr(6));
    else
      yaml += line + "\n";
    at = end + 1;
  }
  sets.push_back("output.enabled=false");
  try {
    ax::parse_config(yaml, "<fuzz>", sets, 1);
  } catch (const ax::ConfigError& e) {
    const std::string msg = e.what();
    if (msg.rfind("<fuzz>", 0) != 0 && msg.rfind("command line", 0) != 0)
      fail("a rejection that does not say where", msg);
  } catch (const std::exception& e) {
    fail("not a config error", e.what());
  } catch (...) {
    fail("not a config error", "an exception of unknown type");
  }
  return 0;
}
