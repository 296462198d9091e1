#include "fd/fd_fused.hpp"

#include <algorithm>

#include "time/stage_combination.hpp"
#include "fd/fd_dispatch.hpp"
#include "fd/fd_stage.hpp"
#include "fd/weno_face.hpp"
#include "fv/fv_options.hpp"

namespace ax {

int fd_fused_slab_count(const Grid& g) {
  // Slabs of at least 8 planes (a slab's z-stencil must not reach two slabs
  // back, which would be finished already: depth >= 3), at most 8 of them:
  // four face planes a cell plane (z twice, y, x) in 1/8 of the domain is
  // the half of the state the one face array of an axis used to take.
  if (!g.active(2) || !(g.active(0) || g.active(1))) return 1;
  const int slabs = g.nx[2] / 8;
  return slabs < 1 ? 1 : slabs > 8 ? 8 : slabs;
}

namespace {

int fd_fused_slab_depth(const Grid& g, const FdFusedPlan& plan) { return (g.nx[2] + plan.slabs - 1) / plan.slabs; }

// Where a slab's face fluxes lie in the face array: the first plane of each
// axis' faces (-1 where the axis is inactive). z-faces take depth + 1
// planes (the slab's lower and upper faces) in two buffers, the slab's and
// the next one's; y and x one plane a cell plane.
struct SlabFaces {
  int z[2] = {-1, -1};
  int y = -1, x = -1;
  int planes = 0;  // in all
};

SlabFaces slab_faces(const Grid& g, const FdFusedPlan& plan) {
  SlabFaces f;
  const int depth = g.active(2) ? fd_fused_slab_depth(g, plan) : 1;
  if (g.active(2)) {
    f.z[0] = 0;
    f.z[1] = depth + 1;
    f.planes = 2 * (depth + 1);
  }
  if (g.active(1)) {
    f.y = f.planes;
    f.planes += depth;
  }
  if (g.active(0)) {
    f.x = f.planes;
    f.planes += depth;
  }
  return f;
}

}  // namespace

Array4 fd_fused_face_array(const Grid& g, const FdFusedPlan& plan) {
  return Array4(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("fd_fused_faces")), NHYDRO,
                slab_faces(g, plan).planes, g.extent(1), g.extent(0));
}

std::int64_t fd_fused_face_bytes(const Grid& g, const FdFusedPlan& plan) {
  if (plan.segments) return 0;
  return std::int64_t(NHYDRO) * slab_faces(g, plan).planes * g.extent(1) * g.extent(0) *
         std::int64_t(sizeof(Real));
}

namespace {

// The ring of z-planes whose cells' thermodynamic values (CellThermo:
// 1/rho, p, c) the face kernels read, formed once a stage: plane k lies in
// slot (k - zlo) % planes. It holds a slab and its three planes on either
// side (a slab's z-faces reach three planes beyond it): the planes the next
// slab's z-faces need go into the slots of this slab's lower planes once
// its y- and x-faces have read them.
struct ThermoRing {
  int zlo = 0, planes = 1;
};

ThermoRing thermo_ring(const Grid& g, const FdFusedPlan& plan) {
  if (!g.active(2)) return {g.is(2), 1};
  return {g.is(2) - kFdGhost, fd_fused_slab_depth(g, plan) + 2 * kFdGhost};
}

}  // namespace

Array4 fd_fused_thermo_array(const Grid& g, const FdFusedPlan& plan) {
  return Array4(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("fd_fused_thermo")), kCellThermoVals,
                thermo_ring(g, plan).planes, g.extent(1), g.extent(0));
}

