// The memory plan (driver/memory_plan.hpp) against what a run really
// allocates: for every family, path, layout and integrator, the arrays the
// plan predicts before allocating are exactly the bytes the built run
// reports (Simulation::array_bytes). Peak resident memory against the plan
// is checked by tests/test_memory.py through the program.
#include <gtest/gtest.h>

#include "config_text.hpp"
#include "driver/memory_plan.hpp"
#include "run_helpers.hpp"

namespace ax::test {
namespace {

void expect_plan_matches(const std::string& file, const std::vector<std::string>& sets) {
  Config cfg = config_from(read_config(file), sets);
  Comm comm = comm_for(cfg);
  {
    const Grid grid = make_grid(cfg.nx, cfg.xmin, cfg.xmax, cfg.ghost, comm.dims, comm.coords);
    const MemoryPlan plan = plan_memory(cfg, grid);
    Simulation sim(cfg, comm, false);
    std::string label = file;
    for (const auto& s : sets) label += " " + s;
    EXPECT_EQ(plan.arrays(), sim.array_bytes()) << label << " (" << sim.hydro().path() << ")";
    EXPECT_GT(plan.state, 0);
    EXPECT_GT(plan.baseline_host, 0) << "resident memory of the process must be readable";
  }
  free_comm(comm);
}

TEST(MemoryPlan, FvPathsAndIntegrators) {
  for (const char* backend : {"native", "fused"})
    for (const char* layout : {"cells", "sweeps", "tiles"})
      for (const char* integ : {"rk1", "vl2", "rk3"})
        expect_plan_matches("blast3d.yaml", {"mesh.cells=[16,16,8]", std::string("solver.backend=") + backend,
                                             std::string("solver.fused_layout=") + layout,
                                             std::string("time.integrator=") + integ});
  expect_plan_matches("sod.yaml", {"mesh.cells=[64,1,1]"});
  expect_plan_matches("kelvin_helmholtz.yaml", {"mesh.cells=[32,32,1]"});
}

TEST(MemoryPlan, FdPathsAndIntegrators) {
  for (const char* backend : {"native", "fused"})
    for (const char* integ : {"rk3", "ssprk5_4", "lsrk4"}) {
      expect_plan_matches("blast3d.yaml", {"mesh.cells=[16,16,16]", "solver.family=fd",
                                           std::string("solver.backend=") + backend,
                                           std::string("time.integrator=") + integ});
      expect_plan_matches("blast3d.yaml", {"mesh.cells=[16,16,32]", "solver.family=fd",
                                           std::string("solver.backend=") + backend,
                                           std::string("time.integrator=") + integ});
    }
  expect_plan_matches("sod.yaml", {"mesh.cells=[64,1,1]", "solver.family=fd"});
}

TEST(MemoryPlan, FvMhd) {
  for (const char* path : {"solver.backend=native", "solver.fused_layout=cells", "solver.fused_layout=sweeps",
                           "solver.corner_emf=uct_hlld"})
    for (const char* integ : {"rk1", "rk2", "vl2", "rk3"}) {
      expect_plan_matches("orszag_tang.yaml", {"mesh.cells=[32,32,1]", path, std::string("time.integrator=") + integ});
      expect_plan_matches("orszag_tang.yaml", {"mesh.cells=[16,16,16]", "mesh.lower=[-0.5,-0.5,-0.5]",
                                               "mesh.upper=[0.5,0.5,0.5]", "boundaries.z=periodic", path,
                                               std::string("time.integrator=") + integ});
    }
}

TEST(MemoryPlan, OutputBuffersCountDatasets) {
  Config cfg = config_from(read_config("blast3d.yaml"), {"mesh.cells=[16,16,16]"});
  Comm comm = comm_for(cfg);
  const Grid grid = make_grid(cfg.nx, cfg.xmin, cfg.xmax, cfg.ghost, comm.dims, comm.coords);
  EXPECT_EQ(plan_memory(cfg, grid).output_host, 0) << "output switched off";
  cfg.write_files = true;
  cfg.out_vars = {"prim", "cons"};
  EXPECT_GE(plan_memory(cfg, grid).output_host, 2 * NHYDRO * grid.cells_local() * std::int64_t(sizeof(Real)));
  free_comm(comm);
}

}  // namespace
}  // namespace ax::test
