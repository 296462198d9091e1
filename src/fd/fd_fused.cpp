#include "fd/fd_fused.hpp"

#include <algorithm>

#include "time/stage_combination.hpp"
#include "fd/fd_dispatch.hpp"
#include "fd/fd_stage.hpp"
#include "fd/weno.hpp"
#include "fv/fv_options.hpp"

namespace ax {

int fd_fused_slab_count(const Grid& g) {
  // Two slabs halve the face array; thinner blocks are not worth splitting.
  // z must not be the last axis swept (a z-only run): its stencil crosses
  // slabs, so a slab could not finish in place.
  return g.active(2) && (g.active(0) || g.active(1)) && g.nx[2] >= 16 ? 2 : 1;
}

namespace {

// z-planes of faces one slab needs.
int fd_fused_face_planes(const Grid& g, const FdFusedPlan& plan) {
  const int depth = (g.nx[2] + plan.slabs - 1) / plan.slabs;
  return g.active(2) ? depth + 1 : 1;
}

}  // namespace

Array4 fd_fused_face_array(const Grid& g, const FdFusedPlan& plan) {
  return Array4(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("fd_fused_faces")), NHYDRO,
                fd_fused_face_planes(g, plan), g.extent(1), g.extent(0));
}

std::int64_t fd_fused_face_bytes(const Grid& g, const FdFusedPlan& plan) {
  if (plan.segments) return 0;
  return std::int64_t(NHYDRO) * fd_fused_face_planes(g, plan) * g.extent(1) * g.extent(0) *
         std::int64_t(sizeof(Real));
}

