// The loop wrappers' index arithmetic (backend/loops.hpp, backend/fast_div.hpp):
// FastDiv against the integer division, every cell of a box visited once,
// and the start-up check that kernels see one-dimensional Views as the host
// made them (backend/device_check.hpp).
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "backend/device_check.hpp"
#include "backend/fast_div.hpp"
#include "backend/loops.hpp"

namespace ax {
namespace {

constexpr std::int64_t kTwo31 = std::int64_t(1) << 31;

// Dividends where a multiply-and-shift division goes wrong first: the ends
// of the range and the multiples of d and their neighbours near 2^31.
std::vector<int> hard_dividends(int d) {
  const std::int64_t dd = d;
  std::vector<std::int64_t> c = {0, 1, 2, dd - 1, dd, dd + 1, 2 * dd - 1, 2 * dd, kTwo31 - 1, kTwo31 - 2};
  const std::int64_t top = (kTwo31 - 1) / dd * dd;  // the largest multiple of d below 2^31
  for (std::int64_t q = top; q > top - 64 * dd && q >= dd; q -= dd)
    for (std::int64_t e : {-1, 0, 1}) c.push_back(q + e);
  std::vector<int> n;
  for (std::int64_t x : c)
    if (x >= 0 && x < kTwo31) n.push_back(int(x));
  return n;
}

TEST(Loops, FastDivMatchesDivision) {
  std::vector<int> divisors = {1, 2, 3, 5, 6, 7, 9, 10, 12, 17, 31, 32, 33, 36, 100, 127, 128, 129, 255, 256, 257,
                               260, 641, 1000, 4096, 6700417, 65535, 65536, 65537, 67600, 16777216, 1 << 30,
                               (1 << 30) + 1, int(kTwo31 - 1), int(kTwo31 - 2)};
  std::mt19937_64 rng(12345);
  for (int t = 0; t < 200; ++t) divisors.push_back(int(rng() % (kTwo31 - 1)) + 1);
  for (int t = 0; t < 200; ++t) divisors.push_back(int(rng() % 100000) + 1);  // the sizes of real rows and planes
  long long checked = 0, bad = 0;
  for (int d : divisors) {
    const FastDiv fd(d);
    ASSERT_EQ(fd.divisor(), d);
    std::vector<int> n = hard_dividends(d);
    for (int t = 0; t < 2000; ++t) n.push_back(int(rng() % kTwo31));
    for (int x : n) {
      ++checked;
      if (fd.div(x) != x / d) {
        if (++bad <= 5) ADD_FAILURE() << x << " / " << d << ": " << fd.div(x) << " instead of " << x / d;
      }
    }
  }
  // Every dividend below 2^22 for a few row and plane sizes.
  for (int d : {3, 7, 260, 67600}) {
    const FastDiv fd(d);
    for (int x = 0; x < (1 << 22); ++x)
      if (fd.div(x) != x / d && ++bad <= 10) ADD_FAILURE() << x << " / " << d;
    checked += 1 << 22;
  }
  EXPECT_EQ(bad, 0) << "of " << checked;
  EXPECT_THROW(FastDiv(0), std::logic_error);
}

// Each cell of box b, at offsets from the array's origin, gets the number of
// times the loop visited it; the others stay 0.
std::vector<int> visits(const Box& b, int nk, int nj, int ni, bool as_boxes) {
  Kokkos::View<int***, MemSpace> count("visits", nk, nj, ni);
  auto f = KOKKOS_LAMBDA(int k, int j, int i) { Kokkos::atomic_add(&count(k, j, i), 1); };
  if (as_boxes) {
    // The same box as three slabs along k, launched together.
    const int k1 = b.kb + (b.ke - b.kb) / 3, k2 = b.kb + 2 * (b.ke - b.kb) / 3;
    Box s0 = b, s1 = b, s2 = b;
    s0.ke = k1;
    s1.kb = k1;
    s1.ke = k2;
    s2.kb = k2;
    par_for_boxes("visits_boxes", {s0, s1, s2}, f);
  } else {
    par_for("visits", b, f);
  }
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), count);
  std::vector<int> out;
  for (int k = 0; k < nk; ++k)
    for (int j = 0; j < nj; ++j)
      for (int i = 0; i < ni; ++i) out.push_back(h(k, j, i));
  return out;
}

TEST(Loops, EveryCellOnce) {
  const int nk = 9, nj = 13, ni = 37;
  for (bool as_boxes : {false, true}) {
    Box b;
    b.kb = 2, b.ke = 8, b.jb = 1, b.je = 12, b.ib = 3, b.ie = 36;  // rows of 33, planes of 363
    const std::vector<int> v = visits(b, nk, nj, ni, as_boxes);
    int wrong = 0;
    for (int k = 0; k < nk; ++k)
      for (int j = 0; j < nj; ++j)
        for (int i = 0; i < ni; ++i) {
          const bool inside = k >= b.kb && k < b.ke && j >= b.jb && j < b.je && i >= b.ib && i < b.ie;
          wrong += v[std::size_t((k * nj + j) * ni + i)] != (inside ? 1 : 0);
        }
    EXPECT_EQ(wrong, 0) << (as_boxes ? "par_for_boxes" : "par_for");
  }
}

// On a Kokkos build with the fault (Kokkos 4.6.99's mdspan View, nvcc 13.0,
// C++20) this fails with the check's message, which names the remedy.
TEST(Loops, KernelsWriteOneDimensionalViews) { EXPECT_EQ(device_view_check(), ""); }

}  // namespace
}  // namespace ax
