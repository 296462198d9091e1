// The memory a run will take on each rank, worked out before anything is
// allocated, and the check against what the node offers: `astronomix check`
// prints it, `astronomix run` refuses a run that cannot fit (exit 2) instead
// of dying inside the allocator.
#pragma once

#include <cstdint>
#include <string>

#include "backend/comm.hpp"
#include "backend/grid.hpp"
#include "config/config.hpp"

namespace ax {

// Bytes of one rank, by what holds them. On CPU builds the arrays are host
// memory; on GPU builds they live on the device and the host holds staging
// and output copies.
struct MemoryPlan {
  std::int64_t state = 0;          // the conserved state, ghosts included
  std::int64_t stage_buffers = 0;  // the integrator's registers besides the state
  std::int64_t solver = 0;         // the solver family's workspace and accumulators
  std::int64_t halo = 0;           // ghost-exchange buffers
  std::int64_t halo_host = 0;      // their host staging copies (GPU builds)
  std::int64_t output_host = 0;    // snapshot conversion buffers on the host
  std::int64_t baseline_host = 0;  // the process before any array (libraries, MPI, Kokkos)
  bool arrays_on_device = false;

  // What Simulation::array_bytes() reports once the run is built.
  std::int64_t arrays() const { return state + stage_buffers + solver + halo; }
  std::int64_t device_bytes() const { return arrays_on_device ? arrays() : 0; }
  // Peak resident host memory of the process.
  std::int64_t host_bytes() const {
    return baseline_host + (arrays_on_device ? 0 : arrays()) + halo_host + output_host;
  }
};

// This rank's plan. `baseline_host` is this process' resident memory now.
MemoryPlan plan_memory(const Config& cfg, const Grid& grid);

// What the ranks of this run need and what their nodes and GPUs offer
// (collective over comm).
struct MemoryCheck {
  MemoryPlan plan;                     // this rank's
  int ranks_on_node = 1;               // ranks sharing this rank's node
  std::int64_t node_host_need = 0;     // sum over those ranks (new allocations only)
  std::int64_t node_host_available = 0;
  int ranks_on_device = 0;             // ranks sharing this rank's GPU (0 without GPUs)
  std::int64_t device_need = 0;        // sum over those ranks
  std::int64_t device_free = -1, device_total = -1;
  bool fits() const {
    return node_host_need <= node_host_available && (device_free < 0 || device_need <= device_free);
  }
};

MemoryCheck check_memory(const Config& cfg, const Grid& grid, const Comm& comm);

// Human-readable report: per-rank breakdown, node and GPU, cells and an
// estimated cost per step.
// Bytes as "937.5 KiB", "1.4 GiB".
std::string size_text(double bytes);

std::string describe_memory(const MemoryCheck& m, const Config& cfg, const Grid& grid, const Comm& comm);

// The config error a run that does not fit gets (file:line of mesh.cells).
std::string memory_error(const MemoryCheck& m, const Config& cfg);

}  // namespace ax
