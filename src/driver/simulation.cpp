#include "driver/simulation.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <mpi.h>
#include <sstream>

#include "backend/memory.hpp"
#include "config/config_error.hpp"
#include "ct/ct_native.hpp"
#include "driver/broken_state.hpp"
#include "driver/run_control.hpp"
#include "io/hdf5_file.hpp"
#include "io/restart.hpp"
#include "mhd/mhd_kernels.hpp"
#include "hydro/hydro_kernels.hpp"
#include "io/athdf.hpp"
#include "problems/problem.hpp"

namespace ax {

namespace {

Grid grid_for(const Config& cfg, const Comm& comm) {
  return make_grid(cfg.nx, cfg.xmin, cfg.xmax, cfg.ghost, comm.dims, comm.coords);
}

// The stop request of the wall-time limit, above any signal number.
constexpr int kWallTimeStop = 1000;

double now_s() {
  using clock = std::chrono::steady_clock;
  return std::chrono::duration<double>(clock::now().time_since_epoch()).count();
}

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), f, v);
  return buf;
}

}  // namespace

Simulation::Simulation(const Config& cfg, const Comm& comm, bool verbose)
    : cfg_(cfg),
      comm_(comm),
      verbose_(verbose),
      grid_(grid_for(cfg, comm)),
      plan_(plan_memory(cfg, grid_)),
      u_(make_state(grid_, cfg.nvar(), cfg.mhd, "u")),
      ghosts_(grid_, comm, cfg.nvar(), cfg.bc, cfg.gpu_aware_mpi, cfg.mhd),
      hydro_(make_hydro_solver(cfg, grid_)),
      scheme_(scheme_of(cfg.integrator)) {
  const int nwork = stage_buffer_count(scheme_) - (scheme_.uses_r ? 1 : 0);
  for (int w = 0; w < nwork; ++w) work_.push_back(make_state(grid_, cfg.nvar(), cfg.mhd, "u_stage"));
  if (scheme_.uses_r) work_.push_back(r_ = make_state(grid_, cfg.nvar(), cfg.mhd, "u_register"));
  // Ghost cells the exchange never writes (corners of inactive axes) must
  // still hold numbers: zero every buffer once.
  auto zero = [](const State& s) {
    Kokkos::deep_copy(s.u, Real(0));
    for (int d = 0; s.mhd() && d < 3; ++d) Kokkos::deep_copy(s.b[d], Real(0));
  };
  zero(u_);
  for (auto& w : work_) zero(w);
}

void Simulation::log(const std::string& line) const {
  if (verbose_ && comm_.root()) std::cout << line << std::endl;
}

void Simulation::initialize() {
  cfg_.problem->initialize(grid_, cfg_.eos, comm_, u_);
  const Floors floors{Real(cfg_.density_floor), Real(cfg_.pressure_floor)};
  floor_hits_ += allreduce_sum(comm_, cfg_.mhd ? mhd_apply_floors(grid_, cfg_.eos, floors, u_.u)
                                                : apply_floors(grid_, cfg_.eos, floors, u_.u));
  time_ = 0;
  steps_ = 0;
}

Real Simulation::next_dt() const {
  const double local = cfg_.mhd ? mhd_local_cfl_dt(grid_, cfg_.eos, u_.u)
                                : local_cfl_dt(grid_, cfg_.eos, u_.u, cfg_.family == "fd");
  double dt = cfg_.cfl * allreduce_min(comm_, local);
  if (time_ + dt > cfg_.t_end) dt = cfg_.t_end - time_;
  return Real(dt);
}

