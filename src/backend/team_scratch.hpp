// Team scratch for kernels that work through a team's items in phases
// (the FD segments kernels): one flat scratch view, cut into blocks of
// `count` items x some values each.
#pragma once

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

}  // namespace ax
