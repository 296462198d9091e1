#include "driver/earlier_run.hpp"

#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <string>

#include "config/config_error.hpp"

namespace ax {

namespace {

// Whether rest (a file name after "<basename>.") is one that a run writes:
// out1.NNNNN.athdf[.xdmf], NNNNN.rst, final.rst, history.csv, summary.json,
// emergency.athdf[.xdmf], each perhaps with .tmp (a write cut off).
bool written_by_a_run(std::string rest) {
  auto strip = [&rest](const std::string& tail) {
    const bool has = rest.size() >= tail.size() && rest.compare(rest.size() - tail.size(), tail.size(), tail) == 0;
    if (has) rest.resize(rest.size() - tail.size());
    return has;
  };
  auto five_digits = [](const std::string& s, std::size_t at) {
    if (s.size() < at + 5) return false;
    for (std::size_t i = at; i < at + 5; ++i)
      if (s[i] < '0' || s[i] > '9') return false;
    return true;
  };
  strip(".tmp");
  if (rest == "final.rst" || rest == "history.csv" || rest == "summary.json") return true;
  if (rest.size() == 9 && five_digits(rest, 0) && rest.compare(5, 4, ".rst") == 0) return true;
  strip(".xdmf");
  if (rest == "emergency.athdf") return true;
  return rest.size() == 16 && rest.compare(0, 5, "out1.") == 0 && five_digits(rest, 5) &&
         rest.compare(10, 6, ".athdf") == 0;
}

}  // namespace

std::vector<std::string> earlier_run_files(const std::string& dir, const std::string& basename) {
  namespace fs = std::filesystem;
  std::vector<std::string> found;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.size() > basename.size() + 1 && name.compare(0, basename.size() + 1, basename + ".") == 0 &&
        written_by_a_run(name.substr(basename.size() + 1)) && !it->is_directory(ec))
      found.push_back(name);
  }
  std::sort(found.begin(), found.end());
  return found;
}

namespace {

// Moves (or deletes) `files` of dir, and copies `copies` beside them (files
// the run goes on writing, kept as they were), rank 0 doing the work and
// every rank throwing if it fails; says what it did with `what` ("of an
// earlier run named 'sod'"), even with --quiet: files the user may look for
// have moved.
void move_aside(const Config& cfg, const Comm& comm, const std::vector<std::string>& files, bool overwrite,
                const std::string& what, bool overwrite_allowed, const std::vector<std::string>& copies = {}) {
  namespace fs = std::filesystem;
  int n = int(files.size() + copies.size());
  MPI_Bcast(&n, 1, MPI_INT, 0, comm.cart);
  if (n == 0) return;
  const std::string where = key_place(cfg, "output.directory");
  std::string failed, note;
  bool io_failure = false;  // a copy that failed (a full disk): exit 1, not a refusal of the input
  if (comm.root()) {
    fs::path to;
    std::error_code ec;
    const fs::path earlier = fs::path(cfg.out_dir) / "earlier";
    const bool had_earlier = fs::exists(earlier, ec);
    if (!overwrite) {
      char stamp[32];
      const std::time_t now = std::time(nullptr);
      std::strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", std::localtime(&now));
      to = fs::path(cfg.out_dir) / "earlier" / (cfg.basename + "." + stamp);
      for (int k = 2; fs::exists(to, ec); ++k)
        to = fs::path(cfg.out_dir) / "earlier" / (cfg.basename + "." + stamp + "-" + std::to_string(k));
      fs::create_directories(to, ec);
      if (ec) failed = where + ": cannot create " + to.string() + " for an earlier run's files: " + ec.message();
    }
    // Copies first: one can fail for want of space, and then nothing has
    // moved yet (the folder, holding only copies, goes again).
    std::string copied;
    for (std::size_t i = 0; i < copies.size() && failed.empty(); ++i) {
      const fs::path from = fs::path(cfg.out_dir) / copies[i];
      fs::copy_file(from, to / copies[i], ec);
      if (ec) {
        failed = "cannot copy " + from.string() + " to " + to.string() + ": " + ec.message() +
                 "; nothing was moved";
        io_failure = true;
        std::error_code ignored;
        fs::remove_all(to, ignored);
        if (!had_earlier) fs::remove(earlier, ignored);  // only if empty: the folder this run made
      }
      copied += (i ? ", " : "") + copies[i];
    }
    for (std::size_t i = 0; i < files.size() && failed.empty(); ++i) {
      const fs::path from = fs::path(cfg.out_dir) / files[i];
      if (overwrite) fs::remove(from, ec);
      else fs::rename(from, to / files[i], ec);
      if (ec) failed = where + ": cannot " + (overwrite ? "remove " : "move ") + from.string() + ": " + ec.message();
    }
    const std::string count = std::to_string(files.size()) + " file(s) " + what;
    note = overwrite ? "deleted the " + count + " in " + cfg.out_dir + " (--overwrite)"
                     : (files.empty() ? "" : "moved the " + count + (copies.empty() ? "" : " and ")) +
                           (copies.empty() ? "" : "copied the earlier run's " + copied + " as they were") + " to " +
                           to.string() +
                           (overwrite_allowed ? " (delete it when no longer needed; --overwrite deletes them)"
                                              : " (delete it when no longer needed)");
  }
  int bad = failed.empty() ? 0 : io_failure ? 2 : 1;
  MPI_Bcast(&bad, 1, MPI_INT, 0, comm.cart);
  if (bad == 2) throw CollectiveError(comm.root() ? failed : "rank 0 could not copy an earlier run's files aside");
  if (bad) throw ConfigError(failed);
  if (comm.root()) std::printf("astronomix: %s\n", note.c_str());
}

// The number NNNNN of "out1.NNNNN.athdf[.xdmf]" (as `snapshot`) or
// "NNNNN.rst" after "<basename>.", else -1.
int numbered(const std::string& rest, bool snapshot) {
  const std::size_t at = snapshot ? 5 : 0;
  if (snapshot && rest.compare(0, 5, "out1.") != 0) return -1;
  if (rest.size() < at + 5) return -1;
  int n = 0;
  for (std::size_t i = at; i < at + 5; ++i) {
    if (rest[i] < '0' || rest[i] > '9') return -1;
    n = 10 * n + (rest[i] - '0');
  }
  const std::string tail = rest.substr(at + 5);
  const bool ok = snapshot ? tail == ".athdf" || tail == ".athdf.xdmf" : tail == ".rst";
  return ok ? n : -1;
}

}  // namespace

