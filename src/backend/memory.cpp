#include "backend/memory.hpp"

#include <sys/resource.h>

#include <Kokkos_Core.hpp>
#ifdef KOKKOS_ENABLE_CUDA
#include <cuda_runtime_api.h>
#endif

namespace ax {

std::int64_t host_peak_rss_bytes() {
  struct rusage r;
  getrusage(RUSAGE_SELF, &r);
  return std::int64_t(r.ru_maxrss) * 1024;  // Linux reports kilobytes
}

std::int64_t device_memory_used_bytes() {
#ifdef KOKKOS_ENABLE_CUDA
  std::size_t free_b = 0, total_b = 0;
  if (cudaMemGetInfo(&free_b, &total_b) != cudaSuccess) return -1;
  return std::int64_t(total_b - free_b);
#else
  return -1;
#endif
}

}  // namespace ax
