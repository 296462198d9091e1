// A start-up check that kernels see Views as the host laid them out.
//
// Kokkos's View on top of mdspan (the default from Kokkos 4.6 on), compiled
// by nvcc in C++20, lays a one-dimensional View out differently in host and
// device code (mdspan's [[no_unique_address]] members): a kernel holding such
// a View reads its bounds from the wrong bytes and runs no iteration, with no
// error. Seen with Kokkos 4.6.99, CUDA 13.0 and an H100 (2026-12-06): every
// halo buffer is such a View, so runs of several ranks broke down beside the
// rank boundaries while one rank ran right. Kokkos built with
// -DKokkos_ENABLE_IMPL_VIEW_LEGACY=ON does not have it (docs/gpu.md).
#pragma once

#include <string>

namespace ax {

// Empty when a kernel writing a one-dimensional View changes it; else what
// went wrong and how to rebuild Kokkos.
std::string device_view_check();

}  // namespace ax
