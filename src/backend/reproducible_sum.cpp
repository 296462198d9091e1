// The host side of the reproducible sums: the digit grid and the conversion
// of summed digits back to a double (reproducible_sum.hpp says why).
#include "backend/reproducible_sum.hpp"

#include <stdexcept>

namespace ax::reproducible {

int digit_bits(std::int64_t cells) {
  // A digit is below 2^bits in magnitude; `cells` of them must sum below
  // 2^62 (the carries of digits_to_value need the last bit of headroom).
  int log2_cells = 0;
  while (log2_cells < 62 && (std::int64_t(1) << log2_cells) < cells) ++log2_cells;
  const int bits = 61 - log2_cells;
  if (bits < 8) throw std::runtime_error("reproducible sums: too many cells for the digit grid");
  return bits;
}

int top_exponent(double m) {
  int e = 0;
  std::frexp(m, &e);  // m = f 2^e, 0.5 <= f < 1, so m < 2^e
  // Below 2^-1000 the top stays 2^-1000: 1 / top must be a finite double
  // (a subnormal maximum, 1e-310, summed to 0), and the grid still reaches
  // 2^-1000 - 3 bits, past the smallest subnormal.
  return e < -1000 ? -1000 : e;
}

namespace {
// Carries so that every digit but the first lies in [0, 2^bits).
void carry(std::int64_t* d, int bits) {
  const std::int64_t base = std::int64_t(1) << bits;
  for (int l = kDigits - 1; l > 0; --l) {
    std::int64_t c = d[l] / base;
    if (d[l] - c * base < 0) --c;
    d[l] -= c * base;
    d[l - 1] += c;
  }
}
}  // namespace

double digits_to_value(const std::int64_t* digits, int top_exp, int bits) {
  std::int64_t d[kDigits];
  for (int l = 0; l < kDigits; ++l) d[l] = digits[l];
  carry(d, bits);
  // A negative total converts as its negation: carried, -V is a first digit
  // of -1 and fractions near 1, which cancel in the conversion (a relative
  // error of 1.5e-8 in a total of -1.2e-20 beside values of 1).
  const bool negative = d[0] < 0;
  if (negative) {
    for (int l = 0; l < kDigits; ++l) d[l] = -d[l];
    carry(d, bits);
  }
  // value = 2^top sum_l d[l] 2^(-bits (l + 1)), from the smallest digit up;
  // every digit now >= 0, so no step cancels.
  double v = double(d[kDigits - 1]);
  for (int l = kDigits - 2; l >= 0; --l) v = double(d[l]) + std::ldexp(v, -bits);
  v = std::ldexp(v, top_exp - bits);
  return negative ? -v : v;
}

void global_max(const Comm& c, double* m, int n) {
  MPI_Allreduce(MPI_IN_PLACE, m, n, MPI_DOUBLE, MPI_MAX, c.cart);
}

void global_sum(const Comm& c, std::int64_t* d, int n) {
  MPI_Allreduce(MPI_IN_PLACE, d, n, MPI_INT64_T, MPI_SUM, c.cart);
}

}  // namespace ax::reproducible