void Simulation::step(Real dt) {
  State in = u_;
  for (std::size_t s = 0; s < scheme_.stages.size(); ++s) {
    ghosts_.fill(in);
    // The last stage writes back into u_ (it reads U0 = u_ only at the cell
    // it writes); the others into a stage buffer that is not their input.
    const bool last = s + 1 == scheme_.stages.size();
    State out = scheme_.in_place ? in
                : last && !in.same_as(u_) ? u_
                : (in.same_as(work_[0]) ? work_[1] : work_[0]);
    floor_hits_ += hydro_->stage(scheme_.stages[s], dt, {u_, in, out, r_});
    in = out;
  }
  // One-stage integrators end in a stage buffer: make it the state.
  if (!in.same_as(u_)) std::swap(u_, work_[0]);
  time_ += dt;
  last_dt_ = double(dt);
  ++steps_;
}

std::int64_t Simulation::array_bytes() const {
  auto bytes = [](const State& s) { return std::int64_t(s.u.span()) * std::int64_t(sizeof(Real)) + s.b.bytes(); };
  std::int64_t b = bytes(u_);
  for (const auto& w : work_) b += bytes(w);
  return b + hydro_->array_bytes() + ghosts_.buffer_bytes();
}

std::string Simulation::write_snapshot(bool sequential) {
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
  const Totals t = local_totals(grid_, u_.u);
  const double mass = allreduce_sum(comm_, t.mass), e = allreduce_sum(comm_, t.energy);
  double mom[3];
  for (int d = 0; d < 3; ++d) mom[d] = allreduce_sum(comm_, t.mom[d]);
  const double lo = allreduce_min(comm_, t.rho_min), hi = allreduce_max(comm_, t.rho_max);
  double me[3] = {0, 0, 0}, divb = 0;
  if (cfg_.mhd) {
    mhd_local_magnetic_energy(grid_, u_.u, me);
    for (int d = 0; d < 3; ++d) me[d] = allreduce_sum(comm_, me[d]);
    divb = div_b();
  }
  if (!comm_.root() || !history_.is_open()) return;
  char line[768];
  int n = std::snprintf(line, sizeof(line), "%lld,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g",
                        steps_, time_, double(dt), mass, mom[0], mom[1], mom[2], e, lo, hi);
  if (cfg_.mhd)
    std::snprintf(line + n, sizeof(line) - n, ",%.17g,%.17g,%.17g,%.17g", me[0], me[1], me[2], divb);
  history_ << line << "\n" << std::flush;
}

double Simulation::div_b() {
  Real bmax = 0;
  const double local = ct_local_div_b(grid_, u_.b, &bmax);
  const double div = allreduce_max(comm_, local), big = allreduce_max(comm_, double(bmax));
  const double ndiv = big > 0 ? div / big : div;
  max_div_b_ = std::max(max_div_b_, ndiv);
  return ndiv;
}

void Simulation::print_header() const {
  if (!verbose_ || !comm_.root()) return;
  std::ostringstream os;
  os << "astronomix: " << cfg_.problem_name << " from " << cfg_.file << "\n"
     << "  grid " << grid_.nx_global[0] << " x " << grid_.nx_global[1] << " x " << grid_.nx_global[2]
     << " (" << grid_.dim() << "D), " << comm_.size << " rank(s) as " << comm_.dims[0] << " x "
     << comm_.dims[1] << " x " << comm_.dims[2] << ", block " << grid_.nx[0] << " x " << grid_.nx[1]
     << " x " << grid_.nx[2] << ", ghost depth " << grid_.ng << "\n"
     << "  Kokkos " << KOKKOS_VERSION << " on " << ExecSpace::name() << ", "
     << (sizeof(Real) == 8 ? "double" : "float") << " precision, HDF5 "
     << (hdf5_is_parallel() ? "parallel" : "serial") << ", MPI "
     << (cfg_.gpu_aware_mpi ? "GPU-aware" : "staged through host") << "\n"
     << "  " << hydro_->family() << (cfg_.mhd ? " mhd: " : " hydro: ") << hydro_->path() << " path (" << hydro_->reason() << "); "
     << hydro_->scheme() << " + " << to_string(cfg_.integrator) << ", cfl " << cfg_.cfl
     << (cfg_.family == "fd" ? " (of the sum of the axes' signal speeds)" : "");
  std::cout << os.str() << std::endl;
}

