// The few Kokkos API differences between 3.4.01 (what Debian ships inside
// Trilinos 13.2) and current 4.x/5.x, kept in one place.
#pragma once

#include <Kokkos_Core.hpp>

#ifndef KOKKOS_VERSION
#error "Kokkos_Core.hpp did not define KOKKOS_VERSION"
#endif

#include <string>

namespace ax {
// "3.4.1" for KOKKOS_VERSION 30401: as a person reads a version.
inline std::string kokkos_version_text() {
  constexpr int v = KOKKOS_VERSION;
  return std::to_string(v / 10000) + "." + std::to_string(v / 100 % 100) + "." + std::to_string(v % 100);
}
}  // namespace ax

// Full unrolling of a short loop over a state's variables. GCC unrolls
// such loops by itself only up to a size limit; a loop over faces with the
// MHD Riemann solver inside then keeps inner loops and does not vectorise.
#if defined(__CUDACC__) || defined(__HIPCC__)
#define AX_UNROLL _Pragma("unroll")
#elif defined(__clang__)
#define AX_UNROLL _Pragma("clang loop unroll(full)")
#elif defined(__GNUC__)
#define AX_UNROLL _Pragma("GCC unroll 16")
#else
#define AX_UNROLL
#endif

namespace ax::math {

// Kokkos 3.x keeps its math functions in Kokkos::Experimental; 4.0 moved them
// to Kokkos:: and later releases removed the old names.
#if KOKKOS_VERSION >= 40000
using Kokkos::fabs;
using Kokkos::sqrt;
using Kokkos::pow;
using Kokkos::sin;
using Kokkos::cos;
using Kokkos::exp;
using Kokkos::tanh;
#else
using Kokkos::Experimental::fabs;
using Kokkos::Experimental::sqrt;
using Kokkos::Experimental::pow;
using Kokkos::Experimental::sin;
using Kokkos::Experimental::cos;
using Kokkos::Experimental::exp;
using Kokkos::Experimental::tanh;
#endif

// Minimum and maximum. On the host as plain selections: std::fmin/fmax
// must honour NaN operands, which keeps compilers from vectorising loops
// that use them (a NaN in the second operand still propagates). On GPUs the
// hardware min/max instructions, which were measurably faster on the H200.
template <class T>
KOKKOS_INLINE_FUNCTION T fmin(T a, T b) {
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
  return ::fmin(a, b);
#else
  return a < b ? a : b;
#endif
}
template <class T>
KOKKOS_INLINE_FUNCTION T fmax(T a, T b) {
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
  return ::fmax(a, b);
#else
  return a > b ? a : b;
#endif
}

// max(m, x) for diagnostics, with a NaN x taken as infinite: a running
// maximum by fmax passes a NaN over, and a diagnostic (div B) must not
// report a state that broke down as clean.
template <class T>
KOKKOS_INLINE_FUNCTION T fmax_nan_as_inf(T m, T x) {
  return x == x ? fmax(m, x) : T(HUGE_VAL);
}

// a * b + c: on GPUs one fused multiply-add (one rounding), elsewhere the
// plain expression (two roundings; -ffp-contract=off keeps the compiler
// from fusing it). The build forbids contraction so that results do not
// hang on the compiler's choices; a kernel that calls this for its hot
// arithmetic chooses the fusion itself, and the native and fused paths,
// which share these helpers, stay equal bit for bit on either device.
// Written so that a * b + c is the expression the helper replaced: the CPU
// results are those before it.
template <class T>
KOKKOS_FORCEINLINE_FUNCTION T mul_add(T a, T b, T c) {
#if (defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)) && !defined(ASTRONOMIX_NO_DEVICE_FMA)
  return ::fma(a, b, c);
#else
  return a * b + c;
#endif
}

// Whether mul_add fuses on the default execution space (GPU builds): for
// tests whose tolerances rest on the two roundings of a * b + c.
#if (defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP)) && !defined(ASTRONOMIX_NO_DEVICE_FMA)
inline constexpr bool kDeviceFusesMulAdd = true;
#else
inline constexpr bool kDeviceFusesMulAdd = false;
#endif

template <class T>
KOKKOS_INLINE_FUNCTION T sign(T x) {
  return x < T(0) ? T(-1) : T(1);
}

}  // namespace ax::math