std::int64_t fd_fused_thermo_bytes(const Grid& g, const FdFusedPlan& plan) {
  if (plan.segments) return 0;
  return std::int64_t(kCellThermoVals) * thermo_ring(g, plan).planes * g.extent(1) * g.extent(0) *
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

// A load through the read-only data cache on GPUs, for the speeds pass of
// FaceOrder::speeds_first (ptxas: 200/212 bytes of spills against 200/220
// with plain loads).
KOKKOS_FORCEINLINE_FUNCTION Real load_read_only(const Real* p) {
#ifdef __CUDA_ARCH__
  return __ldg(p);
#else
  return *p;
#endif
}

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

// Each cell's thermodynamic values for z-planes [kb, ke) of the ring, on
// the cells the face kernels read (the interior and three cells beyond it
// along x and y).
void cell_thermo_planes(const FdOptions& opt, const Grid& g, const ThermoRing& ring, int kb, int ke,
                        const Array4& u, const Array4& thermo) {
  if (kb >= ke) return;
  const IdealGas eos = opt.eos;
  auto lo = [&](int d) { return g.active(d) ? g.is(d) - kFdGhost : g.is(d); };
  auto hi = [&](int d) { return g.active(d) ? g.ie(d) + kFdGhost : g.ie(d); };
  const Box b{kb, ke, lo(1), hi(1), lo(0), hi(0)};
  const int zlo = ring.zlo, planes = ring.planes;
  par_for("fd_fused_thermo", b, KOKKOS_LAMBDA(int k, int j, int i) {
    const CellThermo t = cell_thermo(eos, u(IDN, k, j, i), u(IM1, k, j, i), u(IM2, k, j, i), u(IM3, k, j, i),
                                     u(IEN, k, j, i));
    const int slot = (k - zlo) % planes;
    thermo(0, slot, j, i) = t.inv_rho;
    thermo(1, slot, j, i) = t.p;
    thermo(2, slot, j, i) = t.c;
  });
}

// One thread per face, its six-cell stencil in registers; each cell's
// 1/rho, pressure and sound speed come from the ring (cell_thermo_planes),
// so a face takes no division or root for its cells. (Sliding a window
// of 2 or 4 faces per thread along the axis, which computes each cell's
// flux fewer times, ran 35-40% slower on the H200 from register spills and
// made no difference on CPUs; see docs/fd.md.)
template <WenoWeights W, EigenAverage A>
void face_fluxes(const FdOptions& opt, const Grid& g, int d, SlabRange s, const Array4& u, const ThermoRing& ring,
                 const Array4& thermo, const Array4& faces, int plane) {
  const int k0 = s.k0 - plane;  // face plane of the slab's first z-plane: plane
  // Cell m of the stencil and variable n lie (m - 3) sd + slot(n) sv from
  // the face's cell: the offsets formed once, not a 4D index for each of
  // the 30 loads. PTX integer instructions 403 -> 201 a face; H200, one
  // lease, FdStep/fused_lsrk4/256: 45.2-45.4 -> 43.1-43.3 ms (same bits).
  const std::int64_t sd = u.stride(3 - d);
  std::int64_t slot[NHYDRO];
  for (int n = 0; n < NHYDRO; ++n) slot[n] = face_slot(d, n) * std::int64_t(u.stride(0));
  const VariableOffsets so{{slot[0], slot[1], slot[2], slot[3], slot[4]}};
  // The ring: along x and y a stencil lies in one plane (cells sdt apart),
  // along z in six planes, slot by slot with a wrap.
  const std::int64_t tv = thermo.stride(0), tplane = thermo.stride(1), sdt = d == 2 ? 0 : thermo.stride(3 - d);
  const int zlo = ring.zlo, planes = ring.planes;
  const bool along_z = d == 2;
  par_for<kFdMinBlocks>("fd_fused_flux", face_box(g, d, s), KOKKOS_LAMBDA(int k, int j, int i) {
    const Real* at = &u(0, k, j, i);
    const int first = (k - (along_z ? kFdGhost : 0) - zlo) % planes;  // slot of the stencil's first plane
    const Real* tj = &thermo(0, 0, j, i);
    auto thermo_at = [&](int m) {
      if (!along_z) return tj + first * tplane + (m - 3) * sdt;
      const int p = first + m;
      return tj + (p < planes ? p : p - planes) * tplane;
    };
    auto cell = [&](int m, Real uc[NHYDRO], Real w[NHYDRO], Real f[NHYDRO], Real& c) {
      const Real* cm = at + (m - 3) * sd;
      const Real* tm = thermo_at(m);
      for (int n = 0; n < NHYDRO; ++n) uc[n] = cm[so.v[n]];
      const CellThermo t{tm[0], tm[tv], tm[2 * tv]};
      cell_flux_of(uc, t, w, f);
      c = t.c;
    };
    auto speed = [&](int m, Real& un, Real& c) {
      const Real* tm = thermo_at(m);
      un = load_read_only(at + (m - 3) * sd + so.v[1]) * load_read_only(tm);  // w[1] of cell_flux_of
      c = load_read_only(tm + 2 * tv);
    };
    Real fh[NHYDRO];
    weno_face_flux<W, A>(opt, cell, speed, fh);
    for (int n = 0; n < NHYDRO; ++n) faces(face_slot(d, n), k - k0, j, i) = fh[n];
  });
}

// The slab's K from the face fluxes of all axes, z, y, x (the native
// path's order, so the same bits), and the end of the stage: R, out, the
// floors. K is written back only when the 2N scheme reads it next stage.
// Why one kernel: a divergence kernel an axis read and wrote K three times
// a stage; on the H200 they took 13.4 of 42.6 ms a 256^3 step, against
// 28.9 ms for the face kernels (kernel timer, docs/fd.md).
// Floor activations are added to `hits` on the device: the host does not
// wait for each slab's kernel (a read of the count would stop it there).
void divergence_and_finish(const FdOptions& opt, const Grid& g, SlabRange s, const SlabFaces& at, int zb,
                           const Stage& st, Real dt, bool store_k, const Floors& floors, const Array4& faces,
                           const Array4& kacc, const Array4& u0, const Array4& in, const Array4& out,
                           const Array4& r, const DeviceCount& hits) {
  const bool read_u0 = stage_reads_u0(st), read_r = stage_reads_r(st), read_k = stage_reads_k(st);
  const IdealGas eos = opt.eos;
  const Gravity grav = opt.gravity;
  const Real A = st.A, dtdz = dt / g.dx[2], dtdy = dt / g.dx[1], dtdx = dt / g.dx[0];
  const bool az = at.z[zb] >= 0, ay = at.y >= 0, ax = at.x >= 0;
  const int fz = at.z[zb] - s.k0, fy = at.y - s.k0, fx = at.x - s.k0;  // face plane of cell plane k: f + k
  Box b = g.interior();
  b.kb = s.k0;
  b.ke = s.k1;
  par_count_into("fd_fused_divergence_finish", b, hits, KOKKOS_LAMBDA(int k, int j, int i) {
    Real kv[NHYDRO];
    for (int n = 0; n < NHYDRO; ++n) {
      Real v = Real(0);
      bool started = false;
      auto add = [&](Real dv) {
        v = started ? v + dv : start_increment(A, read_k ? kacc(n, k, j, i) : Real(0), dv);
        started = true;
      };
      if (az) add(flux_difference(dtdz, faces(n, fz + k, j, i), faces(n, fz + k + 1, j, i)));
      if (ay) add(flux_difference(dtdy, faces(n, fy + k, j, i), faces(n, fy + k, j + 1, i)));
      if (ax) add(flux_difference(dtdx, faces(n, fx + k, j, i), faces(n, fx + k, j, i + 1)));
      kv[n] = v;
    }
    // After the flux differences, as the native path adds it.
    add_gravity_to(grav, dt, in(IDN, k, j, i), in(IM1, k, j, i), in(IM2, k, j, i), in(IM3, k, j, i), kv);
    if (store_k)
      for (int n = 0; n < NHYDRO; ++n) kacc(n, k, j, i) = kv[n];
    return finish_stage_cell<NHYDRO>(st, read_u0, read_r, eos, floors, u0, in, r, out, kv, k, j, i);
  });
}

}  // namespace

