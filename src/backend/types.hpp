// Core types shared by every module: the floating-point type, the array
// aliases and the index constants of the conserved and primitive state.
#pragma once

#include <Kokkos_Core.hpp>

namespace ax {

#ifdef ASTRONOMIX_SINGLE_PRECISION
using Real = float;
#else
using Real = double;
#endif

// Whether the Riemann solvers form a few reciprocals from one division of
// their product: in device code, where a double division is a reciprocal
// and a chain of dependent FP64 instructions (H200: HLLD 13 -> 7 divisions
// took the fused MHD step from 20.9 to 18.3 ms, HLLC 5 -> 2 the RK2 wave
// from 2.43e9 to 2.60e9 cell-updates/s). Not on CPUs, whose vectorised
// divisions are cheap: there the batched forms made the blast's steps 6-10%
// slower (one core). Double only: in single precision such products leave
// float's range for densities far from 1. Native and fused paths share the
// solvers, so they agree bitwise on either device. The solvers take it as
// the default of a template argument, so that the tests run the device
// forms on CPUs too (Riemann.*Batched, MhdRiemann.*Batched).
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
constexpr bool kBatchedReciprocals = sizeof(Real) == 8;
#else
constexpr bool kBatchedReciprocals = false;
#endif

using ExecSpace = Kokkos::DefaultExecutionSpace;
using MemSpace = ExecSpace::memory_space;
using HostSpace = Kokkos::HostSpace;

// One layout for the whole code: (var, k, j, i) with i fastest. This is the
// order of the .athdf datasets [nvar, nz, ny, nx], so output needs no
// transpose, and it is coalesced along i on the GPU.
using Array4 = Kokkos::View<Real****, Kokkos::LayoutRight, MemSpace>;
using Array1 = Kokkos::View<Real*, Kokkos::LayoutRight, MemSpace>;
using HostArray4 = Array4::HostMirror;

// Conserved variables.
constexpr int IDN = 0;  // density
constexpr int IM1 = 1;  // momentum x
constexpr int IM2 = 2;  // momentum y
constexpr int IM3 = 3;  // momentum z
constexpr int IEN = 4;  // total energy density
// Primitive variables share slots 0 and 4 with their conserved partners.
constexpr int IVX = 1;
constexpr int IVY = 2;
constexpr int IVZ = 3;
constexpr int IPR = 4;
constexpr int NHYDRO = 5;
// MHD adds the cell-centred magnetic field (the average of the face field).
constexpr int IB1 = 5;
constexpr int IB2 = 6;
constexpr int IB3 = 7;
constexpr int NMHD = 8;

}  // namespace ax
