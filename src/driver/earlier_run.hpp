// The files an earlier run left under the same output.directory and
// output.basename. A new run (not a restart) would overwrite some of them
// and leave the rest beside its own: snapshots of two runs in one series,
// a history cut short. `astronomix run` moves them aside first, or deletes
// them with --overwrite (driver/simulation.cpp); a restart continues them.
#pragma once

#include <string>
#include <vector>

namespace ax {

// Names (not paths) of the files in dir that a run with this basename
// writes: <basename>.out1.NNNNN.athdf and their .xdmf, NNNNN.rst,
// final.rst, history.csv, summary.json, emergency.athdf, and any of them
// with .tmp (a write cut off). Sorted; empty where dir does not exist.
std::vector<std::string> earlier_run_files(const std::string& dir, const std::string& basename);

// The newest checkpoint among those files ("" if none): final.rst if
// present, else the highest NNNNN.rst.
std::string newest_checkpoint_of(const std::vector<std::string>& files, const std::string& basename);

}  // namespace ax
