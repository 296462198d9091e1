#include "driver/memory_plan.hpp"

#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <type_traits>

#include "backend/halo.hpp"
#include "backend/memory.hpp"
#include "driver/solver_factory.hpp"
#include "time/stages.hpp"

namespace ax {

std::string size_text(double bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  int u = 0;
  while (bytes >= 1024 && u < 6) {
    bytes /= 1024;
    ++u;
  }
  char buf[64];
  std::snprintf(buf, sizeof(buf), u == 0 ? "%.0f %s" : "%.1f %s", bytes, units[u]);
  return buf;
}

namespace {

std::string times_text(double x) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.2fx", x);
  return buf;
}

// Cell-updates per second per CPU thread or per GPU, measured on this
// project's machines (docs/performance.md, docs/fd.md): a rough guide to
// the cost of a step, not a promise.
double reference_rate(const Config& cfg, bool fused, bool gpu) {
  const bool fd = cfg.family == "fd";
  // GPU: one H200 at 256^3, 2026-12-05 (astronomix_bench FdMhdStep, FvMhdStep, FdStep, FvStep).
  if (cfg.mhd && fd) return gpu ? (fused ? 1.66e8 : 6.2e7) : (fused ? 1.45e5 : 6.9e4);  // 3D MHD blast (docs/fd_mhd.md)
  if (cfg.mhd) return gpu ? (fused ? 1.17e9 : 6.0e8) : (fused ? 2.2e6 : 0.94e6);  // 3D Orszag-Tang (docs/mhd.md)
  if (gpu) return fd ? (fused ? 4.37e8 : 9.0e7) : (fused ? 4.47e9 : 1.04e9);
  return fd ? (fused ? 5.0e5 : 2.0e5) : (fused ? 6.4e6 : 2.8e6);         // one EPYC core
}

}  // namespace

MemoryPlan plan_memory(const Config& cfg, const Grid& grid) {
  MemoryPlan p;
  p.arrays_on_device = !std::is_same_v<MemSpace, Kokkos::HostSpace>;
  p.state = state_bytes(grid, cfg.nvar(), cfg.mhd);
  p.stage_buffers = stage_buffer_count(scheme_of(cfg.integrator)) * p.state;
  p.solver = hydro_solver_planned_bytes(cfg, grid);
  p.halo = GhostExchange::planned_device_bytes(grid, cfg.nvar(), cfg.mhd);
  p.halo_host = GhostExchange::planned_host_bytes(grid, cfg.nvar(), cfg.gpu_aware_mpi, cfg.mhd);
  if (cfg.write_files) {
    // io/athdf.cpp: a host copy of the state (GPU builds), and each output
    // dataset converted over the interior.
    const std::int64_t ncell = grid.cells_local();
    const int fields = int(cfg.out_vars.size()) * NHYDRO + (cfg.mhd ? 3 : 0);  // + dataset B
    p.output_host = std::int64_t(fields) * ncell * std::int64_t(sizeof(Real));
    if (p.arrays_on_device) p.output_host += grid.array_bytes(cfg.nvar());
  }
  p.baseline_host = host_rss_bytes();
  return p;
}

MemoryCheck check_memory(const Config& cfg, const Grid& grid, const Comm& comm) {
  MemoryCheck m;
  m.plan = plan_memory(cfg, grid);
  MPI_Comm node;
  MPI_Comm_split_type(comm.cart, MPI_COMM_TYPE_SHARED, comm.rank, MPI_INFO_NULL, &node);
  MPI_Comm_size(node, &m.ranks_on_node);
  // The baseline is already resident, so MemAvailable has accounted for it.
  long long need = m.plan.host_bytes() - m.plan.baseline_host, node_need = 0;
  MPI_Allreduce(&need, &node_need, 1, MPI_LONG_LONG, MPI_SUM, node);
  m.node_host_need = node_need;
  long long avail = host_available_bytes(), node_avail = 0;
  MPI_Allreduce(&avail, &node_avail, 1, MPI_LONG_LONG, MPI_MIN, node);
  m.node_host_available = node_avail;
  std::int64_t free_b = 0, total_b = 0;
  if (device_memory_info(&free_b, &total_b)) {
    m.device_free = free_b;
    m.device_total = total_b;
    MPI_Comm gpu;  // the ranks of this node on this rank's GPU
    MPI_Comm_split(node, device_id(), comm.rank, &gpu);
    MPI_Comm_size(gpu, &m.ranks_on_device);
    long long dev = m.plan.device_bytes(), dev_sum = 0;
    MPI_Allreduce(&dev, &dev_sum, 1, MPI_LONG_LONG, MPI_SUM, gpu);
    m.device_need = dev_sum;
    MPI_Comm_free(&gpu);
  }
  MPI_Comm_free(&node);
  return m;
}