namespace {

// Blocks of 256 threads per multiprocessor the flux kernel must fit on GPUs
// (0: no register cap). 2 (128 registers) measured best on the H200: docs/fd.md.
// With the offsets formed once a face (2026-12-05, one lease, a step of
// FdStep/fused_lsrk4/256): 128 registers (232-276 bytes of spills) 42.8-42.9
// ms, 168 (blocks of 128 or 192 threads, about 60 bytes) 42.5-42.6 ms, 190
// (no spills, 8 warps a multiprocessor) 42.8 ms: within 1%, not changed.
#ifndef ASTRONOMIX_FD_MIN_BLOCKS
#define ASTRONOMIX_FD_MIN_BLOCKS 2
#endif
constexpr int kFdMinBlocks = ASTRONOMIX_FD_MIN_BLOCKS;

// The variables' offsets from a cell, captured by value (a lambda copies a
// struct's array where it would not copy a plain one).
struct VariableOffsets {
  std::int64_t v[NHYDRO];
};

struct SlabRange {
  int k0, k1;  // interior z-planes [k0, k1) of the slab
};

// Faces of axis d whose fluxes the cells of the slab need.
Box face_box(const Grid& g, int d, SlabRange s) {
  Box b = g.interior_along(d, 0, 1);
  b.kb = s.k0;
  b.ke = s.k1 + (d == 2);
  return b;
}

// One thread per face, its six-cell stencil in registers. (Sliding a window
// of 2 or 4 faces per thread along the axis, which computes each cell's
// primitives and flux fewer times, ran 35-40% slower on the H200 from
// register spills and made no difference on CPUs; see docs/fd.md.)
template <WenoWeights W, EigenAverage A>
void face_fluxes(const FdOptions& opt, const Grid& g, int d, SlabRange s, const Array4& u, const Array4& faces) {
  const int k0 = s.k0;
  // Cell m of the stencil and variable n lie (m - 3) sd + slot(n) sv from
  // the face's cell: the offsets formed once, not a 4D index for each of
  // the 30 loads. PTX integer instructions 403 -> 201 a face; H200, one
  // lease, FdStep/fused_lsrk4/256: 45.2-45.4 -> 43.1-43.3 ms (same bits).
  const std::int64_t sd = u.stride(3 - d);
  std::int64_t slot[NHYDRO];
  for (int n = 0; n < NHYDRO; ++n) slot[n] = face_slot(d, n) * std::int64_t(u.stride(0));
  const VariableOffsets so{{slot[0], slot[1], slot[2], slot[3], slot[4]}};
  par_for<kFdMinBlocks>("fd_fused_flux", face_box(g, d, s), KOKKOS_LAMBDA(int k, int j, int i) {
    const Real* at = &u(0, k, j, i);
    auto cell = [&](int m, Real uc[NHYDRO], Real w[NHYDRO], Real f[NHYDRO], Real& c) {
      const Real* cm = at + (m - 3) * sd;
      for (int n = 0; n < NHYDRO; ++n) uc[n] = cm[so.v[n]];
      cell_flux(opt.eos, uc, w, f, c);
    };
    Real fh[NHYDRO];
    weno_face_flux<W, A>(opt, cell, fh);
    for (int n = 0; n < NHYDRO; ++n) faces(face_slot(d, n), k - k0, j, i) = fh[n];
  });
}

void accumulate(const Grid& g, int d, SlabRange s, bool first, Real A, Real dtdx, const Array4& faces,
                const Array4& kacc) {
  const int di = d == 0, dj = d == 1, dk = d == 2, k0 = s.k0;
  Box b = g.interior();
  b.kb = s.k0;
  b.ke = s.k1;
  par_for("fd_fused_divergence", b, KOKKOS_LAMBDA(int k, int j, int i) {
    for (int n = 0; n < NHYDRO; ++n) {
      const Real dv = flux_difference(dtdx, faces(n, k - k0, j, i), faces(n, k - k0 + dk, j + dj, i + di));
      kacc(n, k, j, i) = first ? start_increment(A, kacc(n, k, j, i), dv) : kacc(n, k, j, i) + dv;
    }
  });
}

// Divergence of the last axis, folded with the end of the stage.
long long accumulate_and_finish(const FdOptions& opt, const Grid& g, int d, SlabRange s, bool first,
                                const Stage& st, Real dtdx, bool store_k, const Floors& floors,
                                const Array4& faces, const Array4& kacc, const Array4& u0, const Array4& in,
                                const Array4& out, const Array4& r) {
  const int di = d == 0, dj = d == 1, dk = d == 2, k0 = s.k0;
  const bool read_u0 = stage_reads_u0(st), read_r = stage_reads_r(st);
  const IdealGas eos = opt.eos;
  Box b = g.interior();
  b.kb = s.k0;
  b.ke = s.k1;
  return par_count("fd_fused_divergence_finish", b, KOKKOS_LAMBDA(int k, int j, int i) {
    Real kv[NHYDRO];
    for (int n = 0; n < NHYDRO; ++n) {
      const Real dv = flux_difference(dtdx, faces(n, k - k0, j, i), faces(n, k - k0 + dk, j + dj, i + di));
      kv[n] = first ? start_increment(st.A, kacc(n, k, j, i), dv) : kacc(n, k, j, i) + dv;
      if (store_k) kacc(n, k, j, i) = kv[n];
    }
    return finish_stage_cell<NHYDRO>(st, read_u0, read_r, eos, floors, u0, in, r, out, kv, k, j, i);
  });
}

}  // namespace

long long fd_stage_fused(const FdOptions& opt, const Grid& g, const FdFusedPlan& plan, const Stage& st,
                         Real dt, const Floors& floors, const Array4& u0, const Array4& in,
                         const Array4& out, const Array4& r, const Array4& k, const Array4& faces) {
  int last = 0;
  while (!g.active(last)) ++last;  // axes run z, y, x: the last is the lowest active one
  const int depth = (g.nx[2] + plan.slabs - 1) / plan.slabs;
  long long hits = 0;
  bool first = true;
  for (int d = 2; d >= 0; --d) {
    if (!g.active(d)) continue;
    const Real dtdx = dt / g.dx[d];
    for (int sl = 0; sl < plan.slabs; ++sl) {
      const SlabRange s{g.is(2) + sl * depth, std::min(g.is(2) + (sl + 1) * depth, g.ie(2))};
      with_weno_options(opt, [&](auto W, auto A) {
        face_fluxes<decltype(W)::value, decltype(A)::value>(opt, g, d, s, in, faces);
      });
      if (d == last)
        hits += accumulate_and_finish(opt, g, d, s, first, st, dtdx, plan.store_k, floors, faces, k, u0, in, out, r);
      else
        accumulate(g, d, s, first, st.A, dtdx, faces, k);
    }
    first = false;
  }
  return hits;
}

}  // namespace ax
