// Division of non-negative 31-bit integers by a divisor fixed at launch, as
// a multiplication and a shift (Granlund & Montgomery 1994): the flat GPU
// loops (backend/loops.hpp) turn each thread's index into (k, j, i) with
// two such divisions. Why: a GPU has no integer divider; nvcc turns n / d
// for a run-time d into a reciprocal and corrections (about twenty
// instructions, more for 64-bit operands), which every thread of a
// memory-bound kernel runs before it can form its first address.
#pragma once

#include <cstdint>
#include <stdexcept>

#include "backend/types.hpp"

namespace ax {

class FastDiv {
 public:
  FastDiv() = default;
  // With l = ceil(log2 d) and m = floor(2^(31 + l) / d) + 1, m d lies in
  // (2^(31 + l), 2^(31 + l) + 2^l], so floor(n m / 2^(31 + l)) = floor(n / d)
  // for every 0 <= n < 2^31 (their Theorem 4.2 with N = 31); m <= 2^32, so
  // n m < 2^63.
  explicit FastDiv(int d) : d_(d) {
    if (d < 1) throw std::logic_error("FastDiv: the divisor must be positive");
    int l = 0;
    while ((std::int64_t(1) << l) < d) ++l;
    shift_ = 31 + l;
    m_ = ((std::uint64_t(1) << shift_) / std::uint64_t(d)) + 1;
  }
  // n / d for 0 <= n < 2^31.
  KOKKOS_FORCEINLINE_FUNCTION int div(int n) const { return int((std::uint64_t(n) * m_) >> shift_); }
  KOKKOS_FORCEINLINE_FUNCTION int divisor() const { return d_; }

 private:
  std::uint64_t m_ = 0;
  int shift_ = 0;
  int d_ = 1;
};

// A flat index over the cells of a box, i fastest, turned into the cell's
// (k, j, i): with FastDiv while the box has fewer than 2^31 cells (every
// block a GPU's memory holds: 2^31 cells of the hydro state alone take 86
// GB), with 64-bit divisions beyond. The branch is the same for every
// thread of a launch, and the kernel body is compiled once.
class FlatBoxIndex {
 public:
  FlatBoxIndex() = default;
  FlatBoxIndex(int kb, int jb, int ib, int nk, int nj, int ni) : kb_(kb), jb_(jb), ib_(ib), ni_(ni) {
    if (nk <= 0 || nj <= 0 || ni <= 0) return;  // an empty box: no index to turn
    nji_ = std::int64_t(nj) * ni;
    fast_ = nji_ * nk < (std::int64_t(1) << 31);
    if (fast_) {
      plane_ = FastDiv(int(nji_));
      row_ = FastDiv(ni);
    }
  }

  KOKKOS_FORCEINLINE_FUNCTION void cell(std::int64_t idx, int& k, int& j, int& i) const {
    if (fast_) {
      const int n = int(idx);
      const int kk = plane_.div(n);
      const int r = n - kk * int(nji_);
      const int jj = row_.div(r);
      k = kb_ + kk;
      j = jb_ + jj;
      i = ib_ + (r - jj * ni_);
    } else {
      const int kk = int(idx / nji_);
      const std::int64_t r = idx - std::int64_t(kk) * nji_;
      const int jj = int(r / ni_);
      k = kb_ + kk;
      j = jb_ + jj;
      i = ib_ + int(r - std::int64_t(jj) * ni_);
    }
  }

 private:
  FastDiv plane_, row_;
  std::int64_t nji_ = 1;
  int kb_ = 0, jb_ = 0, ib_ = 0, ni_ = 1;
  bool fast_ = false;
};

}  // namespace ax
