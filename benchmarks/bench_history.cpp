// One history row's global sums of the Sedov blast's initial state on an
// n^3 cube: the order-independent sums the history writes
// (backend/reproducible_sum.hpp: mass, momenta, kinetic energies, energy,
// density extremes) against plain floating-point sums of the five conserved
// variables and the extremes, what the history held before, whose bits
// depend on the decomposition. Counter: cells summed per second.
//
//   astronomix_bench --benchmark_filter=HistorySums
#include "bench_step.hpp"
#include "hydro/hydro_kernels.hpp"

namespace {

void HistorySums(benchmark::State& state, bool reproducible) {
  using namespace ax;
  const int n = int(state.range(0));
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const std::string cells = std::to_string(n);
  Config cfg = parse_config(
      bench::read_shipped("sedov3d.yaml"), "sedov3d.yaml",
      {"mesh.cells=[" + cells + "," + cells + "," + cells + "]", "output.enabled=false"}, size);
  bool periodic[3];
  for (int d = 0; d < 3; ++d) periodic[d] = cfg.bc[d][0] == BoundaryKind::periodic;
  Comm comm = make_comm(MPI_COMM_WORLD, cfg.dims, periodic);
  {
    Simulation sim(cfg, comm, false);
    sim.initialize();
    const Grid& g = sim.grid();
    const Array4 u = sim.state();
    double check = 0;
    for (auto _ : state) {
      if (reproducible) {
        check += global_totals(comm, g, u).energy;  // eight sums and two extremes
      } else {
        double s[NHYDRO];
        for (int v = 0; v < NHYDRO; ++v) {
          s[v] = 0;
          par_reduce(
              "plain_sum", g.interior(),
              KOKKOS_LAMBDA(int k, int j, int i, double& acc) { acc += u(v, k, j, i); },
              Kokkos::Sum<double>(s[v]));
          s[v] = allreduce_sum(comm, s[v]);
        }
        Real lo = 0, hi = 0;
        par_reduce(
            "plain_min", g.interior(),
            KOKKOS_LAMBDA(int k, int j, int i, Real& m) { m = math::fmin(m, u(IDN, k, j, i)); },
            Kokkos::Min<Real>(lo));
        par_reduce(
            "plain_max", g.interior(),
            KOKKOS_LAMBDA(int k, int j, int i, Real& m) { m = math::fmax(m, u(IDN, k, j, i)); },
            Kokkos::Max<Real>(hi));
        check += s[IEN] + allreduce_min(comm, lo) + allreduce_max(comm, hi);
      }
    }
    benchmark::DoNotOptimize(check);
    state.counters["cells_per_s"] = benchmark::Counter(
        double(g.cells_global()) * double(state.iterations()), benchmark::Counter::kIsRate);
  }
  free_comm(comm);
}

BENCHMARK_CAPTURE(HistorySums, reproducible, true)
    ->Arg(64)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(HistorySums, plain, false)->Arg(64)->Unit(benchmark::kMillisecond)->UseRealTime();
#ifdef KOKKOS_ENABLE_CUDA
BENCHMARK_CAPTURE(HistorySums, reproducible, true)
    ->Arg(256)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(HistorySums, plain, false)
    ->Arg(256)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
#endif

}  // namespace
