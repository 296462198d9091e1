// One run at a time in an output.directory for an output.basename. A second
// run there moved the first one's files aside, a snapshot half written
// included, and the first then failed (exit 1) writing it; now the second
// is refused (exit 2) before it touches anything.
#pragma once

#include <string>

#include "backend/comm.hpp"
#include "config/config.hpp"

namespace ax {

class OutputLock {
 public:
  // Collective. Rank 0 takes an advisory lock (flock) on
  // <output.directory>/.<basename>.lock, holding its pid and host; every
  // rank throws ConfigError where another process holds it. Where the file
  // system cannot lock (some parallel file systems without flock), the run
  // goes on unlocked.
  OutputLock(const Config& cfg, const Comm& comm);
  ~OutputLock();  // removes the file and lets go
  OutputLock(const OutputLock&) = delete;
  OutputLock& operator=(const OutputLock&) = delete;

 private:
  int fd_ = -1;
  std::string path_;
};

}  // namespace ax
