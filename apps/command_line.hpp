// The astronomix command line, parsed before MPI ranks start any work and
// before Kokkos sees argv: Kokkos gets only its own --kokkos-* arguments,
// so `astronomix --help` is astronomix's help, not Kokkos'.
#pragma once

#include <string>
#include <vector>

namespace ax {

struct CommandLine {
  std::string command;  // "run" or "check"
  std::string config;   // the YAML file (empty: the --restart checkpoint's own)
  std::vector<std::string> sets;
  bool quiet = false;
  bool overwrite = false;     // --overwrite: remove an earlier run's files first
  bool memory_check = true;
  std::string restart;        // --restart: checkpoint to continue from
  double wall_time_s = 0;     // --wall-time: stop with a checkpoint before this (0: none)
  std::vector<std::string> kokkos_args;  // argv[0] and the --kokkos-* arguments
  bool kokkos_help = false;              // --kokkos-help: Kokkos prints its options
  std::string thread_cap_warning;        // said by rank 0 where the node's thread count was capped
};

// Parses argv. Returns -1 when the command should run; otherwise the exit
// code, after printing help, the version or an error (only if `print`).
int parse_command_line(int argc, char** argv, bool print, CommandLine* cl);

}  // namespace ax
