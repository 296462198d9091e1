#include "driver/output_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <mpi.h>

#include "config/config_error.hpp"

namespace ax {

namespace {
std::string holder_of(int fd) {
  char text[256] = {0};
  const ssize_t n = pread(fd, text, sizeof(text) - 1, 0);
  std::string s(text, n > 0 ? std::size_t(n) : 0);
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s.empty() ? "another process" : s;
}
}  // namespace

OutputLock::OutputLock(const Config& cfg, const Comm& comm) {
  std::string error;
  if (comm.root() && cfg.write_files) {
    path_ = (std::filesystem::path(cfg.out_dir) / ("." + cfg.basename + ".lock")).string();
    // The file is removed when a run lets go: a run that opened it just
    // before then would hold a lock on a name no longer there, so a lock
    // counts only while the name still leads to the file locked.
    std::string unlocked;  // why this run goes without the lock
    for (int tries = 0; tries < 100 && fd_ < 0 && error.empty() && unlocked.empty(); ++tries) {
      const int fd = open(path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
      if (fd < 0) {
        unlocked = std::strerror(errno);
        break;
      }
      if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        if (errno == EWOULDBLOCK) {
          error = key_place(cfg, "output.directory") + ": a run is already writing " + cfg.basename + ".* in " +
                  cfg.out_dir + " (" + holder_of(fd) + ", holding " + path_ +
                  "); expected another output.directory or output.basename, or that run's end";
        } else {  // no locks on this file system (ENOLCK, ENOSYS, EINVAL): none can hold it
          unlocked = std::strerror(errno);
          unlink(path_.c_str());
        }
        close(fd);
        break;
      }
      struct stat held, named;
      if (fstat(fd, &held) == 0 && stat(path_.c_str(), &named) == 0 && held.st_ino == named.st_ino &&
          held.st_dev == named.st_dev) {
        fd_ = fd;
      } else {
        close(fd);
      }
    }
    if (fd_ < 0 && error.empty()) {
      if (unlocked.empty()) unlocked = "the file kept changing";
      std::cerr << "astronomix: warning: cannot lock " << path_ << " (" << unlocked
                << "): a second run into this directory and basename would not be refused" << std::endl;
    }
    if (fd_ >= 0) {
      char host[128] = "?";
      gethostname(host, sizeof(host) - 1);
      const std::string me = "pid " + std::to_string(getpid()) + " on " + host + "\n";
      if (ftruncate(fd_, 0) != 0 || pwrite(fd_, me.data(), me.size(), 0) < 0) {
        // The lock holds without the text; the message then names no pid.
      }
    }
  }
  int len = int(error.size());
  MPI_Bcast(&len, 1, MPI_INT, 0, comm.cart);
  if (len == 0) return;
  error.resize(std::size_t(len));
  MPI_Bcast(error.data(), len, MPI_CHAR, 0, comm.cart);
  throw ConfigError(error);
}

OutputLock::~OutputLock() {
  if (fd_ < 0) return;
  unlink(path_.c_str());
  close(fd_);
}

}  // namespace ax
