// The fused FV kernels (both layouts) against the native reference: every
// limiter x Riemann solver x integrator, in 1D, 2D and 3D, after several
// steps. They perform the same operations in the same order, so the
// required agreement (1e-13 relative) is in practice exact.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <set>

#include "config_text.hpp"
#include "run_helpers.hpp"

namespace ax::test {
namespace {

HostState run(const std::string& file, std::vector<std::string> sets, const std::string& backend,
              const std::string& layout, std::string* path) {
  sets.push_back("solver.backend=" + backend);
  sets.push_back("solver.fused_layout=" + layout);
  return evolved_state(file, sets, path);
}

// Largest difference per variable relative to that variable's largest value
// in a (a variable zero everywhere in a, such as a transverse momentum of a
// 1D problem, is measured absolutely); infinite where either state holds a
// value that is not finite, so a path that breaks down cannot pass.
double max_rel_diff(const HostState& a, const HostState& b) {
  const std::size_t n = a.v.size() / a.nvar;
  if (b.v.size() != a.v.size()) return HUGE_VAL;
  double worst = 0;
  for (int v = 0; v < a.nvar; ++v) {
    double scale = 0, diff = 0;
    for (std::size_t c = 0; c < n; ++c) {
      const double x = a.v[v * n + c], y = b.v[v * n + c];
      if (!std::isfinite(x) || !std::isfinite(y)) return HUGE_VAL;
      scale = std::max(scale, std::fabs(x));
      diff = std::max(diff, std::fabs(x - y));
    }
    worst = std::max(worst, diff / (scale > 0 ? scale : 1.0));
  }
  return worst;
}

using Options = std::vector<std::string>;

// Which combinations of a sweep run: all of them, or under the sanitizers
// (ASTRONOMIX_SANITIZED, set by tests/CMakeLists.txt) and on two ranks
// (ASTRONOMIX_FUSED_COVERING: FusedTwoRanks, whose point is the real MPI
// halos, the same for every option) a few that run every option value at
// least once, chosen greedily: next the one that brings the
// most values not run yet. (Taking, in loop order, every combination that
// brought a new value ran 11 of FV's 72 where 6 cover them, 5 of FD's 12
// and 4 of FD MHD's 6 where 3 do: under ASan FD MHD's 3D sweep alone took
// 125 s.)
class Sweep {
 public:
  std::vector<Options> select(const std::vector<Options>& all) const {
    if (!sanitized_) return all;
    std::set<std::string> seen;
    std::vector<Options> out;
    auto fresh = [&](const Options& c) {
      return std::count_if(c.begin(), c.end(), [&](const std::string& o) { return !seen.count(o); });
    };
    for (;;) {
      const Options* best = nullptr;
      for (const Options& c : all)
        if (fresh(c) > (best ? fresh(*best) : 0)) best = &c;
      if (!best) return out;
      seen.insert(best->begin(), best->end());
      out.push_back(*best);
    }
  }

  // Every combination ran: `cases` of `all` (the reduced sweep runs fewer).
  void expect_complete(int cases, int all, const std::string& what) const {
    if (!sanitized_) {
      EXPECT_EQ(cases, all) << what;
    }
  }

