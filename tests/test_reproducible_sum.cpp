// The history's global sums (backend/reproducible_sum.hpp): the same bits for
// any decomposition and order of the cells, and within one unit in the last
// place of the exact sum. Run on 1 rank and, as ReproducibleSumRanks, on 4.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "backend/reproducible_sum.hpp"

namespace ax::test {
namespace {

constexpr int kN[3] = {24, 20, 18};

std::uint64_t mix(std::uint64_t x) {  // splitmix64's finaliser
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// A value per global cell: r 2^(s - 40), r in [-2^20, 2^20], s in [0, 40],
// so 41 binades and both signs, and an exact sum in units of 2^-40.
struct Field {
  std::int64_t units(int gk, int gj, int gi) const {
    const std::uint64_t h = mix((std::uint64_t(gk) * 1000 + gj) * 1000 + gi);
    const std::int64_t r = std::int64_t(h % (2u << 20)) - (1 << 20);
    const int s = int((h >> 32) % 41);
    return r * (std::int64_t(1) << s);
  }
  double value(int gk, int gj, int gi) const { return std::ldexp(double(units(gk, gj, gi)), -40); }
};

// The exact sum over the whole domain, rounded once to double.
double exact_sum(const Field& f) {
  __int128 s = 0;
  for (int k = 0; k < kN[2]; ++k)
    for (int j = 0; j < kN[1]; ++j)
      for (int i = 0; i < kN[0]; ++i) s += f.units(k, j, i);
  return std::ldexp(double(s), -40);
}

struct Block {
  Grid g;
  Comm c;
};

// The domain over the ranks of `world` (MPI_COMM_SELF: one block).
Block block_on(MPI_Comm world) {
  int size = 1;
  MPI_Comm_size(world, &size);
  int dims[3];
  std::string why;
  if (!choose_dims(size, kN, 2, dims, &why)) throw std::runtime_error(why);
  const bool periodic[3] = {false, false, false};
  Block b;
  b.c = make_comm(world, dims, periodic);
  const Real lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  b.g = make_grid(kN, lo, hi, 2, dims, b.c.coords);
  return b;
}

// The three variables at global cell (gk, gj, gi) from f(gk, gj, gi, v[3]).
template <class F>
Array4 fill_with(const Grid& g, const F& f) {
  Array4 u = g.make_array("u", 3);
  auto h = Kokkos::create_mirror_view(u);
  Kokkos::deep_copy(h, 0.0);
  for (int k = g.is(2); k < g.ie(2); ++k)
    for (int j = g.is(1); j < g.ie(1); ++j)
      for (int i = g.is(0); i < g.ie(0); ++i) {
        double v[3];
        f(k - g.is(2) + g.offset[2], j - g.is(1) + g.offset[1], i - g.is(0) + g.offset[0], v);
        for (int q = 0; q < 3; ++q) h(q, k, j, i) = v[q];
      }
  Kokkos::deep_copy(u, h);
  return u;
}

// Variable 0: the field; 1: the field shifted circularly by (5, 3, 7) cells;
// 2: the field and its negative in alternate cells of x (sum exactly 0).
// With `with_special`, the domain's first cell holds `special` in variable 0.
Array4 fill(const Grid& g, const Field& f, double special = 0, bool with_special = false) {
  return fill_with(g, [&](int gk, int gj, int gi, double* v) {
    v[0] = with_special && gk == 0 && gj == 0 && gi == 0 ? special : f.value(gk, gj, gi);
    v[1] = f.value((gk + 7) % kN[2], (gj + 3) % kN[1], (gi + 5) % kN[0]);
    v[2] = (gi % 2 ? -1 : 1) * f.value(gk, gj, gi - gi % 2);
  });
}

void sums_of(const Block& b, const Array4& u, double out[3]) {
  reproducible_sums<3>(
      b.c, b.g,
      KOKKOS_LAMBDA(int k, int j, int i, double* v) {
        for (int q = 0; q < 3; ++q) v[q] = u(q, k, j, i);
      },
      out);
}

bool same_bits(double a, double b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

TEST(ReproducibleSum, SameBitsForAnyDecompositionAndOrder) {
  const Field f{};
  Block all = block_on(MPI_COMM_SELF), split = block_on(MPI_COMM_WORLD);
  double whole[3], parts[3];
  sums_of(all, fill(all.g, f), whole);
  sums_of(split, fill(split.g, f), parts);
  const double exact = exact_sum(f);
  std::printf("exact %.17g, one block %.17g, %d block(s) %.17g, shifted %.17g\n", exact, whole[0],
              split.c.size, parts[0], whole[1]);
  for (int q = 0; q < 3; ++q)
    EXPECT_TRUE(same_bits(whole[q], parts[q])) << q << ": " << whole[q] << " vs " << parts[q];
  EXPECT_TRUE(same_bits(whole[0], whole[1])) << "shifted: " << whole[1] << " vs " << whole[0];
  EXPECT_LE(std::fabs(whole[0] - exact),
            std::nextafter(std::fabs(exact), HUGE_VAL) - std::fabs(exact));
  EXPECT_TRUE(same_bits(whole[2], 0.0)) << whole[2];
  free_comm(all.c);
  free_comm(split.c);
}

TEST(ReproducibleSum, ZerosHugeValuesAndNaN) {
  const Field f{};
  Block b = block_on(MPI_COMM_WORLD);
  double s[3];
  // Zeros everywhere: 0.
  Array4 z = b.g.make_array("z", 3);
  Kokkos::deep_copy(z, 0.0);
  sums_of(b, z, s);
  for (int q = 0; q < 3; ++q) EXPECT_TRUE(same_bits(s[q], 0.0)) << s[q];
  // One cell near the largest double beside values 1e300 times smaller: that
  // cell's value, to the last place (the others are below its last bit).
  const double big = 0.75 * std::numeric_limits<double>::max();
  sums_of(b, fill(b.g, f, big, true), s);
  EXPECT_EQ(s[0], big);
  // A NaN anywhere: NaN, and the other quantities unaffected.
  double t[3];
  sums_of(b, fill(b.g, f), t);
  sums_of(b, fill(b.g, f, std::numeric_limits<double>::quiet_NaN(), true), s);
  EXPECT_TRUE(std::isnan(s[0]));
  EXPECT_TRUE(same_bits(s[1], t[1]));
  free_comm(b.c);
}

double ulp(double x) { return std::nextafter(std::fabs(x), HUGE_VAL) - std::fabs(x); }

// Totals far below the largest value: +1 and -1 cancel and leave a tiny
// third value, negative (its conversion cancelled: a relative error of 1.5e-8
// at 2^24 cells) and positive; a maximum below the smallest normal double
// (1 / top overflowed: the sum came out 0); every cell NaN or infinite (the
// digits of such values were undefined behaviour).
TEST(ReproducibleSum, SmallTotalsSubnormalsAndManyNonFinite) {
  Block b = block_on(MPI_COMM_WORLD);
  const double tiny = 1.2345678901234567e-20;
  double s[3];
  sums_of(b, fill_with(b.g, [&](int gk, int gj, int gi, double* v) {
            const int c = (gk * kN[1] + gj) * kN[0] + gi;  // the cells 0, 1, 2 of the domain
            v[0] = c == 0 ? 1.0 : c == 1 ? -1.0 : c == 2 ? -tiny : 0.0;
            v[1] = c == 0 ? 1.0 : c == 1 ? -1.0 : c == 2 ? tiny : 0.0;
            v[2] = c == 5 ? 1e-310 : c == 300 ? 2e-311 : 0.0;
          }),
          s);
  EXPECT_LE(std::fabs(s[0] + tiny), ulp(tiny)) << s[0];
  EXPECT_LE(std::fabs(s[1] - tiny), ulp(tiny)) << s[1];
  EXPECT_EQ(s[2], 1e-310 + 2e-311);  // exact: subnormals add exactly
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = HUGE_VAL;
  sums_of(b, fill_with(b.g, [&](int, int, int gi, double* v) {
            v[0] = nan;
            v[1] = gi % 2 ? inf : -inf;
            v[2] = 2.0;
          }),
          s);
  EXPECT_TRUE(std::isnan(s[0]));
  EXPECT_TRUE(std::isnan(s[1]));
  EXPECT_EQ(s[2], 2.0 * kN[0] * kN[1] * kN[2]);
  free_comm(b.c);
}

TEST(ReproducibleSum, DigitsCarryToTheSameValue) {
  // 1.5 on a grid whose top is 2^1 is the first digit 3/4 2^bits; written
  // with a carry or a borrow in the next digit it is the same value, and so
  // is its negative.
  const int bits = reproducible::digit_bits(1000);
  const std::int64_t q = std::int64_t(1) << (bits - 2), base = std::int64_t(1) << bits;
  static_assert(reproducible::kDigits == 3);
  const std::int64_t plain[3] = {3 * q, 0, 0}, carried[3] = {3 * q - 1, base, 0},
                     negative[3] = {-3 * q, 0, 0}, borrowed[3] = {-3 * q + 1, -base, 0},
                     below[3] = {3 * q, -1, 0};
  using reproducible::digits_to_value;
  EXPECT_EQ(digits_to_value(plain, 1, bits), 1.5);
  EXPECT_EQ(digits_to_value(carried, 1, bits), 1.5);
  EXPECT_EQ(digits_to_value(negative, 1, bits), -1.5);
  EXPECT_EQ(digits_to_value(borrowed, 1, bits), -1.5);
  EXPECT_EQ(digits_to_value(below, 1, bits), 1.5 - std::ldexp(1.0, 1 - 2 * bits));
}

}  // namespace
}  // namespace ax::test
