// Global sums over the interior cells that give the same bits on any number
// of ranks, threads or GPU blocks: the totals of the history file.
//
// A floating-point sum depends on the order of its additions, and the order
// follows the decomposition, so a history's mass on 4 ranks differed from the
// 1-rank run's in the last bits. Here every value is cut, exactly, into
// integer digits of a fixed-point grid that all ranks agree on (its top the
// power of two above the largest |value| anywhere; a digit's width leaves
// room for the cell count's carries), and the digits are summed as integers,
// which is associative: no order can change the result.
// The idea is the pre-rounding of Demmel & Nguyen's reproducible summation
// (ReproBLAS), with integer rather than floating accumulators.
//
// Cost: two passes over the values (their maxima, then their digits) and two
// small MPI reductions; once a history row.
#pragma once

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>

#include "backend/comm.hpp"
#include "backend/grid.hpp"
#include "backend/loops.hpp"

namespace ax {

namespace reproducible {

// Integer digits a value is cut into; each holds digit_bits(cells) bits, so
// three give 111 bits below the top at 256^3 and 93 at 1024^3: what they drop,
// summed over the cells, is below 2^-63 of the largest |value|. (A fourth
// digit made a history row 25% dearer on a CPU core, for nothing a double
// can hold.)
constexpr int kDigits = 3;

// Bits a digit holds so that the sum of `cells` digits cannot overflow.
int digit_bits(std::int64_t cells);

// An array of n values reduced element by element (Op: sum or max).
template <class T, int n>
struct Values {
  T v[n];
};

struct SumOp {
  template <class T>
  KOKKOS_INLINE_FUNCTION static void join(T& d, const T& s) {
    d += s;
  }
  template <class T>
  KOKKOS_INLINE_FUNCTION static T identity() {
    return T(0);
  }
};
struct MaxOp {
  template <class T>
  KOKKOS_INLINE_FUNCTION static void join(T& d, const T& s) {
    d = s > d ? s : d;
  }
  template <class T>
  KOKKOS_INLINE_FUNCTION static T identity() {
    return T(-HUGE_VAL);
  }
};

// A Kokkos reducer of Values<T, n>, the shape of Kokkos::Sum.
template <class T, int n, class Op>
struct ValuesReducer {
  using reducer = ValuesReducer;
  using value_type = Values<T, n>;
  using result_view_type = Kokkos::View<value_type, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>;
  result_view_type value;