 private:
  bool sanitized_ = std::getenv("ASTRONOMIX_SANITIZED") != nullptr || std::getenv("ASTRONOMIX_FUSED_COVERING");
};

std::string joined(const Options& options) {
  std::string s;
  for (const std::string& o : options) s += " " + o.substr(o.find('=') + 1);
  return s;
}

// The bound for the working precision: 1e-13 in double. In float the same
// operations in the same order also agree exactly; 1e-5 (about 100 ulp)
// would leave room for a compiler that reorders them.
constexpr double kBound = sizeof(Real) == 8 ? 1e-13 : 1e-5;

void compare_all(const std::string& file, const std::vector<std::string>& base, bool mhd = false) {
  const char* limiters[] = {"minmod", "van_leer", "mc", "van_albada", "superbee"};
  const char* solvers[] = {"llf", "hlle", mhd ? "hlld" : "hllc"};
  const char* integrators[] = {"rk1", "rk2", "vl2", "rk3"};
  std::vector<Options> all;
  for (const char* rec : {"plm", "pcm"})
    for (const char* lim : limiters)
      for (const char* rs : solvers)
        for (const char* integ : integrators) {
          if (std::string(rec) == "pcm" && std::string(lim) != "minmod") continue;
          all.push_back({std::string("solver.reconstruction=") + rec, std::string("solver.limiter=") + lim,
                         std::string("solver.riemann=") + rs, std::string("time.integrator=") + integ});
        }
  const Sweep sweep;
  int cases = 0;
  for (const Options& options : sweep.select(all)) {
    std::vector<std::string> sets = base;
    sets.insert(sets.end(), options.begin(), options.end());
    std::string pn, pc, ps;
    const HostState native = run(file, sets, "native", "auto", &pn);
    const HostState cells = run(file, sets, "fused", "cells", &pc);
    const HostState sweeps = run(file, sets, "fused", "sweeps", &ps);
    ASSERT_EQ(pn, "native");
    ASSERT_EQ(pc, "fused (cells)");
    ASSERT_EQ(ps, "fused (sweeps)");
    const std::string what = file + joined(options);
    // The third layout, each face once in team scratch.
    std::string pt;
    const HostState tiles = run(file, sets, "fused", "tiles", &pt);
    ASSERT_EQ(pt, "fused (tiles)");
    // Bitwise in double: every layout runs the same inline functions in
    // the same order.
    const double bound = sizeof(Real) == 8 ? 0.0 : kBound;
    EXPECT_LE(max_rel_diff(native, cells), bound) << what << " (cells)";
    EXPECT_LE(max_rel_diff(native, sweeps), bound) << what << " (sweeps)";
    EXPECT_LE(max_rel_diff(native, tiles), bound) << what << " (tiles)";
    ++cases;
  }
  // plm x 5 limiters + pcm, x 3 solvers x 4 integrators.
  sweep.expect_complete(cases, 72, file);
  std::printf("%s: %d combinations, fused == native\n", file.c_str(), cases);
}

// MHD (fv/fv_mhd_fused.hpp): all three layouts for every reconstruction x
// limiter x solver x integrator, cell variables and field, with walls of
// every kind in 3D; the UCT edge EMFs stay native (the predicate says why).
TEST(Fused, MhdMatchesNative1D) {
  compare_all("rj2a.yaml", {"mesh.cells=[64,1,1]", "time.max_steps=10"}, true);
  compare_all("rj2a.yaml", {"mesh.cells=[1,1,64]", "mesh.lower=[0,0,-0.5]", "mesh.upper=[1,1,0.5]",
                            "problem.direction=z", "boundaries.x=periodic", "boundaries.z=outflow",
                            "time.max_steps=10"},
              true);
}

TEST(Fused, MhdMatchesNative2D) {
  compare_all("orszag_tang.yaml", {"mesh.cells=[16,24,1]", "time.max_steps=6"}, true);
}

TEST(Fused, MhdMatchesNative3D) {
  // Radius 0.2 in these: the config's 0.1 holds no cell centre of cells
  // this coarse (refused since: it ran a uniform state).
  compare_all("mhd_blast3d.yaml", {"mesh.cells=[8,12,8]", "boundaries.x=reflecting", "boundaries.y=outflow",
                                   "problem.radius=0.2", "time.max_steps=5"},
              true);
  // Blocks larger than a tile (32 x 4 x 32) and not a multiple of it.
  compare_all("mhd_blast3d.yaml", {"mesh.cells=[40,6,36]", "boundaries.z=outflow", "problem.radius=0.2",
                                   "time.max_steps=2"},
              true);
  // An oblique wave: velocity and field vary along all three axes, so the
  // edge EMFs of every component see four different cells (the blast's
  // are symmetric enough that swapped cells can go unnoticed).
  compare_all("mhd_linear_wave3d.yaml", {"mesh.cells=[16,8,8]", "problem.amplitude=0.1", "time.max_steps=3"}, true);
}

TEST(Fused, MhdUctRunsNative) {
  std::string path;
  run("orszag_tang.yaml", {"mesh.cells=[16,16,1]", "time.max_steps=1", "solver.corner_emf=uct_hlld"}, "auto", "auto",
      &path);
  EXPECT_EQ(path, "native");
}

TEST(Fused, MatchesNative1D) {
  compare_all("sod.yaml", {"mesh.cells=[64,1,1]", "time.max_steps=12"});
}

TEST(Fused, MatchesNative2D) {
  compare_all("kelvin_helmholtz.yaml", {"mesh.cells=[16,32,1]", "time.max_steps=6"});
}

TEST(Fused, MatchesNative3D) {
  compare_all("blast3d.yaml", {"mesh.cells=[12,12,12]", "mesh.lower=[-0.5,-0.5,-0.5]",
                               "mesh.upper=[0.5,0.5,0.5]", "boundaries.x=reflecting",
                               "boundaries.z=outflow", "time.max_steps=5"});
  // Blocks larger than a hydro tile (32 x 4 columns, 16 planes) and not a
  // multiple of it.
  compare_all("blast3d.yaml", {"mesh.cells=[40,6,20]", "mesh.lower=[-0.5,-0.5,-0.5]",
                               "mesh.upper=[0.5,0.5,0.5]", "boundaries.z=outflow", "time.max_steps=2"});
}

// A fused layout of the FD family and the path name the run reports.
struct FdLayout {
  const char* layout;
  const char* path;
};

// The FD family's native path against two fused layouts for one combination
// of options: bitwise in double, stricter than the 1e-13 required (the same
// inline functions in the same order give the same bits).
void compare_fd_paths(const std::string& file, std::vector<std::string> sets, const Options& options,
                      const std::string& what, const FdLayout (&layouts)[2]) {
  sets.push_back("solver.family=fd");
  sets.insert(sets.end(), options.begin(), options.end());
  std::string pn;
  const HostState native = run(file, sets, "native", "auto", &pn);
  ASSERT_EQ(pn, "native");
  for (const FdLayout& l : layouts) {
    std::string p;
    const HostState fused = run(file, sets, "fused", l.layout, &p);
    ASSERT_EQ(p, l.path);
    EXPECT_LE(max_rel_diff(native, fused), sizeof(Real) == 8 ? 0.0 : kBound) << what << " (" << l.path << ")";
  }
}

// FD WENO5: every weight family x eigenvector average x integrator, both
// fused layouts (faces; tiles = segments). In 3D the block is 16 cells
// deep so the faces layout runs in two z-slabs.
void compare_all_fd(const std::string& file, const std::vector<std::string>& base) {
  std::vector<Options> all;
  for (const char* weno : {"js", "z"})
    for (const char* avg : {"arithmetic", "roe"})
      for (const char* integ : {"ssprk5_4", "rk3", "lsrk4"})
        all.push_back({std::string("solver.weno=") + weno, std::string("solver.eigen_average=") + avg,
                       std::string("time.integrator=") + integ});
  const Sweep sweep;
  int cases = 0;
  for (const Options& options : sweep.select(all)) {
    compare_fd_paths(file, base, options, file + " fd" + joined(options),
                     {{"auto", "fused (faces)"}, {"tiles", "fused (segments)"}});
    ++cases;
  }
  sweep.expect_complete(cases, 12, file);  // 2 weights x 2 averages x 3 integrators
  std::printf("%s: %d fd combinations, fused == native\n", file.c_str(), cases);
}

// The floor activations of a run of `file` with `sets` on the given
// backend and fused layout, summed over the ranks; *path the path it took.
long long floor_hits_of(const std::string& file, std::vector<std::string> sets, const std::string& backend,
                        const std::string& layout, std::string* path) {
  sets.push_back("solver.backend=" + backend);
  sets.push_back("solver.fused_layout=" + layout);
  Config cfg = config_from(read_config(file), sets);
  Comm comm = comm_for(cfg);
  long long hits = 0;
  {
    Simulation sim(cfg, comm, false);
    sim.initialize();
    evolve(sim);
    hits = allreduce_sum(comm, sim.floor_hits());
    *path = sim.hydro().path();
  }
  free_comm(comm);
  return hits;
}

// Floor activations are counted alike on every path: the fused cells and
// tiles layouts reduce them on the device, over the whole interior or, with the
// ghost exchange overlapped on several ranks, over the core and shell boxes.
TEST(Fused, FloorCountsMatchNative) {
  // Einfeldt's 1-2-3 problem: two rarefactions leave p ~ 2e-3 between
  // them, under the floor of 0.01 (the initial p = 0.4 is above it).
  const std::vector<std::string> sets = {
      "mesh.cells=[64,1,1]",       "time.max_steps=20",          "physics.pressure_floor=0.01",
      "problem.left_velocity=-2",  "problem.right_velocity=2",   "problem.right_density=1",
      "problem.left_pressure=0.4", "problem.right_pressure=0.4"};
  std::string path;
  const long long native = floor_hits_of("sod.yaml", sets, "native", "auto", &path);
  EXPECT_GE(native, 20);  // every step (a cell a step on 64 cells)
  for (const char* layout : {"cells", "sweeps", "tiles"})
    EXPECT_EQ(floor_hits_of("sod.yaml", sets, "fused", layout, &path), native) << "fused " << layout;
}

// FD hydro likewise: the fused faces layout adds its counts on the device
// and the driver reads them once (FdHydro::take_device_floor_hits); in 3D
// over several slabs. The segments layout (tiles) counts in its own kernels.
TEST(Fused, FdFloorCountsMatchNative) {
  const std::vector<std::vector<std::string>> cases = {
      {"mesh.cells=[64,1,1]", "problem.left_velocity=-2", "problem.right_velocity=2"},
      {"mesh.cells=[8,8,32]", "problem.direction=z", "boundaries.z=outflow",
       "problem.left_velocity=-2", "problem.right_velocity=2"}};
  for (const std::vector<std::string>& c : cases) {
    std::vector<std::string> sets = {"time.max_steps=20",         "physics.pressure_floor=0.1",
                                     "solver.family=fd",          "time.integrator=lsrk4",
                                     "problem.right_density=1",   "problem.left_pressure=0.4",
                                     "problem.right_pressure=0.4"};
    sets.insert(sets.end(), c.begin(), c.end());
    std::string path;
    const long long native = floor_hits_of("sod.yaml", sets, "native", "auto", &path);
    EXPECT_GE(native, 20) << c[0];  // every step
    for (const char* layout : {"cells", "tiles"}) {
      EXPECT_EQ(floor_hits_of("sod.yaml", sets, "fused", layout, &path), native) << c[0] << " " << layout;
      EXPECT_EQ(path, std::string(layout) == "tiles" ? "fused (segments)" : "fused (faces)") << layout;
    }
  }
}

// FV MHD with floors hit: the fused finish writes the hydro variables back
// only where a floor was hit (fv_mhd_fused.cpp); counts and states as native.
TEST(Fused, MhdFloorsMatchNative) {
  // The two sides pulled apart at 1.5 each way: the rarefactions between
  // them take the gas pressure under the floor.
  const std::vector<std::string> sets = {"mesh.cells=[64,1,1]", "time.max_steps=20", "physics.pressure_floor=0.3",
                                         "problem.left.velocity=[-1.5,0,0]", "problem.right.velocity=[1.5,0,0]"};
  std::string path;
  const long long hits = floor_hits_of("rj2a.yaml", sets, "native", "auto", &path);
  EXPECT_GE(hits, 20);  // every step
  const HostState native = run("rj2a.yaml", sets, "native", "auto", &path);
  for (const char* layout : {"cells", "sweeps", "tiles"}) {
    EXPECT_EQ(floor_hits_of("rj2a.yaml", sets, "fused", layout, &path), hits) << layout;
    const HostState fused = run("rj2a.yaml", sets, "fused", layout, &path);
    EXPECT_LE(max_rel_diff(native, fused), sizeof(Real) == 8 ? 0.0 : kBound) << layout;
  }
}

// The same for FD MHD, whose fused segments end a 2N stage's cells in a
// kernel of their own and other integrators' in the last axis' kernel
// (fd_mhd_fused.cpp).
// FV's cells layout has no FD form: FD hydro and MHD take auto's layout and
// the log says so (FD MHD fell back to its native path, 3x slower, without
// a word).
TEST(Fused, FdTakesCellsLayoutAsAuto) {
  for (const char* file : {"orszag_tang.yaml", "sedov2d.yaml"}) {
    const Config cfg = config_from(read_config(file), {"mesh.cells=[32,32,1]", "solver.family=fd",
                                                       "solver.fused_layout=cells"});
    Comm comm = comm_for(cfg);
    {
      Simulation sim(cfg, comm, false);
#ifdef ASTRONOMIX_FLAT_LOOPS
      const char* mhd_auto = "fused (segments)";  // FD MHD's auto on GPUs
#else
      const char* mhd_auto = "fused (pencils)";
#endif
      EXPECT_EQ(sim.hydro().path(), std::string(file) == "sedov2d.yaml" ? "fused (faces)" : mhd_auto) << file;
      EXPECT_NE(sim.hydro().reason().find("cells is a finite-volume layout"), std::string::npos)
          << file << ": " << sim.hydro().reason();
    }
    free_comm(comm);
  }
}

TEST(Fused, FdMhdFloorCountsMatchNative) {
  // The two sides pulled apart at 1.5 each way: the rarefactions between
  // them take the gas pressure under the floor.
  for (const char* integ : {"lsrk4", "rk3"}) {
    const std::vector<std::string> sets = {"mesh.cells=[64,1,1]",
                                           "time.max_steps=20",
                                           "physics.pressure_floor=0.3",
                                           "solver.family=fd",
                                           std::string("time.integrator=") + integ,
                                           "problem.left.velocity=[-1.5,0,0]",
                                           "problem.right.velocity=[1.5,0,0]"};
    std::string path;
    const long long native = floor_hits_of("rj2a.yaml", sets, "native", "auto", &path);
    EXPECT_GE(native, 20) << integ;  // every step
    EXPECT_EQ(floor_hits_of("rj2a.yaml", sets, "fused", "sweeps", &path), native) << integ << " fused sweeps";
    EXPECT_EQ(path, "fused (pencils)");
    EXPECT_EQ(floor_hits_of("rj2a.yaml", sets, "fused", "tiles", &path), native) << integ << " fused tiles";
    EXPECT_EQ(path, "fused (segments)");
  }
}

TEST(Fused, FdMatchesNative1D) {
  compare_all_fd("sod.yaml", {"mesh.cells=[64,1,1]", "time.max_steps=12"});
  // Along z only: the one axis is also the z-slab axis.
  compare_all_fd("sod_z.yaml", {"mesh.cells=[1,1,64]", "time.max_steps=12"});
}

TEST(Fused, FdMatchesNative2D) {
  compare_all_fd("kelvin_helmholtz.yaml", {"mesh.cells=[16,32,1]", "time.max_steps=6"});
}

TEST(Fused, FdMatchesNative3D) {
  compare_all_fd("blast3d.yaml", {"mesh.cells=[16,16,16]", "mesh.lower=[-0.5,-0.5,-0.5]",
                                  "mesh.upper=[0.5,0.5,0.5]", "boundaries.x=reflecting",
                                  "boundaries.z=outflow", "time.max_steps=4"});
  // Two segments of 31 faces a row along each axis, the second partly
  // outside the box.
  compare_all_fd("blast3d.yaml", {"mesh.cells=[40,36,34]", "mesh.lower=[-0.5,-0.5,-0.5]",
                                  "mesh.upper=[0.5,0.5,0.5]", "time.max_steps=1"});
}

// FD MHD (fd/fd_mhd_fused.hpp), both fused layouts: both weight families x
// the three FD integrators, cells and (through the cell-centred field,
// rebuilt from them) faces, bitwise.
void compare_all_fd_mhd(const std::string& file, const std::vector<std::string>& base) {
  std::vector<Options> all;
  for (const char* weno : {"js", "z"})
    for (const char* integ : {"ssprk5_4", "rk3", "lsrk4"})
      all.push_back({std::string("solver.weno=") + weno, std::string("time.integrator=") + integ});
  const Sweep sweep;
  int cases = 0;
  for (const Options& options : sweep.select(all)) {
    compare_fd_paths(file, base, options, file + " fd mhd" + joined(options),
                     {{"sweeps", "fused (pencils)"}, {"tiles", "fused (segments)"}});
    ++cases;
  }
  sweep.expect_complete(cases, 6, file);  // 2 weights x 3 integrators
  std::printf("%s: %d fd mhd combinations, fused == native\n", file.c_str(), cases);
}

TEST(Fused, FdMhdMatchesNative1D) {
  compare_all_fd_mhd("rj2a.yaml", {"mesh.cells=[64,1,1]", "time.max_steps=6"});
  compare_all_fd_mhd("rj2a.yaml", {"mesh.cells=[1,1,64]", "mesh.lower=[0,0,-0.5]", "mesh.upper=[1,1,0.5]",
                                   "problem.direction=z", "boundaries.x=periodic", "boundaries.z=outflow",
                                   "time.max_steps=6"});
}

TEST(Fused, FdMhdMatchesNative2D) {
  compare_all_fd_mhd("orszag_tang.yaml", {"mesh.cells=[16,24,1]", "time.max_steps=4"});
}

TEST(Fused, FdMhdMatchesNative3D) {
  // The field along the reflecting x walls (FD MHD refuses one through them).
  compare_all_fd_mhd("mhd_blast3d.yaml", {"mesh.cells=[16,12,16]", "boundaries.x=reflecting",
                                          "problem.field=[0,0.6,0.8]", "boundaries.z=outflow", "time.max_steps=2"});
  // Long enough for two segments a row along each axis (31 faces along x,
  // 15 along y and z), the second one partly outside the box; y and z take
  // their rows two at a time, and 9 + 10 rows leave the last pair one short.
  compare_all_fd_mhd("mhd_blast3d.yaml", {"mesh.cells=[40,8,8]", "problem.radius=0.2", "time.max_steps=2"});
  compare_all_fd_mhd("mhd_blast3d.yaml", {"mesh.cells=[9,40,36]", "time.max_steps=2"});
}

}  // namespace
}  // namespace ax::test
