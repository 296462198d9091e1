#include "driver/simulation.hpp"

#include <algorithm>
#include <chrono>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <mpi.h>
#include <optional>

#include "backend/memory.hpp"
#include "config/config_error.hpp"
#include "ct/ct_native.hpp"
#include "ct/fd_ct.hpp"
#include "driver/broken_state.hpp"
#include "driver/earlier_run.hpp"
#include "driver/output_lock.hpp"
#include "driver/run_control.hpp"
#include "io/restart.hpp"
#include "mhd/mhd_kernels.hpp"
#include "hydro/hydro_kernels.hpp"
#include "problems/problem.hpp"
#include "time/end_time.hpp"

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

// The first time of the schedule next, next + dt, next + 2 dt, ... past t
// (within the 1e-12 the checks allow). Added one dt at a time, as ever, for
// the few intervals a step normally passes; an interval far shorter than a
// step (output.dt = 1e-12 against steps of 1e-3) is jumped over in one
// product instead of 1e9 additions, which froze the run in this loop.
double next_scheduled(double next, double dt, double t) {
  const double target = t * (1 + 1e-12);
  if (next > target) return next;
  if ((target - next) / dt > 1000) next += std::floor((target - next) / dt) * dt;
  for (int i = 0; i < 1004 && next <= target; ++i) next += dt;  // the loop it always was
  return next > target ? next : std::nextafter(target, HUGE_VAL);
}

// A word for a POSIX shell: as it is when it holds no character the shell
// treats specially (mesh.cells=[32,32,32] would be a glob), else in single
// quotes.
std::string shell_quoted(const std::string& word) {
  bool plain = !word.empty();
  for (char ch : word)
    plain = plain && (std::isalnum(static_cast<unsigned char>(ch)) || std::strchr("._-+=/:,@%", ch) != nullptr);
  if (plain) return word;
  std::string q = "'";
  for (char ch : word) q += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return q + "'";
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
  if (cfg.has_gravity()) ghosts_.set_hydrostatic_walls(cfg.gravity, cfg.eos.inv_gm1, cfg.pressure_floor);
  // GS05's corner EMFs want the physical boundaries' ghost field the mean of
  // the ghost faces; UCT's want it mirrored at reflecting walls, so that the
  // ghost faces' Riemann problems mirror the interior's, and copied at
  // outflow (as before 2026-12-07). docs/mhd.md: with the other choice, each
  // drove cells at a wall its field threads to the floor.
  if (cfg.mhd && cfg.family != "fd" && cfg.fv.corner_emf == CornerEmf::gs05) ghosts_.set_face_averaged_ghost_field();
  overlap_ = plan_exchange_overlap(cfg, grid_, ghosts_, *hydro_);
  if (overlap_.on)
    for (std::size_t b = 0; b <= overlap_.shell.size(); ++b) box_hits_.emplace_back("box_floor_hits");
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
  signal_rate_ = 0;
  cfg_.problem->initialize(grid_, cfg_.eos, comm_, u_);
  refuse_threaded_reflecting_walls();
  sync_cell_field();
  const Floors floors{Real(cfg_.density_floor), Real(cfg_.pressure_floor)};
  // This rank's count, as the stages add theirs: the summary and the
  // checkpoints sum over ranks.
  floor_hits_ += cfg_.mhd ? mhd_apply_floors(grid_, cfg_.eos, floors, u_.u) : apply_floors(grid_, cfg_.eos, floors, u_.u);
  if (cfg_.mhd) initial_b_ = div_b_and_field().second;
  if (const Real dt = cfl_dt(); !usable_step(dt)) refuse_unusable_initial_state(dt);
  signal_rate_ = 0;  // the first step forms its own
  time_ = 0;
  steps_ = 0;
}