  explicit ValuesReducer(value_type& v) : value(&v) {}
  KOKKOS_INLINE_FUNCTION void join(value_type& d, const value_type& s) const {
    for (int q = 0; q < n; ++q) Op::join(d.v[q], s.v[q]);
  }
#if KOKKOS_VERSION < 40000
  // Kokkos 3 joins through volatile references in some back ends.
  KOKKOS_INLINE_FUNCTION void join(volatile value_type& d, const volatile value_type& s) const {
    for (int q = 0; q < n; ++q) {
      T a = d.v[q];
      Op::join(a, T(s.v[q]));
      d.v[q] = a;
    }
  }
#endif
  KOKKOS_INLINE_FUNCTION void init(value_type& v) const {
    for (int q = 0; q < n; ++q) v.v[q] = Op::template identity<T>();
  }
  KOKKOS_INLINE_FUNCTION value_type& reference() const {
    return *value.data();
  }
  KOKKOS_INLINE_FUNCTION result_view_type view() const {
    return value;
  }
  KOKKOS_INLINE_FUNCTION bool references_scalar() const {
    return true;
  }
};

// |x|, or +infinity where x is not finite (NaN included), so that the maximum
// says whether any value was.
KOKKOS_INLINE_FUNCTION double magnitude(double x) {
  const double a = x < 0 ? -x : x;
  return a <= DBL_MAX ? a : HUGE_VAL;  // macros: std::numeric_limits is host-only in CUDA
}

// Adds x's digits to d[0..kDigits): x = top * sum_l d[l] radix^-(l + 1),
// radix = 2^bits, the remainder below the last digit dropped. Every step is
// exact: scaling by a power of two, and splitting a double into its integer
// and fractional parts.
KOKKOS_INLINE_FUNCTION void add_digits(double x, double inv_top, double radix, std::int64_t* d) {
  double y = x * inv_top;  // |y| < 1
  for (int l = 0; l < kDigits; ++l) {
    y *= radix;
    const std::int64_t whole = std::int64_t(y);  // toward zero; |y| < 2^62
    d[l] += whole;
    y -= double(whole);
  }
}

// Exponent e with |x| < 2^e for every x of a quantity whose global maximum
// magnitude is m (finite, > 0); the top of its digit grid is 2^e.
int top_exponent(double m);

// The value of summed digits (the sums of every rank's): carries first, then
// one conversion in a fixed order, so every rank gets the same bits.
double digits_to_value(const std::int64_t* digits, int top_exp, int bits);

void global_max(const Comm& c, double* m, int n);
void global_sum(const Comm& c, std::int64_t* d, int n);

}  // namespace reproducible

// out[q] = sum over the interior cells of every rank of v[q], where
// value(k, j, i, v) fills v[0 .. n + n_max), the same bits for any
// decomposition; a quantity with a value that is not finite sums to NaN.
// maxima[q] = the largest v[n + q] (a minimum as the largest negative), taken
// in the same pass as the magnitudes, so a history row reads the state twice.
template <int n, int n_max = 0, class F>
void reproducible_sums(const Comm& c, const Grid& g, const F& value, double out[n],
                       double* maxima = nullptr) {
  using namespace reproducible;
  constexpr int all = n + n_max;
  Values<double, all> max_local;
  par_reduce(
      "sum_magnitudes", g.interior(),
      KOKKOS_LAMBDA(int k, int j, int i, Values<double, all>& acc) {
        double v[all];
        value(k, j, i, v);
        for (int q = 0; q < n; ++q) MaxOp::join(acc.v[q], magnitude(v[q]));
        for (int q = n; q < all; ++q) MaxOp::join(acc.v[q], v[q]);
      },
      ValuesReducer<double, all, MaxOp>(max_local));
  double m[all];
  for (int q = 0; q < all; ++q) m[q] = max_local.v[q];
  global_max(c, m, all);
  for (int q = 0; q < n_max; ++q) maxima[q] = m[n + q];

  const int bits = digit_bits(g.cells_global());
  const double radix = std::ldexp(1.0, bits);
  int top[n];
  double inv_top[n];
  for (int q = 0; q < n; ++q) {
    const bool some = m[q] > 0 && std::isfinite(m[q]);
    top[q] = some ? top_exponent(m[q]) : 0;
    inv_top[q] = some ? std::ldexp(1.0, -top[q]) : 0.0;
  }
  Values<std::int64_t, n * kDigits> digits;
  par_reduce(
      "sum_digits", g.interior(),
      KOKKOS_LAMBDA(int k, int j, int i, Values<std::int64_t, n * kDigits>& acc) {
        double v[all];
        value(k, j, i, v);
        for (int q = 0; q < n; ++q)  // not a quantity of zeros or one that is not finite
          if (inv_top[q] != 0) add_digits(v[q], inv_top[q], radix, acc.v + q * kDigits);
      },
      ValuesReducer<std::int64_t, n * kDigits, SumOp>(digits));
  global_sum(c, digits.v, n * kDigits);

  for (int q = 0; q < n; ++q) {
    if (!std::isfinite(m[q]))
      out[q] = std::numeric_limits<double>::quiet_NaN();
    else if (m[q] == 0)
      out[q] = 0;
    else
      out[q] = digits_to_value(digits.v + q * kDigits, top[q], bits);
  }
}

}  // namespace ax