std::string describe_memory(const MemoryCheck& m, const Config& cfg, const Grid& grid, const Comm& comm) {
  const MemoryPlan& p = m.plan;
  std::ostringstream os;
  const char* where = p.arrays_on_device ? "GPU" : "host";
  os << "memory per rank (rank 0's block " << grid.nx[0] << " x " << grid.nx[1] << " x " << grid.nx[2]
     << " + ghosts), arrays on the " << where << ":\n"
     << "  conserved state        " << size_text(double(p.state)) << "\n"
     << "  stage buffers          " << size_text(double(p.stage_buffers)) << " (" << to_string(cfg.integrator)
     << ")\n"
     << "  solver arrays          " << size_text(double(p.solver)) << " (" << cfg.family << ")\n"
     << "  ghost-exchange buffers " << size_text(double(p.halo)) << "\n"
     << "  arrays in all          " << size_text(double(p.arrays())) << " ("
     << times_text(double(p.arrays()) / double(p.state)) << " the state)\n";
  if (p.halo_host > 0) os << "  host staging of halos  " << size_text(double(p.halo_host)) << "\n";
  os << "  snapshot buffers       " << size_text(double(p.output_host)) << " (host)\n"
     << "  process baseline       " << size_text(double(p.baseline_host)) << " (host, libraries and runtime)\n"
     << "  peak host memory       " << size_text(double(p.host_bytes())) << "\n";
  os << "node: " << m.ranks_on_node << " rank(s) need " << size_text(double(m.node_host_need))
     << " of host memory beyond their process baselines; available " << size_text(double(m.node_host_available));
  if (m.device_free >= 0)
    os << "\nGPU " << device_id() << ": " << m.ranks_on_device << " rank(s) need "
       << size_text(double(m.device_need)) << "; free " << size_text(double(m.device_free)) << " of "
       << size_text(double(m.device_total));
  os << "\nfits: " << (m.fits() ? "yes" : "NO (a run stops here before it starts; --no-memory-check runs it anyway)");
  // Cost: cells x stages, and a time from reference rates.
  const Scheme scheme = scheme_of(cfg.integrator);
  const bool gpu = p.arrays_on_device;
  const bool fused = planned_hydro_path(cfg, grid).fused;
  const int threads = gpu ? 1 : int(ExecSpace().concurrency());
  // Ranks sharing a GPU share its rate: count GPUs, not ranks (rank 0's
  // sharing taken as every GPU's).
  const int gpus = gpu ? std::max(1, comm.size / std::max(1, m.ranks_on_device)) : 0;
  const double rate = reference_rate(cfg, fused, gpu) * (gpu ? double(gpus) : double(comm.size) * threads);
  char workers[64];
  if (gpu) std::snprintf(workers, sizeof(workers), "%d GPU(s), %d rank(s)", gpus, comm.size);
  else std::snprintf(workers, sizeof(workers), "%d rank(s) x %d CPU thread(s)", comm.size, threads);
  char line[320];
  std::snprintf(line, sizeof(line),
                "\ncost: %lld cells x %zu stages per step; about %.3g s per step at %.2g cell-updates/s "
                "(%s %s path, %s; reference rates measured on 3D blocks of 64^3 and more, docs/performance.md: "
                "small and 1D runs take longer per cell)",
                (long long)grid.cells_global(), scheme.stages.size(), double(grid.cells_global()) / rate, rate,
                cfg.family.c_str(), fused ? "fused" : "native", workers);
  os << line;
  return os.str();
}

std::string memory_error(const MemoryCheck& m, const Config& cfg) {
  std::ostringstream os;
  os << cfg.cells_where << ": the run does not fit in memory: ";
  if (m.node_host_need > m.node_host_available)
    os << m.ranks_on_node << " rank(s) on this node need " << size_text(double(m.node_host_need))
       << " of host memory, " << size_text(double(m.node_host_available)) << " is available";
  else
    os << m.ranks_on_device << " rank(s) on GPU " << device_id() << " need " << size_text(double(m.device_need))
       << ", " << size_text(double(m.device_free)) << " is free";
  os << " (per rank: arrays " << size_text(double(m.plan.arrays())) << ", output "
     << size_text(double(m.plan.output_host)) << "); expected fewer cells, or more ranks on more nodes "
     << "(`astronomix check` prints the breakdown; --no-memory-check skips this test)";
  return os.str();
}

}  // namespace ax