void Simulation::refuse_threaded_reflecting_walls() const {
  if (!cfg_.mhd || cfg_.family != "fd") return;
  double big = -1;  // max |B|, formed at the first reflecting wall
  for (int d = 0; d < 3; ++d) {
    for (int side = 0; side < 2; ++side) {
      if (cfg_.bc[d][side] != BoundaryKind::reflecting) continue;
      if (big < 0) big = allreduce_max(comm_, double(fd_ct_local_face_field_max(grid_, u_.b)));
      // Each side alone, so that the message names the wall the field threads.
      const bool here = comm_.neighbor[d][side] == MPI_PROC_NULL;
      const bool wall[2] = {side == 0 && here, side == 1 && here};
      const double normal = allreduce_max(comm_, double(fd_ct_local_wall_normal_field(grid_, u_.b, d, wall)));
      // Rounding-level B_n (a field along the wall given by an angle) is
      // harmless; a field that threads the wall breaks the run down within
      // a few dozen steps.
      if (!(normal > 1e-12 * big)) continue;
      const std::string axis(1, "xyz"[d]), where = side == 0 ? "inner" : "outer";
      const std::string key = cfg_.key_where.count("boundaries." + axis + "_" + where)
                                  ? "boundaries." + axis + "_" + where
                                  : "boundaries." + axis;
      char values[96];
      std::snprintf(values, sizeof(values), "max |B_%s| = %.6g on the wall, max |B| = %.6g", axis.c_str(), normal,
                    big);
      throw ConfigError(key_place(cfg_, key) + ": reflecting walls with solver.family: fd and physics.mhd: true " +
                        "need a field parallel to the wall, but the field threads the " + where + " " + axis +
                        "-wall (" + values + "): the wall mirrors B_" + axis + " with a change of sign and the " +
                        "sixth-order stencils across it break down on the jump; expected a field with B_" + axis +
                        " = 0 on the wall, solver.family: fv, or (where the problem allows them) outflow or "
                        "periodic on " + axis);
    }
  }
}

Real Simulation::cfl_dt() {
  const double local = cfg_.mhd ? mhd_local_cfl_dt(grid_, cfg_.eos, u_.u, cfg_.family == "fd")
                                : local_cfl_dt(grid_, cfg_.eos, u_.u, cfg_.family == "fd");
  const Real dt = Real(cfg_.cfl * allreduce_min(comm_, local));
  signal_rate_ = dt > 0 ? Real(cfg_.cfl) / dt : Real(0);
  return dt;
}

Real Simulation::next_dt() {
  double dt = double(cfl_dt());
  // A step that would end short of the end by less than the outputs'
  // tolerance (1e-12 of the time, run()) goes to the end: else the
  // snapshot due there is written short of it and a step of 1e-13 follows
  // with a second one (a linear wave to t = 1 ended 2.3e-13 short).
  if (time_ + dt >= cfg_.t_end * (1 - 1e-12)) dt = cfg_.t_end - time_;
  return Real(dt);
}