void Simulation::restore(const std::string& path) {
  RunCounters c;
  std::string error;
  try {
    read_restart(path, grid_, comm_, cfg_, u_, &c);
  } catch (const ConfigError& e) {
    error = e.what();
  }
  // Every rank reads its part; all stop if any cannot.
  const int mine = error.empty() ? comm_.size : comm_.rank;
  int first = comm_.size;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm_.cart);
  if (first < comm_.size) {
    int len = int(error.size());
    MPI_Bcast(&len, 1, MPI_INT, first, comm_.cart);
    error.resize(std::size_t(len));
    MPI_Bcast(error.data(), len, MPI_CHAR, first, comm_.cart);
    throw ConfigError(error);
  }
  time_ = c.time;
  steps_ = c.steps;
  last_dt_ = c.last_dt;
  snapshot_index_ = c.snapshot_index;
  next_out_ = c.next_output;
  restart_index_ = c.restart_index;
  next_restart_ = c.next_restart;
  // Counters are global sums; rank 0 carries them.
  floor_hits_ = comm_.root() ? c.floor_hits : 0;
  max_div_b_ = c.max_div_b;
}

std::string Simulation::write_checkpoint(bool final) {
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
  c.floor_hits = allreduce_sum(comm_, floor_hits_);
  c.max_div_b = max_div_b_;
  write_restart(path, grid_, comm_, cfg_, u_, c);
  if (!final) ++restart_index_;
  return path;
}

