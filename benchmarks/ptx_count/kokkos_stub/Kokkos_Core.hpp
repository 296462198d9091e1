// A stand-in for Kokkos_Core.hpp with only what the inline physics headers
// (hydro/, fd/weno*.hpp, fd/*eigen.hpp, mhd/) use, so that nvcc compiles
// their face kernels without a CUDA build of Kokkos (count.sh).
#pragma once
#include <cmath>

#define KOKKOS_VERSION 40600
#define KOKKOS_INLINE_FUNCTION __host__ __device__ inline
#define KOKKOS_FORCEINLINE_FUNCTION __host__ __device__ __forceinline__

namespace Kokkos {
struct HostSpace {};
struct LayoutRight {};
struct DefaultExecutionSpace {
  using memory_space = HostSpace;
};
template <class T, class... P>
struct View {
  using HostMirror = View;
};
__host__ __device__ inline double fabs(double x) { return ::fabs(x); }
__host__ __device__ inline double sqrt(double x) { return ::sqrt(x); }
__host__ __device__ inline double pow(double x, double y) { return ::pow(x, y); }
__host__ __device__ inline double sin(double x) { return ::sin(x); }
__host__ __device__ inline double cos(double x) { return ::cos(x); }
__host__ __device__ inline double exp(double x) { return ::exp(x); }
__host__ __device__ inline double tanh(double x) { return ::tanh(x); }
}  // namespace Kokkos
