// Slope limiters: van Leer's slopes of a cell formed with one division
// (limited_slopes on GPUs) against a division a slope, the range outside
// which it falls back, its mirror symmetry, and which form the default
// execution space runs.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <type_traits>

#include "backend/kokkos_compat.hpp"
#include "fv/limiters.hpp"

namespace ax {
namespace {

constexpr int N = 7;  // the MHD face frame; hydro takes 5

// Differences of mixed sign and magnitude, some exactly zero.
void draw(std::mt19937_64& rng, Real dl[N], Real dr[N]) {
  std::uniform_real_distribution<Real> u(Real(-1), Real(1));
  std::uniform_int_distribution<int> e(-30, 10), z(0, 9);
  for (int v = 0; v < N; ++v) {
    dl[v] = z(rng) == 0 ? Real(0) : u(rng) * std::ldexp(Real(1), e(rng));
    dr[v] = z(rng) == 0 ? Real(0) : u(rng) * std::ldexp(Real(1), e(rng));
  }
}

// Each limiter's textbook value at two pairs of differences (the slope
// form of Athena++'s and Toro's limiters): dl = 1 with dr = 3 and dr = 1.5.
TEST(Limiters, EveryLimiterTextbookValues) {
  struct Case {
    Real l3, l15;  // limited_slope(1, 3), limited_slope(1, 1.5)
  };
  const Case minmod{1, 1}, van_leer{Real(1.5), Real(1.2)}, mc{2, Real(1.25)};
  const Case van_albada{Real(1.2), Real(3.75 / 3.25)}, superbee{2, Real(1.5)};
  const Real eps = 4 * std::numeric_limits<Real>::epsilon();
  auto check = [&](auto limiter, const Case& c, const char* name) {
    constexpr Limiter L = decltype(limiter)::value;
    EXPECT_NEAR(limited_slope<L>(1, 3), c.l3, eps) << name;
    EXPECT_NEAR(limited_slope<L>(1, Real(1.5)), c.l15, eps) << name;
    EXPECT_EQ(limited_slope<L>(1, -3), Real(0)) << name << ": an extremum";
    EXPECT_EQ(limited_slope<L>(0, 3), Real(0)) << name;
  };
  check(std::integral_constant<Limiter, Limiter::minmod>(), minmod, "minmod");
  check(std::integral_constant<Limiter, Limiter::van_leer>(), van_leer, "van_leer");
  check(std::integral_constant<Limiter, Limiter::mc>(), mc, "mc");
  check(std::integral_constant<Limiter, Limiter::van_albada>(), van_albada, "van_albada");
  check(std::integral_constant<Limiter, Limiter::superbee>(), superbee, "superbee");
}

// Properties every limiter has: symmetric in its two differences (a mirror
// swaps them), odd, and between the two differences (so TVD), bitwise for
// the first two.
template <Limiter L>
long long limiter_property_failures() {
  std::mt19937_64 rng(23);
  long long bad = 0;
  for (int t = 0; t < 20000; ++t) {
    Real dl[N], dr[N];
    draw(rng, dl, dr);
    for (int v = 0; v < N; ++v) {
      const Real s = limited_slope<L>(dl[v], dr[v]);
      bad += s != limited_slope<L>(dr[v], dl[v]);
      bad += -s != limited_slope<L>(-dl[v], -dr[v]);
      if (dl[v] * dr[v] > 0) {
        const Real lo = std::fmin(std::fabs(dl[v]), std::fabs(dr[v])),
                   hi = std::fmax(std::fabs(dl[v]), std::fabs(dr[v]));
        const Real a = std::fabs(s) * (1 + 1e-14);
        bad += !(s * dl[v] > 0 && a >= lo && std::fabs(s) <= hi * (1 + 1e-14));
      } else {
        bad += s != Real(0);
      }
    }
  }
  return bad;
}

TEST(Limiters, EveryLimiterSymmetricOddAndBetweenTheDifferences) {
  EXPECT_EQ(limiter_property_failures<Limiter::minmod>(), 0);
  EXPECT_EQ(limiter_property_failures<Limiter::van_leer>(), 0);
  EXPECT_EQ(limiter_property_failures<Limiter::mc>(), 0);
  EXPECT_EQ(limiter_property_failures<Limiter::van_albada>(), 0);
  EXPECT_EQ(limiter_property_failures<Limiter::superbee>(), 0);
}

TEST(Limiters, VanLeerBatchedMatchesDivisions) {
  std::mt19937_64 rng(7);
  double worst = 0;
  long long zeros = 0, wrong_zero = 0;
  for (int t = 0; t < 200000; ++t) {
    Real dl[N], dr[N], s[N];
    draw(rng, dl, dr);
    ASSERT_TRUE(van_leer_slopes_batched<N>(dl, dr, s));
    for (int v = 0; v < N; ++v) {
      const Real ref = limited_slope<Limiter::van_leer>(dl[v], dr[v]);
      if (ref == Real(0)) {
        ++zeros;
        if (s[v] != Real(0)) ++wrong_zero;
        continue;
      }
      worst = std::fmax(worst, std::fabs(s[v] - ref) / std::fabs(ref));
    }
  }
  EXPECT_GT(zeros, 0);
  EXPECT_EQ(wrong_zero, 0);
  // A handful of roundings: 2N + 3 in the worst case.
  EXPECT_LT(worst, 20 * std::numeric_limits<Real>::epsilon()) << worst;
  EXPECT_GT(worst, 0);  // it is not the division itself
}

TEST(Limiters, VanLeerBatchedFallsBackOutsideItsRange) {
  Real dl[N] = {1, 2, 3, 4, 5, 6, 7}, dr[N] = {1, 2, 3, 4, 5, 6, 7}, s[N];
  EXPECT_TRUE(van_leer_slopes_batched<N>(dl, dr, s));
  for (const Real bad : {Real(1e-43), Real(1e43), std::numeric_limits<Real>::quiet_NaN(),
                         std::numeric_limits<Real>::infinity()}) {
    dl[3] = dr[3] = bad;
    EXPECT_FALSE(van_leer_slopes_batched<N>(dl, dr, s)) << bad;
  }
  // A zero slope's denominator is not one of the product's.
  dl[3] = Real(1e-60);
  dr[3] = Real(-1e-60);
  EXPECT_TRUE(van_leer_slopes_batched<N>(dl, dr, s));
  EXPECT_EQ(s[3], Real(0));
}

TEST(Limiters, VanLeerBatchedIsMirrorSymmetric) {
  // Mirror along the axis: dl and dr swap, and the normal velocity's
  // (variable 1) change sign; a transverse flip negates one variable.
  std::mt19937_64 rng(11);
  long long bad = 0;
  for (int t = 0; t < 100000; ++t) {
    Real dl[N], dr[N], s[N], ml[N], mr[N], ms[N];
    draw(rng, dl, dr);
    for (int v = 0; v < N; ++v) {
      const Real sign = v == 1 || v == 3 ? Real(-1) : Real(1);
      ml[v] = sign * dr[v];
      mr[v] = sign * dl[v];
    }
    ASSERT_TRUE(van_leer_slopes_batched<N>(dl, dr, s));
    ASSERT_TRUE(van_leer_slopes_batched<N>(ml, mr, ms));
    for (int v = 0; v < N; ++v) {
      const Real sign = v == 1 || v == 3 ? Real(-1) : Real(1);
      if (ms[v] != sign * s[v]) ++bad;
    }
  }
  EXPECT_EQ(bad, 0);
}

using SlopesIn = Kokkos::View<Real * [2 * N], MemSpace>;
using SlopesOut = Kokkos::View<Real* [N], MemSpace>;

// limited_slopes of the first M variables of every row of in (dl then dr)
// on the default execution space. A free function: nvcc rejects a device
// lambda inside gtest's private TestBody.
template <int M>
void slopes_on_device(SlopesIn in, SlopesOut out) {
  const int cells = static_cast<int>(in.extent(0));
  Kokkos::parallel_for(
      "limited_slopes", Kokkos::RangePolicy<ExecSpace>(0, cells), KOKKOS_LAMBDA(int c) {
        Real dl[M], dr[M], s[M];
        for (int v = 0; v < M; ++v) {
          dl[v] = in(c, v);
          dr[v] = in(c, N + v);
        }
        limited_slopes<Limiter::van_leer, M>(dl, dr, s);
        for (int v = 0; v < M; ++v) out(c, v) = s[v];
      });
  Kokkos::fence();
}

// Slopes that differ from the form expected on this execution space: on
// GPUs the batched form for up to kVanLeerBatchedMax variables (uniform
// warps skip it, with the same bits), a division a slope for more (MHD's
// seven) and on CPUs (the same bits as limited_slope).
template <int M>
long long slopes_off_their_form() {
  constexpr int kCells = 4096;
  SlopesIn in("slopes_in", kCells);
  SlopesOut out("slopes_out", kCells);
  auto h_in = Kokkos::create_mirror_view(in);
  std::mt19937_64 rng(3);
  for (int c = 0; c < kCells; ++c) {
    Real dl[N], dr[N];
    draw(rng, dl, dr);
    if (c < 64)  // two warps of a uniform region: the warp-wide skip
      for (int v = 0; v < N; ++v) dl[v] = Real(0);
    for (int v = 0; v < N; ++v) {
      h_in(c, v) = dl[v];
      h_in(c, N + v) = dr[v];
    }
  }
  Kokkos::deep_copy(in, h_in);
  slopes_on_device<M>(in, out);
  auto h_out = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
#if defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP)
  constexpr bool batched = M <= kVanLeerBatchedMax;
#else
  constexpr bool batched = false;
#endif
  long long differ = 0;
  for (int c = 0; c < kCells; ++c) {
    Real dl[M], dr[M], s[M];
    for (int v = 0; v < M; ++v) {
      dl[v] = h_in(c, v);
      dr[v] = h_in(c, N + v);
    }
    if (!batched || !van_leer_slopes_batched<M>(dl, dr, s))
      for (int v = 0; v < M; ++v) s[v] = limited_slope<Limiter::van_leer>(dl[v], dr[v]);
    for (int v = 0; v < M; ++v)
      if (h_out(c, v) != s[v]) ++differ;
  }
  return differ;
}

// Hydro's five variables and MHD's seven, each in its own form.
TEST(Limiters, ExecutionSpaceForm) {
  EXPECT_EQ(slopes_off_their_form<5>(), 0);
  EXPECT_EQ(slopes_off_their_form<7>(), 0);
}

}  // namespace
}  // namespace ax