void Simulation::step(Real dt) {
  // The rate of the CFL step formed for this state, used once.
  hydro_->set_signal_rate(signal_rate_ > 0 ? signal_rate_ : Real(cfg_.cfl) / dt);
  signal_rate_ = 0;
  State in = u_;
  for (std::size_t s = 0; s < scheme_.stages.size(); ++s) {
    // The last stage writes back into u_ (it reads U0 = u_ only at the cell
    // it writes); the others into a stage buffer that is not their input.
    const bool last = s + 1 == scheme_.stages.size();
    State out = scheme_.in_place ? in
                : last && !in.same_as(u_) ? u_
                : (in.same_as(work_[0]) ? work_[1] : work_[0]);
    const StageBuffers b{u_, in, out, r_};
    if (overlap_.on) {
      ghosts_.begin(in.u);
      hydro_->stage_box(scheme_.stages[s], dt, b, overlap_.core, box_hits_[0]);
      ghosts_.finish(in.u);
      for (std::size_t i = 0; i < overlap_.shell.size(); ++i)
        hydro_->stage_box(scheme_.stages[s], dt, b, overlap_.shell[i], box_hits_[i + 1]);
    } else {
      ghosts_.fill(in);
      floor_hits_ += hydro_->stage(scheme_.stages[s], dt, b);
    }
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

void Simulation::collect_floor_hits() {
  floor_hits_ += hydro_->take_device_floor_hits();
  for (const DeviceCount& h : box_hits_) floor_hits_ += take_count(h);
}

void Simulation::sync_cell_field() {
  if (!hydro_->rebuilds_cell_field()) return;
  ghosts_.fill(u_);
  hydro_->rebuild_cell_field(u_);
}

std::pair<double, double> Simulation::div_b_and_field() {
  Real bmax = 0;
  double local = 0;
  if (cfg_.family == "fd") {
    // The divergence the FD scheme keeps: sixth-order differences of the
    // face point values (they read face ghosts).
    sync_cell_field();
    bool wall[3][2];
    for (int d = 0; d < 3; ++d)
      for (int f = 0; f < 2; ++f) wall[d][f] = comm_.neighbor[d][f] == MPI_PROC_NULL;
    local = fd_ct_local_div_b(grid_, u_.b, wall, &bmax);
  } else {
    local = ct_local_div_b(grid_, u_.b, &bmax);
  }
  return {allreduce_max(comm_, local), allreduce_max(comm_, double(bmax))};
}

double Simulation::div_b() {
  const auto [div, big] = div_b_and_field();
  // Scaled by the larger of this field and the initial one: a field that
  // leaves through outflow boundaries (|B| down to 1e-18) left round-off
  // of the initial field that read as div B ~ 1. Both are states, not a
  // history of checks, so a continued run scales as an uninterrupted one.
  const double scale = std::max(initial_b_, big);
  // A field that is no longer finite (the kernels count NaN as infinite)
  // reports an infinite divergence.
  const double ndiv = !std::isfinite(div) || !std::isfinite(big) ? HUGE_VAL : scale > 0 ? div / scale : div;
  max_div_b_ = std::max(max_div_b_, ndiv);
  return ndiv;
}

void Simulation::restore(const std::string& path) {
  signal_rate_ = 0;
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
  if (c.has_checksum) {
    std::uint64_t sum = 0;
    MPI_Allreduce(&c.read_checksum_part, &sum, 1, MPI_UINT64_T, MPI_SUM, comm_.cart);
    if (sum != c.stored_checksum)
      throw ConfigError(damaged_text(path));
  }
  time_ = c.time;
  steps_ = c.steps;
  last_dt_ = c.last_dt;
  snapshot_index_ = c.snapshot_index;
  next_out_ = c.next_output;
  restart_index_ = c.restart_index;
  next_restart_ = c.next_restart;
  // A schedule the run before had off (its next time 1e300) and this one
  // turns on starts at the first multiple of its dt after now; one kept or
  // changed goes on from the stored next time, as Athena++'s.
  if (cfg_.out_dt > 0 && next_out_ >= 1e299) next_out_ = next_scheduled(0, cfg_.out_dt, time_);
  if (cfg_.restart_dt > 0 && next_restart_ >= 1e299) next_restart_ = next_scheduled(0, cfg_.restart_dt, time_);
  // Counters are global sums; rank 0 carries them.
  floor_hits_ = comm_.root() ? c.floor_hits : 0;
  max_div_b_ = c.max_div_b;
  initial_b_ = c.initial_b;
}

// Stopping before the first step would write a checkpoint of the state the
// run started from, and a job resubmitted on that exit 0 would go round
// without progress: a limit the start-up has used up is refused (exit 2).
void Simulation::refuse_wall_time_without_steps(const RunOptions& opt) const {
  char msg[200];
  std::snprintf(msg, sizeof(msg),
                "--wall-time: %g s leaves no time for a step after the start-up's %.2f s (one second is kept for "
                "shutting down); expected a longer limit",
                opt.wall_time_s, MPI_Wtime() - opt.started_at);
  throw ConfigError(msg);
}

// Initial values that give no state to evolve (a velocity of 1e200 makes
// the energy infinite) are the config's fault: refused with exit 2 (by run
// and check) before anything is written or moved aside, where the first
// step's check stopped the run with exit 3 after its first outputs.
void Simulation::refuse_unusable_initial_state(Real dt) const {
  std::string given;
  for (const auto& [key, where] : cfg_.key_where)
    if (key.rfind("problem.", 0) == 0) given += (given.empty() ? "" : ", ") + key;
  char step[48];
  std::snprintf(step, sizeof(step), "%g", double(dt));
  throw ConfigError(key_place(cfg_, "problem.name") + ": problem '" + cfg_.problem_name +
                    "' gives an initial state that cannot be evolved; expected problem values" +
                    (given.empty() ? std::string() : " (given: " + given + ")") +
                    " that make density, pressure and energy finite and positive (the CFL step is " + step +
                    "); " + broken_state_report(grid_, comm_, cfg_, u_.u));
}

RunSummary Simulation::run(const RunOptions& opt) {
  // Before anything is written or moved aside (rank 0's clock, as below).
  int no_time = comm_.root() && opt.wall_time_s > 0 && MPI_Wtime() - opt.started_at + 1.0 >= opt.wall_time_s;
  MPI_Bcast(&no_time, 1, MPI_INT, 0, comm_.cart);
  if (no_time) refuse_wall_time_without_steps(opt);
  const bool restarted = !opt.restart.empty();
  print_header(restarted);
  RunSummary s;
  const bool outputs = cfg_.write_files;
  std::optional<OutputLock> lock;  // held until the run's last file is written
  if (restarted) {
    restore(opt.restart);
    char line[256];
    std::snprintf(line, sizeof(line), "  continuing from %s: step %lld, t = %.9g", opt.restart.c_str(), steps_, time_);
    log(line);
    if (outputs) lock.emplace(cfg_, comm_);
    if (outputs) make_room_for_continued_run(cfg_, comm_, snapshot_index_, restart_index_, steps_, opt.restart);
  } else {
    initialize();  // before an earlier run's files are moved: it may refuse the config
    if (outputs) lock.emplace(cfg_, comm_);
    if (outputs) make_room_for_new_run(cfg_, comm_, opt.overwrite);
    next_out_ = cfg_.out_dt > 0 ? cfg_.out_dt : 1e300;
    next_restart_ = cfg_.restart_dt > 0 ? double(cfg_.restart_dt) : 1e300;
  }
  const long long first_step = steps_;
  const double start_time = time_;
  // A continued run trims the history to its checkpoint's step even when it
  // writes no rows (history_every: 0): the abandoned run's later rows stood
  // beside the continued run's snapshots.
  if (outputs && comm_.root() && (cfg_.history_every > 0 || restarted)) open_history(restarted);
  if (outputs && !restarted) s.snapshots.push_back(write_snapshot());
  if (outputs && !restarted && cfg_.history_every > 0) write_history_line(0);
  bool last_was_snapshot = true;

  Kokkos::fence();
  const double t0 = now_s();
  double progress_t = t0;  // the last progress line
  long long progress_step = steps_;
  double step_wall = 0, longest_step = 0, longest_write = 0;
  double used_by_start = 0;  // of the wall time, where a stop comes before the first step
  auto done = [&] {
    return at_end_time(time_, cfg_.t_end) || (cfg_.max_steps >= 0 && steps_ >= cfg_.max_steps);
  };
  auto timed_write = [&](auto&& write) {
    const double w0 = now_s();
    auto path = write();
    longest_write = std::max(longest_write, now_s() - w0);
    return path;
  };
  while (!done()) {
    // Stop requests, agreed by all ranks before each step so all finish the
    // same step (checked after the step, a limit the first outputs had used
    // up let a step run past it): a signal on any rank, or rank 0's clock
    // near the wall-time limit (keeping two of the longest steps and writes
    // in hand, and a second for shutting Kokkos and MPI down: with half a
    // second the CUDA build on the H200 ended 3.01 s after its start under a
    // 3 s limit).
    int stop = pending_stop_signal();
    if (comm_.root() && opt.wall_time_s > 0 &&
        MPI_Wtime() - opt.started_at + 2 * (longest_step + longest_write) + 1.0 >= opt.wall_time_s)
      stop = std::max(stop, kWallTimeStop);
    int any = 0;
    MPI_Allreduce(&stop, &any, 1, MPI_INT, MPI_MAX, comm_.cart);
    // With no step yet the start-up used up the limit after the check at
    // the top: the earlier run's files may have been moved aside and the
    // first outputs written, so the run ends as any stopped run does, with
    // a checkpoint, and fails below (a refusal with exit 2 would have left
    // that half done).
    if (any) {
      used_by_start = MPI_Wtime() - opt.started_at;
      s.stopped_by = any == kWallTimeStop ? "the wall-time limit" : signal_name(any);
      break;
    }
    const Real dt = next_dt();
    if (!usable_step(dt)) stop_broken(dt);
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
      next_out_ = next_scheduled(next_out_, cfg_.out_dt, time_);
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
      next_restart_ = next_scheduled(next_restart_, cfg_.restart_dt, time_);
    }
    if (outputs && checkpoint) s.checkpoints.push_back(timed_write([&] { return write_checkpoint(false); }));
    if (cfg_.progress_every > 0 && steps_ % cfg_.progress_every == 0) {
      // The rate of the steps since the last line (outputs included), so a
      // slowing run shows; the ETA from the whole run so far.
      const double now = now_s(), el = now - t0;
      const double rate = double(grid_.cells_global()) * double(steps_ - progress_step) / (now - progress_t);
      progress_t = now;
      progress_step = steps_;
      double eta = el * (cfg_.t_end - time_) / std::max(time_ - start_time, 1e-300);
      if (cfg_.max_steps >= 0)
        eta = std::min(eta, el * double(cfg_.max_steps - steps_) / double(std::max(1LL, steps_ - first_step)));
      char line[256];
      std::snprintf(line, sizeof(line), "step %8lld  t = %.6e  dt = %.4e  %.3e cell-updates/s  ETA %.1f s",
                    steps_, time_, double(dt), rate, eta);
      log(line);
    }
  }
  Kokkos::fence();
  // The history ends where the run does, as Athena++'s (history_every > 1
  // used to leave its last row short of the end).
  if (outputs && cfg_.history_every > 0 && steps_ > first_step && steps_ % cfg_.history_every != 0)
    write_history_line(Real(last_dt_));
  // The loop's wall time: its steps and the outputs due within it, not the
  // run's first and closing outputs (docs/scaling.md; they used to add the
  // closing checkpoint and snapshot to it).
  s.wall_s = now_s() - t0;
  // The final checkpoint before the closing snapshot: a continued run keeps
  // the regular snapshot schedule (the closing one is not part of it, and
  // the continued run moves it aside before it writes that number again).
  if (outputs && (cfg_.restart_at_end || !s.stopped_by.empty()))
    s.checkpoints.push_back(write_checkpoint(true));
  if (outputs && !last_was_snapshot) s.snapshots.push_back(write_snapshot());

  s.ended_by = !s.stopped_by.empty() ? s.stopped_by : at_end_time(time_, cfg_.t_end) ? "time.end" : "time.max_steps";
  s.cells = grid_.cells_global();
  s.steps = steps_;
  s.steps_this_run = steps_ - first_step;
  s.sim_time = time_;
  s.step_wall_s = step_wall;
  s.cell_updates_per_s = s.wall_s > 0 ? double(s.cells) * double(s.steps_this_run) / s.wall_s : 0;
  collect_floor_hits();
  s.floor_hits = allreduce_sum(comm_, floor_hits_);
  s.host_peak_bytes_max = std::int64_t(allreduce_max(comm_, double(host_peak_rss_bytes())));
  device_peak_ = std::max(device_peak_, device_memory_used_bytes());
  s.device_peak_bytes = device_peak_;
  // The evolved state: cell variables and, for MHD, the three face components.
  s.state_bytes = s.cells * (cfg_.nvar() + (cfg_.mhd ? 3 : 0)) * std::int64_t(sizeof(Real));
  if (cfg_.mhd) s.div_b_max = std::max(max_div_b_, div_b());
  s.array_bytes = std::int64_t(allreduce_sum(comm_, double(array_bytes())));
  write_summary(s);
  // Said even with --quiet: the run did not reach its end. The command to
  // continue repeats the --set overrides (a restart must match the mesh and
  // solver, and writes into the same folder).
  if (s.stopped_by == "the wall-time limit" && s.steps_this_run == 0) {
    // Exit 1, not 0: a job resubmitted on success would go round without
    // progress.
    char msg[200];
    std::snprintf(msg, sizeof(msg),
                  "--wall-time: %g s left no time for a step: the start-up and first outputs took %.2f s (one "
                  "second is kept for shutting down)",
                  opt.wall_time_s, used_by_start);
    const std::string kept = s.checkpoints.empty() ? "" : "; " + s.checkpoints.back() + " holds the state it started from";
    throw CollectiveError(msg + kept + "; expected a longer limit");
  }
  if (!s.stopped_by.empty() && comm_.root() && s.checkpoints.empty()) {
    std::printf("stopped by %s after step %lld (t = %.9g); no checkpoint, as output.enabled is false\n",
                s.stopped_by.c_str(), steps_, time_);
  } else if (!s.stopped_by.empty() && comm_.root()) {
    std::string again = cfg_.from_checkpoint ? "astronomix run" : "astronomix run " + shell_quoted(cfg_.file);
    for (const std::string& set : cfg_.sets) again += " --set " + shell_quoted(set);
    again += " --restart " + shell_quoted(s.checkpoints.back());
    std::printf("stopped by %s after step %lld (t = %.9g): checkpoint %s; continue with `%s`\n",
                s.stopped_by.c_str(), steps_, time_, s.checkpoints.back().c_str(), again.c_str());
  }
  return s;
}

}  // namespace ax
