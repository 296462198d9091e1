// What yaml-cpp's terse parse errors most often mean in a config, said as
// what was expected. yaml-cpp names the grammar ("end of map not found");
// a user who indented one key by three spaces, or typed a tab, needs the
// cause.
#include <cctype>
#include <string>

#include "config/config_error.hpp"

namespace ax {

namespace {
// The key of a line that starts with "cfl:0.4": a key whose ':' has no
// space after it, which YAML reads as part of a plain scalar (it then fails
// a line further down); "" for any other line (comments, URLs in values).
std::string colon_without_space(const std::string& line) {
  std::size_t i = line.find_first_not_of(' ');
  if (i == std::string::npos) return "";
  const std::size_t b = i;
  while (i < line.size() && (std::isalnum(static_cast<unsigned char>(line[i])) || line[i] == '_')) ++i;
  if (i == b || i + 1 >= line.size() || line[i] != ':' || line[i + 1] == ' ' || line[i + 1] == ':') return "";
  return line.substr(b, i - b);
}
}  // namespace

std::string yaml_error_hint(const std::string& msg, const std::string& line_text, const std::string& line_before) {
  // A tab in the indentation (one in a comment or a value is not the cause).
  const std::size_t indent_end = line_text.find_first_not_of(" \t");
  const bool tab = line_text.substr(0, indent_end).find('\t') != std::string::npos;
  if (msg.find("illegal tab") != std::string::npos || (tab && msg.find("end of map not found") != std::string::npos))
    return "expected spaces before the key: YAML indents with spaces only, and this line's indentation holds a tab";
  if (msg.find("end of map not found") != std::string::npos)
    return "expected this line indented as the other keys of its section (each key of a section starts in the "
           "same column), or a key with its ':' on the line before";
  if (msg.find("end of sequence flow not found") != std::string::npos)
    return "expected the ']' that closes the list opened before this point";
  if (msg.find("end of map flow not found") != std::string::npos)
    return "expected the '}' that closes the mapping opened before this point";
  if (msg.find("illegal flow end") != std::string::npos)
    return "expected no ']' or '}' here: it closes nothing";
  if (msg.find("illegal map value") != std::string::npos) {
    for (const std::string* l : {&line_text, &line_before}) {
      const std::string key = colon_without_space(*l);
      if (!key.empty())
        return "expected a space after the ':' of '" + key + ":'" + (l == &line_before ? " on the line before" : "") +
               " (without it YAML reads the key and its value as one word)";
    }
    return "expected no ': ' here: a value holding ': ' is quoted (\"a: b\"), and a section's name ends in ':' "
           "(time:) on the line above its keys";
  }
  if (msg.find("illegal block entry") != std::string::npos)
    return "expected a value, not a '- ' list entry, after the key on this line: write lists as [a, b, c]";
  if (msg.find("anchor is not defined") != std::string::npos)
    return "expected an anchor (&name) before the alias (*name); a value that starts with '*' is quoted";
  if (msg.find("unknown escape character") != std::string::npos)
    return "expected a known escape (\\\\, \\\", \\n) in the double-quoted text; single quotes take a backslash as "
           "it is";
  return "";
}

}  // namespace ax
