// The end of an FD MHD stage at one cell, shared by the native kernel and
// the fused one (the same expressions in the same order keep them bitwise
// equal): R and out from K as the hydro stage (fd_stage.hpp), then the MHD
// floors.
#pragma once

#include "backend/grid.hpp"
#include "fd/fd_stage.hpp"
#include "mhd/mhd_floors.hpp"
#include "time/stage_combination.hpp"

namespace ax {

KOKKOS_INLINE_FUNCTION bool finish_mhd_stage_cell(const Stage& st, bool read_u0, bool read_r, const IdealGas& eos,
                                                  const Floors& floors, const Array4& u0, const Array4& in,
                                                  const Array4& r, const Array4& out, const Real kv[NMHD], int k,
                                                  int j, int i) {
  Real v[NMHD];
  stage_cell_values<NMHD>(st, read_u0, read_r, u0, in, r, kv, k, j, i, v);
  const bool hit = apply_mhd_floors(eos, floors, v);
  for (int n = 0; n < NMHD; ++n) out(n, k, j, i) = v[n];
  return hit;
}

// The end of the stage over the interior as its own kernel, from K.
inline long long finish_mhd_stage(const Grid& g, const Stage& st, const IdealGas& eos, const Floors& floors,
                                  const Array4& u0, const Array4& in, const Array4& r, const Array4& out,
                                  const Array4& k) {
  const bool read_u0 = stage_reads_u0(st), read_r = stage_reads_r(st);
  long long hits = 0;
  par_reduce("fd_mhd_finish", g.interior(), KOKKOS_LAMBDA(int kk, int j, int i, long long& n_hit) {
    Real kv[NMHD];
    for (int n = 0; n < NMHD; ++n) kv[n] = k(n, kk, j, i);
    if (finish_mhd_stage_cell(st, read_u0, read_r, eos, floors, u0, in, r, out, kv, kk, j, i)) ++n_hit;
  }, Kokkos::Sum<long long>(hits));
  return hits;
}

}  // namespace ax
