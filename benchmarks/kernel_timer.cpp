// A Kokkos Tools library that times every kernel, fence and deep copy by
// its label on the host, and the host time between them, and prints the
// totals when Kokkos finalizes. Why our own: the H200 machine has Nsight
// Compute but no Nsight Systems, Kokkos Tools' own timers are not packaged,
// and Nsight Compute times kernels one at a time with the GPU idle in
// between, which cannot show whether a step's kernels add up to its wall
// time.
//
//   CUDA_LAUNCH_BLOCKING=1 KOKKOS_TOOLS_LIBS=build/benchmarks/libastronomix_kernel_timer.so \
//     build/benchmarks/astronomix_bench --benchmark_filter=FdMhdStep/fused_lsrk4/256/
//
// With CUDA_LAUNCH_BLOCKING=1 a kernel's time is its run on the device
// (plus a launch, a few microseconds); without it, launches return at once
// and the waits show up in the fences. Kokkos 3.x reads the library from
// KOKKOS_PROFILE_LIBRARY instead. AX_TIMER_IDLE_US=n sleeps n microseconds
// after every kernel, so that the GPU idles between kernels (does a kernel
// run slower under sustained load?).
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

namespace {

struct Total {
  double seconds = 0;
  long count = 0;
};

struct Open {
  std::string label;
  double start;
};

std::map<std::string, Total> inside;   // by label
std::map<std::string, Total> between;  // host time from one outermost region to the next, by the pair
std::vector<Open> open;                // regions begun and not ended (a deep copy may fence inside)
std::string last_label = "(start)";
double last_end = 0;
long idle_us = 0;

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

void begin(std::string label, std::uint64_t* id) {
  const double t = now();
  if (open.empty()) {
    Total& g = between[last_label + " -> " + label];
    g.seconds += t - last_end;
    ++g.count;
  }
  *id = open.size();
  open.push_back({std::move(label), t});
}

void end() {
  const double t = now();
  if (open.empty()) return;
  const Open o = open.back();
  open.pop_back();
  Total& r = inside[o.label];
  r.seconds += t - o.start;
  ++r.count;
  const bool kernel = o.label.rfind("for ", 0) == 0 || o.label.rfind("reduce ", 0) == 0 || o.label.rfind("scan ", 0) == 0;
  if (kernel && idle_us > 0) usleep(useconds_t(idle_us));
  if (open.empty()) {
    last_end = now();
    last_label = o.label;
  }
}

void print(const char* title, const std::map<std::string, Total>& m, std::size_t rows) {
  std::vector<std::pair<std::string, Total>> v(m.begin(), m.end());
  std::sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.second.seconds > b.second.seconds; });
  double sum = 0;
  for (const auto& x : v) sum += x.second.seconds;
  std::printf("== kernel timer, %s: %.3f s\n", title, sum);
  for (std::size_t i = 0; i < v.size() && i < rows; ++i)
    std::printf("%10.3f ms %8ld x %10.1f us  %s\n", v[i].second.seconds * 1e3, v[i].second.count,
                v[i].second.seconds / double(v[i].second.count) * 1e6, v[i].first.c_str());
}

}  // namespace

// The Kokkos Tools entry points (Kokkos looks them up by these names).
extern "C" {

struct SpaceHandle {
  char name[64];
};

void kokkosp_init_library(int, std::uint64_t, std::uint32_t, void*) {
  const char* idle = std::getenv("AX_TIMER_IDLE_US");
  idle_us = idle ? std::atol(idle) : 0;
  last_end = now();
}

void kokkosp_finalize_library() {
  print("inside kernels, fences and copies", inside, 30);
  print("host time between them", between, 15);
  std::fflush(stdout);
}

void kokkosp_begin_parallel_for(const char* name, std::uint32_t, std::uint64_t* id) { begin(std::string("for ") + name, id); }
void kokkosp_end_parallel_for(std::uint64_t) { end(); }
void kokkosp_begin_parallel_reduce(const char* name, std::uint32_t, std::uint64_t* id) { begin(std::string("reduce ") + name, id); }
void kokkosp_end_parallel_reduce(std::uint64_t) { end(); }
void kokkosp_begin_parallel_scan(const char* name, std::uint32_t, std::uint64_t* id) { begin(std::string("scan ") + name, id); }
void kokkosp_end_parallel_scan(std::uint64_t) { end(); }
void kokkosp_begin_fence(const char* name, std::uint32_t, std::uint64_t* id) { begin(std::string("fence ") + name, id); }
void kokkosp_end_fence(std::uint64_t) { end(); }

void kokkosp_begin_deep_copy(SpaceHandle dst, const char* dst_name, const void*, SpaceHandle src, const char* src_name,
                             const void*, std::uint64_t) {
  std::uint64_t id;
  begin(std::string("deep_copy ") + src.name + " " + src_name + " -> " + dst.name + " " + dst_name, &id);
}
void kokkosp_end_deep_copy() { end(); }

}  // extern "C"
