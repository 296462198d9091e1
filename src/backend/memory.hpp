// Memory use, for the run summary and the benchmarks.
#pragma once

#include <cstdint>

namespace ax {

// Peak resident set size of this process (bytes).
std::int64_t host_peak_rss_bytes();

// Bytes in use on the GPU of this process right now (all processes on the
// device, as the driver reports it), or -1 without a GPU backend.
std::int64_t device_memory_used_bytes();

}  // namespace ax
