#include "backend/memory.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <fstream>
#include <Kokkos_Core.hpp>
#include <limits>
#include <sstream>
#include <string>
#ifdef KOKKOS_ENABLE_CUDA
#include <cuda_runtime_api.h>
#endif

namespace ax {

namespace {

// First number after `key` in a "key value [kB]" file such as /proc/meminfo;
// -1 if absent.
std::int64_t field_of(const char* path, const std::string& key, std::int64_t unit) {
  std::ifstream f(path);
  std::string line;
  while (std::getline(f, line)) {
    std::istringstream is(line);
    std::string k;
    std::int64_t v;
    if (is >> k >> v && k == key) return v * unit;
  }
  return -1;
}

// A single number in a file (cgroup limits and usage); -1 if absent or "max".
std::int64_t number_in(const char* path) {
  std::ifstream f(path);
  std::string s;
  if (!(f >> s) || s == "max") return -1;
  try {
    return std::stoll(s);
  } catch (...) {
    return -1;
  }
}

}  // namespace

std::int64_t host_peak_rss_bytes() {
  struct rusage r;
  getrusage(RUSAGE_SELF, &r);
  return std::int64_t(r.ru_maxrss) * 1024;  // Linux reports kilobytes
}

std::int64_t host_rss_bytes() { return field_of("/proc/self/status", "VmRSS:", 1024); }

std::int64_t host_available_bytes() {
  std::int64_t avail = field_of("/proc/meminfo", "MemAvailable:", 1024);
  if (avail < 0) avail = std::numeric_limits<std::int64_t>::max();
  // cgroup v2, then v1: a container sees the host's /proc/meminfo.
  const std::int64_t max2 = number_in("/sys/fs/cgroup/memory.max");
  const std::int64_t cur2 = number_in("/sys/fs/cgroup/memory.current");
  if (max2 > 0 && cur2 >= 0) avail = std::min(avail, std::max<std::int64_t>(max2 - cur2, 0));
  const std::int64_t max1 = number_in("/sys/fs/cgroup/memory/memory.limit_in_bytes");
  const std::int64_t cur1 = number_in("/sys/fs/cgroup/memory/memory.usage_in_bytes");
  // v1 reports "no limit" as a huge page-rounded number.
  if (max1 > 0 && max1 < (std::int64_t(1) << 60) && cur1 >= 0)
    avail = std::min(avail, std::max<std::int64_t>(max1 - cur1, 0));
  return avail;
}

std::int64_t device_memory_used_bytes() {
  std::int64_t free_b = 0, total_b = 0;
  if (!device_memory_info(&free_b, &total_b)) return -1;
  return total_b - free_b;
}

bool device_memory_info(std::int64_t* free_bytes, std::int64_t* total_bytes) {
#ifdef KOKKOS_ENABLE_CUDA
  std::size_t free_b = 0, total_b = 0;
  if (cudaMemGetInfo(&free_b, &total_b) != cudaSuccess) return false;
  *free_bytes = std::int64_t(free_b);
  *total_bytes = std::int64_t(total_b);
  return true;
#else
  (void)free_bytes;
  (void)total_bytes;
  return false;
#endif
}

int device_id() {
#ifdef KOKKOS_ENABLE_CUDA
  int d = -1;
  if (cudaGetDevice(&d) != cudaSuccess) return -1;
  return d;
#else
  return -1;
#endif
}

}  // namespace ax
