// Pieces the FD segments kernels (hydro: fd_fused_segments.cpp, MHD:
// fd_mhd_fused_segments.cpp) share: where a face's characteristic
// differences sit in team scratch, and the phase that turns them into one
// WENO correction per (face, field). NW is the number of characteristic
// fields (5 hydro, 7 MHD).
#pragma once

#include <string>

#include "backend/team_scratch.hpp"
#include "fd/weno.hpp"

namespace ax {

// A segments kernel's label along axis d ("fd_fused_segments_z"), so that a
// profiler's timeline (benchmarks/kernel_timer.cpp) tells the axes apart.
inline std::string segments_label(const char* kernel, int d) { return std::string(kernel) + "_" + "xyz"[d]; }

// dw, dg of difference m and field s: 2 NW values per difference.
template <int NW>
KOKKOS_INLINE_FUNCTION constexpr int segment_dw_slot(int m, int s) {
  return m * 2 * NW + s;
}
template <int NW>
KOKKOS_INLINE_FUNCTION constexpr int segment_dg_slot(int m, int s) {
  return m * 2 * NW + NW + s;
}
template <int NW>
constexpr int kSegmentDiffVals = kWenoDiffs * 2 * NW;

template <int NW>
KOKKOS_FORCEINLINE_FUNCTION void store_differences(const ScratchBlock& D, int n, int m, const Real dw[NW],
                                                   const Real dg[NW]) {
  for (int s = 0; s < NW; ++s) {
    D(segment_dw_slot<NW>(m, s), n) = dw[s];
    D(segment_dg_slot<NW>(m, s), n) = dg[s];
  }
}

// The WENO correction of field s of each of the nface faces, over dw of
// difference 0 (read by this thread only); alpha(n, s) is the field's LLF
// speed, valid(n) whether face n is computed.
template <WenoWeights W, int NW, class Team, class Valid, class Alpha>
KOKKOS_FORCEINLINE_FUNCTION void segment_corrections(const Team& team, const ScratchBlock& D, int nface, Real eps,
                                                     const Valid& valid, const Alpha& alpha) {
  Kokkos::parallel_for(Kokkos::TeamThreadRange(team, nface * NW), [&](int i) {
    const int n = i % nface, s = i / nface;
    if (!valid(n)) return;
    Real dws[kWenoDiffs], dgs[kWenoDiffs];
    for (int m = 0; m < kWenoDiffs; ++m) {
      dws[m] = D(segment_dw_slot<NW>(m, s), n);
      dgs[m] = D(segment_dg_slot<NW>(m, s), n);
    }
    D(segment_dw_slot<NW>(0, s), n) = wave_correction_of<W>(dws, dgs, alpha(n, s), eps);
  });
}

}  // namespace ax