void make_room_for_new_run(const Config& cfg, const Comm& comm, bool overwrite) {
  std::vector<std::string> files;
  if (comm.root()) files = earlier_run_files(cfg.out_dir, cfg.basename);
  move_aside(cfg, comm, files, overwrite, "of an earlier run named '" + cfg.basename + "'", true);
}

namespace {

// Whether the history file at path has a complete row past `step`.
bool history_goes_past(const std::filesystem::path& path, long long step) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);  // the header
  while (std::getline(in, line))
    if (!in.eof() && std::atoll(line.c_str()) > step) return true;
  return false;
}

}  // namespace

void make_room_for_continued_run(const Config& cfg, const Comm& comm, int snapshot_index, int restart_index,
                                 long long step, const std::string& checkpoint) {
  namespace fs = std::filesystem;
  std::vector<std::string> files, copies;
  if (comm.root()) {
    std::error_code ec;
    const fs::path read = fs::weakly_canonical(checkpoint, ec);
    const std::vector<std::string> found = earlier_run_files(cfg.out_dir, cfg.basename);
    for (const std::string& name : found) {
      const std::string rest = name.substr(cfg.basename.size() + 1);
      const int snap = numbered(rest, true), ckpt = numbered(rest, false);
      // The closing checkpoint came after any numbered one, and the
      // continued run writes its own; so may it an emergency snapshot.
      const bool closing = rest == "final.rst" || rest == "final.rst.tmp" || rest.rfind("emergency.athdf", 0) == 0;
      const bool later = (snap >= 0 && snap >= snapshot_index) || (ckpt >= 0 && ckpt >= restart_index) || closing;
      if (later && fs::weakly_canonical(fs::path(cfg.out_dir) / name, ec) != read) files.push_back(name);
    }
    // The continued run cuts the history back to the checkpoint's step and
    // rewrites the summary: a history that went past the checkpoint goes
    // aside as it was, and the summary with anything that goes aside.
    const std::string history = cfg.basename + ".history.csv", summary = cfg.basename + ".summary.json";
    auto has = [&found](const std::string& name) { return std::count(found.begin(), found.end(), name) > 0; };
    const bool past = has(history) && history_goes_past(fs::path(cfg.out_dir) / history, step);
    if (past) copies.push_back(history);
    if ((past || !files.empty()) && has(summary)) copies.push_back(summary);
  }
  // The files by name (rank 0's list; the others only need the count).
  std::string names;
  for (std::size_t i = 0; i < files.size() && i < 4; ++i) names += (i ? ", " : "") + files[i];
  if (files.size() > 4) names += ", ...";
  move_aside(cfg, comm, files, false,
             "that the earlier run wrote after its checkpoint (" + names +
                 "), whose names the continued run writes again,",
             false, copies);  // --overwrite does not go with --restart
}

}  // namespace ax
