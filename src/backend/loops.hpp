// Loop wrappers: kernels are written once as f(k, j, i) and the execution
// policy is chosen here, in one place (as AthenaK's par_for and Idefix's
// idefix_for).
//
// GPU: one flat index decomposed into (k, j, i) with i fastest, so that
// neighbouring threads touch neighbouring memory.
// Host: the (k, j) rows are shared among threads and each thread walks i in
// an inner loop the compiler can vectorise.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "backend/fast_div.hpp"
#include "backend/types.hpp"

namespace ax {

// Half-open index box [kb, ke) x [jb, je) x [ib, ie).
struct Box {
  int kb = 0, ke = 1, jb = 0, je = 1, ib = 0, ie = 1;
  std::int64_t size() const {
    return std::int64_t(ke - kb) * (je - jb) * (ie - ib);
  }
  bool empty() const { return ke <= kb || je <= jb || ie <= ib; }
};

// The flat GPU index of box b's cells (i fastest) as (k, j, i).
inline FlatBoxIndex flat_index(const Box& b) {
  return FlatBoxIndex(b.kb, b.jb, b.ib, b.ke - b.kb, b.je - b.jb, b.ie - b.ib);
}

// A count a kernel reduces into on the device, so that its launch need not
// wait for the result (Kokkos::Sum<long long, MemSpace>).
using DeviceCount = Kokkos::View<long long, MemSpace>;
// The same for a value (par_max).
using DeviceReal = Kokkos::View<Real, MemSpace>;

#if defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP) || \
    defined(KOKKOS_ENABLE_SYCL)
#define ASTRONOMIX_FLAT_LOOPS 1
#endif

// Loops over a row of faces or cells that the host compiler should
// vectorise (structure-of-arrays scratch rows in the CPU sweeps); a no-op
// for device code and without OpenMP.
#if defined(ASTRONOMIX_FLAT_LOOPS) || !defined(_OPENMP)
#define ASTRONOMIX_SIMD
#else
#define ASTRONOMIX_SIMD _Pragma("omp simd")
#endif
// The same for loop bodies with local arrays passed to inlined functions
// (the MHD Riemann solvers): GCC's `omp simd` gives such arrays one copy per
// lane in memory and then cannot vectorise them, while its auto-vectoriser,
// told that the iterations are independent, keeps them in registers.
#if defined(ASTRONOMIX_FLAT_LOOPS)
#define ASTRONOMIX_IVDEP
#elif defined(__clang__)
#define ASTRONOMIX_IVDEP _Pragma("clang loop vectorize(enable)")
#elif defined(__GNUC__)
#define ASTRONOMIX_IVDEP _Pragma("GCC ivdep")
#else
#define ASTRONOMIX_IVDEP
#endif
// Inline every call in a host function's body (its loop over faces then
// vectorises); device code is inlined by its compiler anyway.
#if !defined(ASTRONOMIX_FLAT_LOOPS) && (defined(__GNUC__) || defined(__clang__))
#define ASTRONOMIX_FLATTEN __attribute__((flatten))
#else
#define ASTRONOMIX_FLATTEN
#endif

// MIN_BLOCKS > 0 asks the GPU compiler to fit that many blocks of 256
// threads per multiprocessor (__launch_bounds__), trading registers for
// occupancy.
template <int MIN_BLOCKS>
using LaunchBoundsFor =
    std::conditional_t<MIN_BLOCKS == 0, Kokkos::LaunchBounds<>, Kokkos::LaunchBounds<256, MIN_BLOCKS>>;

template <int MIN_BLOCKS = 0, class F>
void par_for(const char* name, const Box& b, const F& f) {
  if (b.empty()) return;
#ifdef ASTRONOMIX_FLAT_LOOPS
  const FlatBoxIndex at = flat_index(b);
  Kokkos::parallel_for(
      name, Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>, LaunchBoundsFor<MIN_BLOCKS>>(0, b.size()),
      KOKKOS_LAMBDA(const std::int64_t idx) {
        int k, j, i;
        at.cell(idx, k, j, i);
        f(k, j, i);
      });
#else
  const int nj = b.je - b.jb;
  const int kb = b.kb, jb = b.jb, ib = b.ib, ie = b.ie;
  Kokkos::parallel_for(
      name, Kokkos::RangePolicy<ExecSpace>(0, (b.ke - b.kb) * nj),
      KOKKOS_LAMBDA(const int kj) {
        const int k = kb + kj / nj;
        const int j = jb + kj % nj;
        for (int i = ib; i < ie; ++i) f(k, j, i);
      });
#endif
}

// par_for over several boxes (at most kMaxBoxes) in one launch on GPUs:
// for thin boxes (a layer of cells one thick) of which none fills the GPU
// alone; on CPUs one after the other.
constexpr int kMaxBoxes = 6;
// (A type a device lambda captures may not be local to a function.)
struct BoxList {
  FlatBoxIndex at[kMaxBoxes];
  std::int64_t start[kMaxBoxes + 1];  // first flat index of each box; the total last
  int n;
};
template <int MIN_BLOCKS = 0, class F>
void par_for_boxes(const char* name, const std::vector<Box>& boxes, const F& f) {
#ifdef ASTRONOMIX_FLAT_LOOPS
  BoxList all{};
  all.start[0] = 0;
  for (const Box& b : boxes) {
    if (b.empty()) continue;
    if (all.n == kMaxBoxes) throw std::logic_error("par_for_boxes: more than kMaxBoxes boxes");
    all.at[all.n] = flat_index(b);
    all.start[all.n + 1] = all.start[all.n] + b.size();
    ++all.n;
  }
  if (all.n == 0) return;
  Kokkos::parallel_for(
      name,
      Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>, LaunchBoundsFor<MIN_BLOCKS>>(0, all.start[all.n]),
      KOKKOS_LAMBDA(const std::int64_t idx) {
        int q = 0;
        while (q + 1 < all.n && idx >= all.start[q + 1]) ++q;
        int k, j, i;
        all.at[q].cell(idx - all.start[q], k, j, i);
        f(k, j, i);
      });
#else
  for (const Box& b : boxes) par_for<MIN_BLOCKS>(name, b, f);
#endif
}

// Same box, plus an outer variable index n in [0, nvar).
template <class F>
void par_for_vars(const char* name, int nvar, const Box& b, const F& f) {
  Box all = b;
  const int nk = b.ke - b.kb;
  all.kb = 0;
  all.ke = nvar * nk;
  const int kb = b.kb;
  par_for(name, all, KOKKOS_LAMBDA(int nk_, int j, int i) {
    f(nk_ / nk, kb + nk_ % nk, j, i);
  });
}

// Reduction over a box with a Kokkos reducer built from `result`
// (Kokkos::Min<Real>, Kokkos::Sum<long>, ...); MIN_BLOCKS as for par_for.
template <int MIN_BLOCKS = 0, class Reducer, class F>
void par_reduce(const char* name, const Box& b, const F& f, const Reducer& reducer) {
#ifdef ASTRONOMIX_FLAT_LOOPS
  const FlatBoxIndex at = flat_index(b);
  using Bounds = LaunchBoundsFor<MIN_BLOCKS>;
  Kokkos::parallel_reduce(
      name, Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>, Bounds>(0, b.empty() ? 0 : b.size()),
      KOKKOS_LAMBDA(const std::int64_t idx, typename Reducer::value_type& acc) {
        int k, j, i;
        at.cell(idx, k, j, i);
        f(k, j, i, acc);
      },
      reducer);
#else
  const int nj = b.je - b.jb;
  const int kb = b.kb, jb = b.jb, ib = b.ib, ie = b.ie;
  Kokkos::parallel_reduce(
      name, Kokkos::RangePolicy<ExecSpace>(0, b.empty() ? 0 : (b.ke - b.kb) * nj),
      KOKKOS_LAMBDA(const int kj, typename Reducer::value_type& acc) {
        const int k = kb + kj / nj;
        const int j = jb + kj % nj;
        for (int i = ib; i < ie; ++i) f(k, j, i, acc);
      },
      reducer);
#endif
}

// One device scalar of view type V a process (par_max's value, par_count's
// count), created on first use and released when Kokkos finalizes (a View
// must not outlive it).
template <class V>
V process_scalar(const char* label) {
  static V* v = nullptr;
  if (!v) {
    v = new V(std::string(label));
    Kokkos::push_finalize_hook([] {
      delete v;
      v = nullptr;
    });
  }
  return *v;
}

// The largest f(k, j, i) over the cells of box b (values >= `floor`, which
// an empty box returns; a NaN value is passed over, so f maps what must not
// be, as hydro/cfl.hpp's broken cells, to a number). On GPUs teams of 256 threads take 1024 cells each,
// reduce them in the team and fold the result in with one atomic max:
// Kokkos's own reduction launches one thread a resident slot, each walking
// its cells one after another: the time-step reduction of a 256^3 step on
// the H200 took 0.257 ms for hydro and 0.437 ms for MHD that way, 0.220
// and 0.386 ms this way. The maximum is exact, so any order gives the same
// bits. On CPUs the Kokkos reduction.
template <class F>
Real par_max(const char* name, const Box& b, Real floor, const F& f) {
  Real result = floor;
  if (b.empty()) return result;
#ifdef ASTRONOMIX_FLAT_LOOPS
  constexpr int kThreads = 256, kCells = 4 * kThreads;
  using Team = Kokkos::TeamPolicy<ExecSpace>::member_type;
  const std::int64_t n = b.size();
  const FlatBoxIndex at = flat_index(b);
  const DeviceReal out = process_scalar<DeviceReal>("par_max");
  Kokkos::deep_copy(ExecSpace(), out, floor);
  const int league = int((n + kCells - 1) / kCells);
  Kokkos::parallel_for(name, Kokkos::TeamPolicy<ExecSpace>(league, kThreads), KOKKOS_LAMBDA(const Team& team) {
    const std::int64_t first = std::int64_t(team.league_rank()) * kCells;
    const int count = int(n - first < kCells ? n - first : kCells);
    Real team_max = floor;
    Kokkos::parallel_reduce(Kokkos::TeamThreadRange(team, count), [&](int c, Real& m) {
      int k, j, i;
      at.cell(first + c, k, j, i);
      const Real v = f(k, j, i);
      m = v > m ? v : m;
    }, Kokkos::Max<Real>(team_max));
    Kokkos::single(Kokkos::PerTeam(team), [&]() { Kokkos::atomic_fetch_max(&out(), team_max); });
  });
  Kokkos::deep_copy(result, out);
#else
  par_reduce(name, b, KOKKOS_LAMBDA(int k, int j, int i, Real& m) {
    const Real v = f(k, j, i);
    m = v > m ? v : m;
  }, Kokkos::Max<Real>(result));
  result = result > floor ? result : floor;
#endif
  return result;
}

// The number of cells of box b for which f(k, j, i) returns true (where a
// floor was needed). On GPUs a par_for that adds with an atomic where f is
// true, which is rare, then one read of the count: a Kokkos reduction of the
// same memory-bound body ran slower on the H200 (the end of an FD MHD
// stage at 256^3: 1.37 ms against 1.05 ms), as it launches one thread a
// resident slot and each walks ~60 cells one after another. On CPUs the
// reduction.
template <class F>
void par_count_into(const char* name, const Box& b, const DeviceCount& count, const F& f);

template <class F>
long long par_count(const char* name, const Box& b, const F& f) {
  long long n = 0;
#ifdef ASTRONOMIX_FLAT_LOOPS
  if (b.empty()) return 0;
  const DeviceCount count = process_scalar<DeviceCount>("par_count");
  Kokkos::deep_copy(ExecSpace(), count, 0LL);
  par_count_into(name, b, count, f);
  Kokkos::deep_copy(n, count);
#else
  par_reduce(name, b, KOKKOS_LAMBDA(int k, int j, int i, long long& acc) {
    if (f(k, j, i)) ++acc;
  }, Kokkos::Sum<long long>(n));
#endif
  return n;
}

// The count a device counter holds, which it gives up (set to 0 where it
// was not). Waits for the kernels that add to it.
inline long long take_count(const DeviceCount& count) {
  long long n = 0;
  Kokkos::deep_copy(n, count);
  if (n != 0) Kokkos::deep_copy(count, 0LL);
  return n;
}

// par_count without the read: adds the count to the device counter
// `count`, and on a GPU returns without waiting for the kernel (the solvers
// that count floors this way are read once, where the count is reported:
// Simulation::collect_floor_hits).
template <class F>
void par_count_into(const char* name, const Box& b, const DeviceCount& count, const F& f) {
  if (b.empty()) return;
#ifdef ASTRONOMIX_FLAT_LOOPS
  par_for(name, b, KOKKOS_LAMBDA(int k, int j, int i) {
    if (f(k, j, i)) Kokkos::atomic_add(&count(), 1LL);
  });
#else
  long long n = 0;
  par_reduce(name, b, KOKKOS_LAMBDA(int k, int j, int i, long long& acc) {
    if (f(k, j, i)) ++acc;
  }, Kokkos::Sum<long long>(n));
  if (n) count() += n;  // host memory without a GPU
#endif
}

}  // namespace ax