void Simulation::open_history(bool continuing) {
  namespace fs = std::filesystem;
  const std::string header = std::string("step,time,dt,mass,mom1,mom2,mom3,energy,rho_min,rho_max") +
                             (cfg_.mhd ? ",magnetic_energy1,magnetic_energy2,magnetic_energy3,div_b_max" : "");
  const fs::path path = fs::path(cfg_.out_dir) / (cfg_.basename + ".history.csv");
  if (!continuing) {
    history_.open(path);
    history_ << header << "\n";
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
    while (std::getline(in, line)) {
      if (in.eof()) break;  // a last line without its newline is incomplete
      if (std::size_t(std::count(line.begin(), line.end(), ',')) + 1 != columns) continue;
      if (std::atoll(line.c_str()) > steps_) break;
      text += line + "\n";
      ++kept;
    }
  } else {
    log("  history: " + path.string() + " not found; starting it at step " + std::to_string(steps_));
  }
  write_text_atomically(path.string(), text);
  history_.open(path, std::ios::app);
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

RunSummary Simulation::run(const RunOptions& opt) {
  print_header();
  RunSummary s;
  const bool outputs = cfg_.write_files;
  const bool restarted = !opt.restart.empty();
  if (restarted) {
    restore(opt.restart);
    char line[256];
    std::snprintf(line, sizeof(line), "  continuing from %s: step %lld, t = %.9g", opt.restart.c_str(), steps_, time_);
    log(line);
  } else {
    initialize();
    next_out_ = cfg_.out_dt > 0 ? cfg_.out_dt : 1e300;
    next_restart_ = cfg_.restart_dt > 0 ? double(cfg_.restart_dt) : 1e300;
  }
  const long long first_step = steps_;
  if (outputs && comm_.root() && cfg_.history_every > 0) open_history(restarted);
  if (outputs && !restarted) s.snapshots.push_back(write_snapshot());
  if (outputs && !restarted && cfg_.history_every > 0) write_history_line(0);
  bool last_was_snapshot = true;

  Kokkos::fence();
  const double t0 = now_s();
  double step_wall = 0, longest_step = 0, longest_write = 0;
  auto done = [&] {
    return time_ >= cfg_.t_end * (1 - 1e-14) || (cfg_.max_steps >= 0 && steps_ >= cfg_.max_steps);
  };
  auto timed_write = [&](auto&& write) {
    const double w0 = now_s();
    auto path = write();
    longest_write = std::max(longest_write, now_s() - w0);
    return path;
  };
  while (!done()) {
    const Real dt = next_dt();
    if (!(dt > 0) || !std::isfinite(double(dt))) stop_broken(dt);
    const double ts = now_s();
    step(dt);
    Kokkos::fence();
    const double this_step = now_s() - ts;
    step_wall += this_step;
    longest_step = std::max(longest_step, this_step);
    if (steps_ == first_step + 1) device_peak_ = std::max(device_peak_, device_memory_used_bytes());

    last_was_snapshot = false;
    bool snap = false;
    if (cfg_.out_dt > 0 && time_ >= next_out_ * (1 - 1e-12)) {
      snap = true;
      while (next_out_ <= time_ * (1 + 1e-12)) next_out_ += cfg_.out_dt;
    }
    if (cfg_.out_every > 0 && steps_ % cfg_.out_every == 0) snap = true;
    if (outputs && snap) {
      s.snapshots.push_back(timed_write([&] { return write_snapshot(); }));
      last_was_snapshot = true;
    }
    if (outputs && cfg_.history_every > 0 && steps_ % cfg_.history_every == 0) write_history_line(dt);
    bool checkpoint = cfg_.restart_every_steps > 0 && steps_ % cfg_.restart_every_steps == 0;
    if (cfg_.restart_dt > 0 && time_ >= next_restart_ * (1 - 1e-12)) {
      checkpoint = true;
      while (next_restart_ <= time_ * (1 + 1e-12)) next_restart_ += cfg_.restart_dt;
    }
    if (outputs && checkpoint) s.checkpoints.push_back(timed_write([&] { return write_checkpoint(false); }));
    if (cfg_.progress_every > 0 && steps_ % cfg_.progress_every == 0) {
      const double el = now_s() - t0;
      const double rate = double(grid_.cells_global()) * double(steps_ - first_step) / el;
      double eta = el * (cfg_.t_end - time_) / std::max(time_ - (restarted ? 0.0 : 0.0), 1e-300);
      if (cfg_.max_steps >= 0)
        eta = std::min(eta, el * double(cfg_.max_steps - steps_) / double(std::max(1LL, steps_ - first_step)));
      char line[256];
      std::snprintf(line, sizeof(line), "step %8lld  t = %.6e  dt = %.4e  %.3e cell-updates/s  ETA %.1f s",
                    steps_, time_, double(dt), rate, eta);
      log(line);
    }
    // Stop requests, agreed by all ranks so all finish the same step: a
    // signal on any rank, or rank 0's clock near the wall-time limit
    // (keeping two of the longest steps and writes in hand).
    int stop = pending_stop_signal();
    if (comm_.root() && opt.wall_time_s > 0 &&
        MPI_Wtime() - opt.started_at + 2 * (longest_step + longest_write) + 0.5 >= opt.wall_time_s)
      stop = std::max(stop, kWallTimeStop);
    int any = 0;
    MPI_Allreduce(&stop, &any, 1, MPI_INT, MPI_MAX, comm_.cart);
    if (any && !done()) {
      s.stopped_by = any == kWallTimeStop ? "the wall-time limit" : signal_name(any);
      break;
    }
  }
  Kokkos::fence();
  // The final checkpoint before the closing snapshot: a continued run keeps
  // the regular snapshot schedule (the closing one is not part of it).
  if (outputs && (cfg_.restart_at_end || !s.stopped_by.empty()))
    s.checkpoints.push_back(write_checkpoint(true));
  if (outputs && !last_was_snapshot) s.snapshots.push_back(write_snapshot());
  s.wall_s = now_s() - t0;

  s.cells = grid_.cells_global();
  s.steps = steps_;
  s.steps_this_run = steps_ - first_step;
  s.sim_time = time_;
  s.step_wall_s = step_wall;
  s.cell_updates_per_s = s.wall_s > 0 ? double(s.cells) * double(s.steps_this_run) / s.wall_s : 0;
  s.floor_hits = allreduce_sum(comm_, floor_hits_);
  s.host_peak_bytes_max = std::int64_t(allreduce_max(comm_, double(host_peak_rss_bytes())));
  device_peak_ = std::max(device_peak_, device_memory_used_bytes());
  s.device_peak_bytes = device_peak_;
  // The evolved state: cell variables and, for MHD, the three face components.
  s.state_bytes = s.cells * (cfg_.nvar() + (cfg_.mhd ? 3 : 0)) * std::int64_t(sizeof(Real));
  if (cfg_.mhd) s.div_b_max = std::max(max_div_b_, div_b());
  s.array_bytes = std::int64_t(allreduce_sum(comm_, double(array_bytes())));
  write_summary(s);
  // Said even with --quiet: the run did not reach its end.
  if (!s.stopped_by.empty() && comm_.root())
    std::printf("stopped by %s after step %lld (t = %.9g): checkpoint %s; continue with "
                "`astronomix run %s --restart %s`\n",
                s.stopped_by.c_str(), steps_, time_, s.checkpoints.back().c_str(), cfg_.file.c_str(),
                s.checkpoints.back().c_str());
  return s;
}

void Simulation::write_summary(const RunSummary& s) const {
  if (!comm_.root()) return;
  nlohmann::json j;
  j["problem"] = cfg_.problem_name;
  j["config"] = cfg_.file;
  j["cells"] = s.cells;
  j["grid"] = {grid_.nx_global[0], grid_.nx_global[1], grid_.nx_global[2]};
  j["ranks"] = comm_.size;
  j["process_grid"] = {comm_.dims[0], comm_.dims[1], comm_.dims[2]};
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
  if (cfg_.mhd) j["div_b_max"] = s.div_b_max;  // normalised: |div B| dx_min / max |B|, max over checks
  j["solver_family"] = hydro_->family();
  j["hydro_path"] = hydro_->path();
  j["hydro_path_reason"] = hydro_->reason();
  j["execution_space"] = ExecSpace::name();
  j["kokkos_version"] = KOKKOS_VERSION;
  j["precision"] = sizeof(Real) == 8 ? "double" : "float";
  j["snapshots"] = s.snapshots;
  j["checkpoints"] = s.checkpoints;
  if (!s.stopped_by.empty()) j["stopped_by"] = s.stopped_by;
  if (cfg_.write_files) {
    std::ofstream f(std::filesystem::path(cfg_.out_dir) / (cfg_.basename + ".summary.json"));
    f << j.dump(2) << "\n";
  }
  if (verbose_) {
    char line[512];
    std::snprintf(line, sizeof(line),
                  "done: %lld cells x %lld steps in %.3f s = %.3e cell-updates/s "
                  "(%.3e in steps alone); t = %.6g; floors hit %lld times\n"
                  "peak memory: host %.1f MiB (max over ranks), GPU %s; conserved state %.1f MiB, "
                  "solver arrays %.1f MiB (%.2fx the state)",
                  (long long)s.cells, s.steps_this_run, s.wall_s, s.cell_updates_per_s,
                  j["cell_updates_per_s_steps_only"].get<double>(), s.sim_time, s.floor_hits,
                  s.host_peak_bytes_max / 1048576.0,
                  s.device_peak_bytes < 0 ? "n/a" : fmt("%.1f MiB", s.device_peak_bytes / 1048576.0).c_str(),
                  s.state_bytes / 1048576.0, s.array_bytes / 1048576.0,
                  double(s.array_bytes) / double(s.state_bytes));
    std::cout << line << std::endl;
    if (cfg_.mhd)
      std::printf("div B: max |div B| dx_min / max |B| = %.3e over the run's checks\n", s.div_b_max);
  }
}

}  // namespace ax
