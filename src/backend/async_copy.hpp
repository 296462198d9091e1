// Copies from device memory into team scratch that do not hold the thread
// up: on NVIDIA GPUs from Ampere on the hardware's asynchronous copy
// (cp.async), elsewhere a plain load and store. A kernel issues a group of
// copies, commits it, works on, and waits for the group before a team
// barrier makes the values visible to the team; the load's latency hides
// behind the work in between instead of stalling the phase that needs it.
#pragma once

#include "backend/types.hpp"

#if defined(__CUDACC__)
#include <cuda_pipeline.h>
#endif

namespace ax {

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#define AX_ASYNC_COPY_HARDWARE 1
#endif

KOKKOS_FORCEINLINE_FUNCTION void async_copy(Real* scratch, const Real* src) {
#ifdef AX_ASYNC_COPY_HARDWARE
  __pipeline_memcpy_async(scratch, src, sizeof(Real));
#else
  *scratch = *src;
#endif
}

// Ends the group of copies this thread issued since the last commit.
KOKKOS_FORCEINLINE_FUNCTION void async_commit() {
#ifdef AX_ASYNC_COPY_HARDWARE
  __pipeline_commit();
#endif
}

// Waits until at most `pending` of this thread's committed groups, the
// newest, are still in flight.
template <int pending>
KOKKOS_FORCEINLINE_FUNCTION void async_wait() {
#ifdef AX_ASYNC_COPY_HARDWARE
  __pipeline_wait_prior(pending);
#endif
}

}  // namespace ax
