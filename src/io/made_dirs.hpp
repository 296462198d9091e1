// Directories a run creates, so that a run refused after making them
// (a restart whose checkpoint turns out damaged) can take them back.
#pragma once

#include <string>
#include <vector>

namespace ax {

// The directories creating `dir` would make: `dir` and its missing
// ancestors, deepest first.
std::vector<std::string> missing_dirs(const std::string& dir);

// Removes each of `dirs` in order if it is still empty; never a file, never
// a directory that holds anything.
void remove_if_empty(const std::vector<std::string>& dirs);

}  // namespace ax