void fd_stage_fused(const FdOptions& opt, const Grid& g, const FdFusedPlan& plan, const Stage& st, Real dt,
                    const Floors& floors, const Array4& u0, const Array4& in, const Array4& out, const Array4& r,
                    const Array4& k, const Array4& faces, const Array4& thermo, const DeviceCount& hits) {
  const SlabFaces at = slab_faces(g, plan);
  const ThermoRing ring = thermo_ring(g, plan);
  const int depth = fd_fused_slab_depth(g, plan);
  auto slab = [&](int sl) { return SlabRange{g.is(2) + sl * depth, std::min(g.is(2) + (sl + 1) * depth, g.ie(2))}; };
  auto fluxes = [&](int d, int sl, int plane) {
    with_weno_options(opt, [&](auto W, auto A) {
      face_fluxes<decltype(W)::value, decltype(A)::value>(opt, g, d, slab(sl), in, ring, thermo, faces, plane);
    });
  };
  // The ring's planes up to (not including) ke: a slab's z-faces read three
  // planes beyond it.
  const int kend = g.active(2) ? g.ie(2) + kFdGhost : g.ie(2);
  auto thermo_upto = [&](int kb, int ke) { cell_thermo_planes(opt, g, ring, kb, std::min(ke, kend), in, thermo); };
  const int reach = g.active(2) ? kFdGhost : 0;
  thermo_upto(ring.zlo, slab(0).k1 + reach);
  // Slab by slab, each finished in place (out may be in) as soon as its
  // faces are known. A slab's z-faces read three planes of the slabs
  // beside it, so the next slab's are formed before this one is finished.
  if (g.active(2)) fluxes(2, 0, at.z[0]);
  for (int sl = 0; sl < plan.slabs; ++sl) {
    if (g.active(1)) fluxes(1, sl, at.y);
    if (g.active(0)) fluxes(0, sl, at.x);
    if (g.active(2) && sl + 1 < plan.slabs) {
      // Into the slots of the planes this slab's y- and x-faces were the
      // last to read.
      thermo_upto(slab(sl).k1 + reach, slab(sl + 1).k1 + reach);
      fluxes(2, sl + 1, at.z[(sl + 1) % 2]);
    }
    divergence_and_finish(opt, g, slab(sl), at, sl % 2, st, dt, plan.store_k, floors, faces, k, u0, in, out, r,
                          hits);
  }
}

}  // namespace ax
