// What a run writes and says: snapshots, checkpoints, the history file,
// the run header and summary, and the report of a broken state. The state
// and the time loop are in simulation.cpp.
#include <mpi.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <type_traits>
#include <vector>

#include "backend/memory.hpp"
#include "driver/broken_state.hpp"
#include "driver/run_control.hpp"
#include "driver/simulation.hpp"
#include "hydro/hydro_kernels.hpp"
#include "io/athdf.hpp"
#include "io/hdf5_file.hpp"
#include "io/restart.hpp"
#include "mhd/mhd_kernels.hpp"

namespace ax {

namespace {
std::vector<std::string> split_csv(const std::string& line) {
  std::vector<std::string> fields;
  std::stringstream in(line);
  for (std::string f; std::getline(in, f, ',');) fields.push_back(f);
  return fields;
}

// For each column of `to`, its index in `from`; empty where the two are
// the same or `from` is not a reordering of `to` (the rows stay as they are).
std::vector<int> column_order(const std::vector<std::string>& from, const std::vector<std::string>& to) {
  if (from == to || from.size() != to.size()) return {};
  std::vector<int> index;
  for (const std::string& name : to) {
    const auto at = std::find(from.begin(), from.end(), name);
    if (at == from.end()) return {};
    index.push_back(int(at - from.begin()));
  }
  return index;
}

std::string reorder_csv(const std::string& line, const std::vector<int>& from) {
  if (from.empty()) return line;
  const std::vector<std::string> fields = split_csv(line);
  if (fields.size() != from.size()) return line;  // an empty last field: the row is kept as written
  std::string out;
  for (std::size_t i = 0; i < from.size(); ++i) out += (i ? "," : "") + fields[std::size_t(from[i])];
  return out;
}
}  // namespace

std::string Simulation::write_snapshot(bool sequential) {
  sync_cell_field();
  char name[64];
  std::snprintf(name, sizeof(name), ".out1.%05d.athdf", snapshot_index_++);
  SnapshotRequest req;
  req.path = (std::filesystem::path(cfg_.out_dir) / (cfg_.basename + name)).string();
  req.time = time_;
  req.cycle = steps_;
  req.sequential = sequential || cfg_.sequential_io;
  write_athdf(req, grid_, comm_, cfg_, u_.u);
  return req.path;
}

void Simulation::write_history_line(Real dt) {
  sync_cell_field();
  const Totals t = global_totals(comm_, grid_, u_.u);
  const double mass = t.mass, e = t.energy, lo = t.rho_min, hi = t.rho_max;
  const double* mom = t.mom;
  double me[3] = {0, 0, 0}, divb = 0;
  if (cfg_.mhd) {
    mhd_magnetic_energy(comm_, grid_, u_.u, me);
    divb = div_b();
  }
  // Rank 0 writes; a row it could not write (a full disk, a file size
  // limit) stops every rank, as a snapshot's failed write does (the run
  // used to end with exit 0 and its history cut off mid-row).
  std::string error;
  if (comm_.root()) {
    if (history_.is_open()) {
      char line[768];
      int n = std::snprintf(line, sizeof(line), "%lld,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g",
                            steps_, time_, double(dt), mass, mom[0], mom[1], mom[2], t.kinetic[0], t.kinetic[1],
                            t.kinetic[2], e);
      if (cfg_.mhd) n += std::snprintf(line + n, sizeof(line) - n, ",%.17g,%.17g,%.17g", me[0], me[1], me[2]);
      n += std::snprintf(line + n, sizeof(line) - n, ",%.17g,%.17g", lo, hi);
      if (cfg_.mhd) std::snprintf(line + n, sizeof(line) - n, ",%.17g", divb);
      history_ << line << "\n" << std::flush;
    }
    if (!history_.is_open() || !history_.good())
      error = "cannot write the history " +
              (std::filesystem::path(cfg_.out_dir) / (cfg_.basename + ".history.csv")).string() + " at step " +
              std::to_string(steps_) + " (a full disk or a file size limit?)";
  }
  throw_if_root_failed(comm_, error, "rank 0 could not write the history");
}

void Simulation::print_header(bool continuing) const {
  if (!verbose_ || !comm_.root()) return;
  std::ostringstream os;
  os << "astronomix: " << cfg_.problem_name << " from " << cfg_.file << "\n"
     << "  grid " << grid_.nx_global[0] << " x " << grid_.nx_global[1] << " x " << grid_.nx_global[2]
     << " (" << grid_.dim() << "D), " << comm_.size << " rank(s) as " << comm_.dims[0] << " x "
     << comm_.dims[1] << " x " << comm_.dims[2] << ", block " << grid_.nx[0] << " x " << grid_.nx[1]
     << " x " << grid_.nx[2] << ", ghost depth " << grid_.ng << "\n"
     << "  Kokkos " << kokkos_version_text() << " on " << ExecSpace::name()
     << (std::is_same_v<MemSpace, Kokkos::HostSpace>
             ? " (" + std::to_string(ExecSpace().concurrency()) + " thread(s) per rank)"
             : std::string())
     << ", "
     << (sizeof(Real) == 8 ? "double" : "float") << " precision, HDF5 "
     << (hdf5_is_parallel() ? "parallel" : "serial")
     << (cfg_.sequential_io && comm_.size > 1 ? " (written rank by rank: output.hdf5_mode)" : "")
     // How halos cross MPI matters only where the arrays live on a GPU.
     << (std::is_same_v<MemSpace, Kokkos::HostSpace> ? ""
                                                     : cfg_.gpu_aware_mpi ? ", MPI GPU-aware"
                                                                          : ", MPI staged through host")
     << "\n"
     << "  ghost exchange " << (overlap_.on ? "overlapped: " : "not overlapped: ") << overlap_.why << "\n"
     << "  " << hydro_->family() << (cfg_.mhd ? " mhd: " : " hydro: ") << hydro_->path() << " path (" << hydro_->reason() << "); "
     << hydro_->scheme() << " + " << to_string(cfg_.integrator) << ", cfl " << cfg_.cfl
     << (cfg_.family == "fd" ? " (of the sum of the axes' signal speeds)" : "") << "\n";
  if (cfg_.has_gravity()) {
    bool walls = false;
    for (int d = 0; d < 3; ++d)
      walls = walls || (cfg_.gravity[d] != 0 && (cfg_.bc[d][0] == BoundaryKind::reflecting ||
                                                 cfg_.bc[d][1] == BoundaryKind::reflecting));
    os << "  gravity [" << cfg_.gravity[0] << ", " << cfg_.gravity[1] << ", " << cfg_.gravity[2] << "]"
       << (walls ? "; reflecting walls along it in hydrostatic balance" : "") << "\n";
  }
  os << "  " << output_plan(continuing);
  std::cout << os.str() << std::endl;
}

// Where the run writes and when, as one line of the header.
std::string Simulation::output_plan(bool continuing) const {
  if (!cfg_.write_files) return "output: none (output.enabled is false)";
  std::ostringstream os;
  const std::string at = (std::filesystem::path(cfg_.out_dir) / cfg_.basename).string();
  // A continued run writes no snapshot at its start (the earlier run did), as Athena++'s.
  os << "output: " << at << ".out1.NNNNN.athdf (+ .xdmf)" << (continuing ? "" : " at the start,");
  if (cfg_.out_dt > 0) os << " every t = " << cfg_.out_dt << ",";
  if (cfg_.out_every > 0) os << " every " << cfg_.out_every << " steps,";
  os << " at the end";
  if (cfg_.history_every > 0) os << "; " << cfg_.basename << ".history.csv every " << cfg_.history_every << " step(s)";
  std::ostringstream ck;
  if (cfg_.restart_dt > 0) ck << ", every t = " << cfg_.restart_dt;
  if (cfg_.restart_every_steps > 0) ck << ", every " << cfg_.restart_every_steps << " steps";
  if (cfg_.restart_at_end) ck << ", " << cfg_.basename << ".final.rst at the end";
  os << "; checkpoints " << (ck.str().empty() ? std::string("none") : ck.str().substr(2));
  os << "; " << cfg_.basename << ".summary.json";
  return os.str();
}

std::string Simulation::write_checkpoint(bool final) {
  sync_cell_field();
  char name[64];
  if (final)
    std::snprintf(name, sizeof(name), ".final.rst");
  else
    std::snprintf(name, sizeof(name), ".%05d.rst", restart_index_);
  const std::string path = (std::filesystem::path(cfg_.out_dir) / (cfg_.basename + name)).string();
  RunCounters c;
  c.time = time_;
  c.steps = steps_;
  c.last_dt = last_dt_;
  c.snapshot_index = snapshot_index_;
  c.next_output = next_out_;
  c.restart_index = restart_index_ + (final ? 0 : 1);  // the schedule after this one
  c.next_restart = next_restart_;
  collect_floor_hits();
  c.floor_hits = allreduce_sum(comm_, floor_hits_);
  c.max_div_b = max_div_b_;
  c.initial_b = initial_b_;
  write_restart(path, grid_, comm_, cfg_, u_, c);
  if (!final) ++restart_index_;
  return path;
}

void Simulation::open_history(bool continuing) {
  namespace fs = std::filesystem;
  // Athena++'s .hst columns in its order (mass, momenta, kinetic energies,
  // total energy, magnetic energies), so a column's index is Athena++'s
  // plus one (the step); then the density extremes and div B.
  const std::string header = std::string("step,time,dt,mass,mom1,mom2,mom3,ke1,ke2,ke3,energy") +
                             (cfg_.mhd ? ",magnetic_energy1,magnetic_energy2,magnetic_energy3" : "") +
                             ",rho_min,rho_max" + (cfg_.mhd ? ",div_b_max" : "");
  const fs::path path = fs::path(cfg_.out_dir) / (cfg_.basename + ".history.csv");
  if (!continuing) {
    history_.open(path);
    history_ << header << "\n";  // a failed open or write shows at the first row (write_history_line)
    return;
  }
  // A continued run keeps the rows up to its checkpoint's step (a run that
  // went on, or died mid-line, after writing that checkpoint left more), so
  // no row is lost or doubled; the file is rewritten atomically first.
  std::ifstream in(path);
  std::string text = header + "\n", line;
  long long kept = 0;
  const std::size_t columns = std::size_t(std::count(header.begin(), header.end(), ',')) + 1;
  if (in) {
    std::getline(in, line);  // the header
    // Rows written with the columns in another order (before MHD's
    // magnetic energies followed the total energy) are put in this one.
    const std::vector<int> from = column_order(split_csv(line), split_csv(header));
    while (std::getline(in, line)) {
      if (in.eof()) break;  // a last line without its newline is incomplete
      if (std::size_t(std::count(line.begin(), line.end(), ',')) + 1 != columns) continue;
      if (std::atoll(line.c_str()) > steps_) break;
      text += reorder_csv(line, from) + "\n";
      ++kept;
    }
  } else {
    if (cfg_.history_every == 0) return;  // none to trim, none to write
    log("  history: " + path.string() + " not found; starting it at step " + std::to_string(steps_));
  }
  write_text_atomically(path.string(), text);
  if (cfg_.history_every > 0) history_.open(path, std::ios::app);
  (void)kept;
}

void Simulation::stop_broken(Real dt) {
  const std::string report = broken_state_report(grid_, comm_, cfg_, u_.u);
  std::string snapshot;
  if (cfg_.write_files) {
    const std::string path =
        (std::filesystem::path(cfg_.out_dir) / (cfg_.basename + ".emergency.athdf")).string();
    SnapshotRequest req;
    req.path = path;
    req.time = time_;
    req.cycle = steps_;
    req.sequential = cfg_.sequential_io;
    write_athdf(req, grid_, comm_, cfg_, u_.u);
    snapshot = "; wrote " + path + " with that state";
  }
  (void)dt;  // NaN or not positive: the CFL condition has no answer for this state
  char head[160];
  std::snprintf(head, sizeof(head), "the state has broken down after step %lld (t = %.9g), no time step can be taken: ",
                steps_, time_);
  throw RunStopped(kExitBrokenState, std::string(head) + report + snapshot);
}

void Simulation::write_summary(const RunSummary& s) const {
  // Rank 0 writes; every rank learns whether it could (the run used to end
  // with exit 0 and no summary).
  const std::string elsewhere = "rank 0 could not write the run's summary";
  if (!comm_.root()) return throw_if_root_failed(comm_, "", elsewhere);
  nlohmann::json j;
  j["problem"] = cfg_.problem_name;
  j["config"] = cfg_.path.empty() ? cfg_.file : cfg_.path;
  j["config_from_checkpoint"] = cfg_.from_checkpoint;  // then "config" is the checkpoint that held it
  j["cells"] = s.cells;
  j["grid"] = {grid_.nx_global[0], grid_.nx_global[1], grid_.nx_global[2]};
  j["ranks"] = comm_.size;
  j["process_grid"] = {comm_.dims[0], comm_.dims[1], comm_.dims[2]};
  j["ghost_exchange_overlapped"] = overlap_.on;
  j["steps"] = s.steps;
  j["time"] = s.sim_time;
  j["wall_s"] = s.wall_s;
  j["step_wall_s"] = s.step_wall_s;
  j["cell_updates_per_s"] = s.cell_updates_per_s;
  j["steps_this_run"] = s.steps_this_run;  // since the start, or the restart
  j["cell_updates_per_s_steps_only"] =
      s.step_wall_s > 0 ? double(s.cells) * double(s.steps_this_run) / s.step_wall_s : 0;
  j["floor_activations"] = s.floor_hits;
  j["host_peak_rss_bytes_max_rank"] = s.host_peak_bytes_max;
  j["device_memory_used_bytes"] = s.device_peak_bytes;
  j["state_bytes"] = s.state_bytes;
  j["array_bytes"] = s.array_bytes;
  j["array_bytes_over_state"] = double(s.array_bytes) / double(s.state_bytes);
  // What the plan made before allocating predicted for rank 0 (astronomix check prints it).
  j["planned_host_peak_bytes"] = plan_.host_bytes();
  j["planned_device_bytes"] = plan_.device_bytes();
  j["planned_array_bytes_per_rank"] = plan_.arrays();
  if (cfg_.mhd) j["div_b_max"] = s.div_b_max;  // |div B| dx_min / max(|B|, initial |B|), max over checks
  j["solver_family"] = hydro_->family();
  j["hydro_path"] = hydro_->path();
  j["hydro_path_reason"] = hydro_->reason();
  j["execution_space"] = ExecSpace::name();
  j["kokkos_version"] = KOKKOS_VERSION;
  j["precision"] = sizeof(Real) == 8 ? "double" : "float";
  j["snapshots"] = s.snapshots;
  j["checkpoints"] = s.checkpoints;
  if (!s.stopped_by.empty()) j["stopped_by"] = s.stopped_by;
  j["ended_by"] = s.ended_by;
  std::string error;
  if (cfg_.write_files) {
    try {
      write_text_atomically((std::filesystem::path(cfg_.out_dir) / (cfg_.basename + ".summary.json")).string(),
                            j.dump(2) + "\n");
    } catch (const std::exception& e) {
      error = e.what();
    }
  }
  throw_if_root_failed(comm_, error, elsewhere);
  if (verbose_) {
    char line[512];
    std::snprintf(line, sizeof(line),
                  "done: %lld cells x %lld steps in %.3f s = %.3e cell-updates/s "
                  "(%.3e in steps alone); t = %.6g; floors hit %lld times; ended by %s\n"
                  "peak memory: host %s (max over ranks), GPU %s; conserved state %s without ghosts, "
                  "arrays in all %s (%.2fx that state; `astronomix check` counts the state with ghosts)",
                  (long long)s.cells, s.steps_this_run, s.wall_s, s.cell_updates_per_s,
                  j["cell_updates_per_s_steps_only"].get<double>(), s.sim_time, s.floor_hits, s.ended_by.c_str(),
                  size_text(double(s.host_peak_bytes_max)).c_str(),
                  s.device_peak_bytes < 0 ? "n/a" : size_text(double(s.device_peak_bytes)).c_str(),
                  size_text(double(s.state_bytes)).c_str(), size_text(double(s.array_bytes)).c_str(),
                  double(s.array_bytes) / double(s.state_bytes));
    std::cout << line << std::endl;
    if (cfg_.mhd)
      std::printf("div B: max |div B| dx_min / max |B| (or the initial max |B|, if larger) = %.3e over the run's "
                  "checks\n", s.div_b_max);
  }
}

}  // namespace ax
