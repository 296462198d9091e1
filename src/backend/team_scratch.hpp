// Team scratch for kernels that work through a team's items in phases
// (the FD segments kernels): one flat scratch view, cut into blocks of
// `count` items x some values each.
#pragma once

#include "backend/loops.hpp"
#include "backend/types.hpp"

namespace ax {

using TeamScratch = Kokkos::View<Real*, ExecSpace::scratch_memory_space, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

// Values v of `count` items, item fastest: consecutive threads take
// consecutive items, so they touch consecutive words (no bank conflicts).
struct ScratchBlock {
  Real* p;
  int count;
  KOKKOS_FORCEINLINE_FUNCTION Real& operator()(int v, int n) const { return p[v * count + n]; }
  // The block that follows this one, `values` wide, of `next_count` items.
  KOKKOS_FORCEINLINE_FUNCTION ScratchBlock after(int values, int next_count) const {
    return ScratchBlock{p + values * count, next_count};
  }
};

// Threads of such a team: `gpu` on GPUs; one on CPUs, where a host thread
// walks the team's items and the phases run one after the other.
constexpr int phase_team_size([[maybe_unused]] int gpu) {
#ifdef ASTRONOMIX_FLAT_LOOPS
  return gpu;
#else
  return 1;
#endif
}

}  // namespace ax
