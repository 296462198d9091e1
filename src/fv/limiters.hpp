// Slope limiters for piecewise-linear reconstruction. Each takes the
// backward and forward differences of a cell and returns its limited slope.
#pragma once

#include "backend/kokkos_compat.hpp"
#include "backend/types.hpp"

namespace ax {

enum class Limiter { minmod, van_leer, mc, van_albada, superbee };

template <Limiter L>
KOKKOS_INLINE_FUNCTION Real limited_slope(Real dl, Real dr) {
  const Real prod = dl * dr;
  if (prod <= Real(0)) return Real(0);
  if constexpr (L == Limiter::minmod) {
    return math::sign(dl) * math::fmin(math::fabs(dl), math::fabs(dr));
  } else if constexpr (L == Limiter::van_leer) {
    // Harmonic mean, as Athena++'s default PLM on a uniform grid.
    return Real(2) * prod / (dl + dr);
  } else if constexpr (L == Limiter::mc) {
    return math::sign(dl) * math::fmin(Real(0.5) * math::fabs(dl + dr),
                                       Real(2) * math::fmin(math::fabs(dl), math::fabs(dr)));
  } else if constexpr (L == Limiter::van_albada) {
    return prod * (dl + dr) / (dl * dl + dr * dr);
  } else {
    const Real a = math::fabs(dl), b = math::fabs(dr);
    return math::sign(dl) * math::fmax(math::fmin(Real(2) * a, b), math::fmin(a, Real(2) * b));
  }
}

// Van Leer slopes of N variables with one division (batch inversion): the
// reciprocal of the product of their denominators dl + dr, and from it and
// the partial products each 1 / (dl + dr), a few roundings from the
// quotient of limited_slope. Mirror-symmetric like it (a mirror swaps dl and
// dr and negates both for v_n: every product changes sign exactly).
// Returns false, s untouched, unless every denominator lies within
// 2^-140 .. 2^140 (N <= 7 of them then keep every partial product in the
// normal range); false for NaN as well.
template <int N>
KOKKOS_INLINE_FUNCTION bool van_leer_slopes_batched(const Real dl[N], const Real dr[N], Real s[N]) {
  static_assert(N >= 1 && N <= 7, "2^(140 N) must stay in range");
  constexpr Real lo = Real(7.174648137343064e-43);  // 2^-140
  constexpr Real hi = Real(1.393796574908163e42);   // 2^140
  Real den[N], before[N];  // denominators (1 where the slope is 0), partial products
  Real prod = Real(1);
  bool in_range = true;
  for (int v = 0; v < N; ++v) {
    den[v] = dl[v] * dr[v] <= Real(0) ? Real(1) : dl[v] + dr[v];
    const Real a = math::fabs(den[v]);
    in_range = in_range & (a > lo) & (a < hi);
    before[v] = prod;
    prod *= den[v];
  }
  if (!in_range) return false;
  Real inv = Real(1) / prod;  // 1 / (den[0] ... den[v]), v going down
  for (int v = N - 1; v >= 0; --v) {
    const Real p = dl[v] * dr[v];
    const Real r = inv * before[v];
    inv *= den[v];
    s[v] = p <= Real(0) ? Real(0) : Real(2) * p * r;
  }
  return true;
}

// The limited slopes of the N variables of one cell along one axis (dl, dr:
// their backward and forward differences). Every path, native and fused,
// computes a cell's slopes through this, the variables in the face frame's
// order of the axis, so that all give the same bits.
// On GPUs van Leer takes one division a cell and axis
// (van_leer_slopes_batched) where its range allows, each of N otherwise.
// Why: there a double division is a reciprocal and a chain of nine
// dependent FP64 instructions; van Leer cost 1.6 ms a stage over donor
// cell, minmod 0.35 ms. H200, fused, one lease against the division a
// slope: 256^3 linear wave (RK2, PLM, HLLC, the AthenaK workload)
// 2.12-2.14e9 -> 2.46-2.47e9 cell-updates/s, MHD Orszag-Tang benchmark
// unchanged (7.5e8), the 256^3 blast benchmark 3.22-3.25e9 -> 3.09-3.10e9:
// its ambient medium is uniform, where the division-a-slope form skips
// every division. A warp-wide skip of uniform regions (below) then took the
// blast to 3.42-3.43e9 (3.12-3.13e9 without it, one lease) for 2.5% of the
// wave (2.45e9 -> 2.39-2.40e9). Batching only cells with two or more
// nonzero slopes, per cell, won back half of the blast's loss for half of
// the wave's gain (2.30-2.32e9, 3.15-3.20e9): not kept. CPUs keep a
// division a slope (vectorised over a row of faces; the results there are
// those of limited_slope to the bit). Only up to five variables batch: the
// seven of MHD (two more field components) spilled 348/596 bytes a thread
// in the MHD tiles kernel (ptxas) against 64/100 with a division a slope;
// H200, one lease: FvMhdStep/fused/256 15.3 -> 14.8-14.9 ms, the 256^3
// Orszag-Tang run 1.05-1.06e9 -> 1.085e9 cell-updates/s.
constexpr int kVanLeerBatchedMax = 5;

template <Limiter L, int N>
KOKKOS_INLINE_FUNCTION void limited_slopes(const Real dl[N], const Real dr[N], Real s[N]) {
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
  if constexpr (L == Limiter::van_leer && N <= kVanLeerBatchedMax) {
#if defined(__CUDA_ARCH__)
    // A warp whose slopes are all zero (a uniform region) skips the batch:
    // the same bits, +0 (NaN is not flat). Each lane decides only its own
    // slopes, so whichever lanes the mask holds, the bits are the same.
    bool flat = true;
    for (int v = 0; v < N; ++v) flat = flat & (dl[v] * dr[v] <= Real(0));
    if (__all_sync(__activemask(), flat)) {
      for (int v = 0; v < N; ++v) s[v] = Real(0);
      return;
    }
#endif
    if (van_leer_slopes_batched<N>(dl, dr, s)) return;
  }
#endif
  for (int v = 0; v < N; ++v) s[v] = limited_slope<L>(dl[v], dr[v]);
}

}  // namespace ax
