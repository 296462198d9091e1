// Memory use and what the machine offers, for the run summary, the
// benchmarks and the memory check before a run allocates.
#pragma once

#include <cstdint>

namespace ax {

// Peak resident set size of this process (bytes).
std::int64_t host_peak_rss_bytes();

// Resident set size of this process right now (bytes).
std::int64_t host_rss_bytes();

// Host memory a process can still take: MemAvailable, lowered to what the
// cgroup (container or batch job) leaves when it sets a limit.
std::int64_t host_available_bytes();

// Bytes in use on the GPU of this process right now (all processes on the
// device, as the driver reports it), or -1 without a GPU backend.
std::int64_t device_memory_used_bytes();

// Free and total bytes of this process' GPU; false without a GPU backend.
bool device_memory_info(std::int64_t* free_bytes, std::int64_t* total_bytes);

// Which GPU this process uses (-1 without a GPU backend).
int device_id();

}  // namespace ax
