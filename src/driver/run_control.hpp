// What can end a run early besides its end time: a signal asking it to stop
// (SIGTERM, SIGINT, SIGUSR1, as batch systems send before a job's limit),
// the wall-time limit of `--wall-time`, and a state that has broken down.
// The first two end the run cleanly with a checkpoint (exit 0); the last
// with a report and an emergency snapshot (exit 3).
#pragma once

#include <stdexcept>
#include <string>

namespace ax {

// Exit code of a run whose state broke down (NaN, density or pressure <= 0).
constexpr int kExitBrokenState = 3;

// Handlers that only note the signal; the run loop checks between steps, so
// every rank finishes the same step. Also ignores SIGXFSZ, so a file that
// hits the size limit fails to write (a clear error) instead of killing.
void install_stop_signal_handlers();
// The signal that asked to stop (0 if none) on this rank.
int pending_stop_signal();
const char* signal_name(int sig);

// Thrown on every rank alike when a run must end with `exit_code` after its
// message (already printed by rank 0).
class RunStopped : public std::runtime_error {
 public:
  RunStopped(int exit_code, const std::string& what) : std::runtime_error(what), code(exit_code) {}
  int code;
};

}  // namespace ax
