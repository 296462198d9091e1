// Approximate Riemann solvers for ideal MHD in the face frame. Each takes the
// left and right primitive face states
//   w = (rho, v_n, v_t1, v_t2, p_gas, b_t1, b_t2)
// and the normal field bn at the face (one value: it comes from the
// face-centred field and is the same on both sides), and returns the flux of
//   (rho, m_n, m_t1, m_t2, E, b_t1, b_t2).
// The flux of b_t1 is vn*bt1 - vt1*bn (likewise b_t2); callers that need the
// edge EMF take it from these two entries. Units as Athena++: p_T = p + B^2/2.
//
// Every solver is written so that the mirror x -> -x (sides swapped,
// (vn, bn) -> (-vn, -bn)), the field reversal B -> -B, the sign flip of one
// transverse direction and the exchange of the two transverse directions
// give bitwise the correspondingly transformed flux: each operation is paired
// with its image (sums of the two transverse terms are grouped, products of a
// left and a right quantity commute), as the hydro solvers in hydro/riemann.hpp.
// Fused multiply-adds (math::mul_add: on GPUs only, docs/design.md) are
// taken only where every one of these maps the term onto itself, signs
// aside (fma(-a, b, -c) = -fma(a, b, c)): x + a b with a b a square, a
// product of a normal and a transverse quantity, or one side's own
// quantities; never a sum of two products that an operation swaps (the
// transverse pairs, the contact speed's numerator, the inner states'
// weighted sums), which keep plain arithmetic.
#pragma once

#include "backend/kokkos_compat.hpp"
#include "hydro/eos.hpp"
#include "mhd/mhd_eos.hpp"

namespace ax {

enum class MhdRiemannSolver { llf, hlle, hlld };

constexpr int NWAVE_FACE = 7;  // (rho, v_n, v_t1, v_t2, p, b_t1, b_t2)

// Total (gas + magnetic) pressure of a face state.
KOKKOS_FORCEINLINE_FUNCTION Real mhd_face_total_pressure(const Real w[NWAVE_FACE], Real bn) {
  return math::mul_add(Real(0.5), math::mul_add(bn, bn, w[5] * w[5] + w[6] * w[6]), w[4]);
}

// Total energy density of a face state, bn included (p / (gamma - 1) as a
// product, as hydro's total_energy).
KOKKOS_FORCEINLINE_FUNCTION Real mhd_face_energy(const IdealGas& eos, const Real w[NWAVE_FACE], Real bn) {
  const Real gas_and_kinetic =
      math::mul_add(Real(0.5) * w[0], math::mul_add(w[1], w[1], w[2] * w[2] + w[3] * w[3]), w[4] * eos.inv_gm1);
  return math::mul_add(Real(0.5), math::mul_add(bn, bn, w[5] * w[5] + w[6] * w[6]), gas_and_kinetic);
}

// Physical flux f along the normal of a face state, and its conserved state u
// (rho, m_n, m_t1, m_t2, E, b_t1, b_t2).
KOKKOS_FORCEINLINE_FUNCTION void mhd_normal_flux(const IdealGas& eos, const Real w[NWAVE_FACE], Real bn,
                                            Real f[NWAVE_FACE], Real u[NWAVE_FACE]) {
  const Real rho = w[0], vn = w[1];
  const Real pt = mhd_face_total_pressure(w, bn);
  u[0] = rho;
  u[1] = rho * vn;
  u[2] = rho * w[2];
  u[3] = rho * w[3];
  u[4] = mhd_face_energy(eos, w, bn);
  u[5] = w[5];
  u[6] = w[6];
  const Real vb = math::mul_add(vn, bn, w[2] * w[5] + w[3] * w[6]);  // v . B
  f[0] = u[1];
  f[1] = math::mul_add(u[1], vn, pt) - bn * bn;
  f[2] = math::mul_add(u[2], vn, -(bn * w[5]));
  f[3] = math::mul_add(u[3], vn, -(bn * w[6]));
  f[4] = math::mul_add(u[4] + pt, vn, -(bn * vb));
  f[5] = math::mul_add(w[5], vn, -(w[2] * bn));
  f[6] = math::mul_add(w[6], vn, -(w[3] * bn));
}

// Outer signal speeds of Miyoshi & Kusano (2005) eq. (67), as in Athena++
// and AthenaK: the fastest fast-magnetosonic signal of either side. Used by
// HLLE and HLLD alike (no Roe average: simple, and bounds the MHD fan).
template <bool Batched = kBatchedReciprocals>
KOKKOS_FORCEINLINE_FUNCTION void mhd_outer_speeds(const IdealGas& eos, const Real wl[NWAVE_FACE],
                                             const Real wr[NWAVE_FACE], Real bn, Real& sl, Real& sr) {
  Real cfl, cfr;
  fast_speed_pair<Batched>(eos, wl[0], wl[4], wl[5], wl[6], wr[0], wr[4], wr[5], wr[6], bn, cfl, cfr);
  sl = math::fmin(wl[1] - cfl, wr[1] - cfr);
  sr = math::fmax(wl[1] + cfl, wr[1] + cfr);
}

// Local Lax-Friedrichs (Rusanov): the central flux plus dissipation at the
// largest fast speed of either side.
template <bool Batched = kBatchedReciprocals>
KOKKOS_INLINE_FUNCTION void mhd_flux_llf(const IdealGas& eos, const Real wl[NWAVE_FACE],
                                         const Real wr[NWAVE_FACE], Real bn, Real flux[NWAVE_FACE]) {
  Real fl[NWAVE_FACE], fr[NWAVE_FACE], ul[NWAVE_FACE], ur[NWAVE_FACE];
  mhd_normal_flux(eos, wl, bn, fl, ul);
  mhd_normal_flux(eos, wr, bn, fr, ur);
  Real cfl, cfr;
  fast_speed_pair<Batched>(eos, wl[0], wl[4], wl[5], wl[6], wr[0], wr[4], wr[5], wr[6], bn, cfl, cfr);
  const Real a = math::fmax(math::fabs(wl[1]) + cfl, math::fabs(wr[1]) + cfr);
  AX_UNROLL
  for (int n = 0; n < NWAVE_FACE; ++n)
    flux[n] = Real(0.5) * (fl[n] + fr[n]) - Real(0.5) * a * (ur[n] - ul[n]);
}

// HLL with the outer speeds of mhd_outer_speeds (Athena++ hlle_mhd uses
// Einfeldt's Roe-averaged speeds instead; these are at least as wide).
template <bool Batched = kBatchedReciprocals>
KOKKOS_INLINE_FUNCTION void mhd_flux_hlle(const IdealGas& eos, const Real wl[NWAVE_FACE],
                                          const Real wr[NWAVE_FACE], Real bn, Real flux[NWAVE_FACE]) {
  Real fl[NWAVE_FACE], fr[NWAVE_FACE], ul[NWAVE_FACE], ur[NWAVE_FACE];
  mhd_normal_flux(eos, wl, bn, fl, ul);
  mhd_normal_flux(eos, wr, bn, fr, ur);
  Real sl, sr;
  mhd_outer_speeds<Batched>(eos, wl, wr, bn, sl, sr);
  const Real bm = math::fmin(sl, Real(0));
  const Real bp = math::fmax(sr, Real(0));
  const Real inv = Real(1) / (bp - bm);
  AX_UNROLL
  for (int n = 0; n < NWAVE_FACE; ++n)
    flux[n] = (bp * fl[n] - bm * fr[n] + bp * bm * (ur[n] - ul[n])) * inv;
}

// Degeneracy threshold of HLLD, relative to the star total pressure: 1e-8 as
// in Athena++ (SMALL_NUMBER in hlld.cpp) and AthenaK (HLLD_SMALL_NUMBER). In
// single precision 1e-8 lies below the rounding error of the quantities it
// guards, so the float build uses 1e-5.
constexpr Real hlld_small = sizeof(Real) == 4 ? Real(1e-5) : Real(1e-8);

// The transverse part of one side's outer star state U* of HLLD (Miyoshi &
// Kusano 2005, eqs. 43-47), given the outer speed s, the contact speed sm
// and the star total pressure ptst: rho* and its ratio to rho, v_t*, b_t*,
// and 1 / (s - sm), which the energy (eq. 48) takes too.
// Two divisions a side, not four: with dv = sm - vn (the contact's speed
// relative to this side) the ratio (s - vn) / (s - sm) is 1 + dv / (s - sm),
// and eqs. (44)-(47)'s factors, which share the denominator
// rho (s - vn)(s - sm) - bn^2, are bn q and 1 + rho (s - vn) q with
// q = dv / denominator (the numerators differ by rho (s - vn) dv). Where
// sm = vn (a contact or tangential discontinuity at rest relative to this
// side) dv is 0: the ratio and the field factor are exactly 1, the velocity
// factor 0, and U* is bitwise U. A double division is a reciprocal and a
// chain of dependent FP64 instructions on GPUs.
struct HlldStarTransverse {
  Real ratio, inv_sdm, rho, vt1, vt2, bt1, bt2;
};
KOKKOS_FORCEINLINE_FUNCTION HlldStarTransverse hlld_star_transverse(const Real w[NWAVE_FACE], Real s, Real sm,
                                                                    Real ptst, Real bn) {
  const Real vn = w[1];
  const Real sd = s - vn;
  const Real sdm = s - sm;
  const Real dv = sm - vn;
  const Real inv_sdm = Real(1) / sdm;
  const Real ds = w[0] * sd;
  const Real bnsq = bn * bn;
  const Real denom = math::mul_add(ds, sdm, -bnsq);
  // Where the fast wave coincides with the Alfven wave (bt = 0 and
  // ca >= a) the transverse state does not jump across s: the selections
  // below drop tv and tb, which may then be inf or NaN.
  const bool degenerate = math::fabs(denom) < hlld_small * ptst;
  const Real q = dv / denom;
  const Real tv = bn * q;               // eq. (44), (46)
  const Real tb = math::mul_add(ds, q, Real(1));  // eq. (45), (47)
  HlldStarTransverse t;
  t.ratio = math::mul_add(dv, inv_sdm, Real(1));
  t.inv_sdm = inv_sdm;
  t.rho = w[0] * t.ratio;
  t.vt1 = degenerate ? w[2] : math::mul_add(-w[5], tv, w[2]);
  t.vt2 = degenerate ? w[3] : math::mul_add(-w[6], tv, w[3]);
  t.bt1 = degenerate ? w[5] : w[5] * tb;
  t.bt2 = degenerate ? w[6] : w[6] * tb;
  return t;
}

// One side's outer star state U* of HLLD (eqs. 39, 43-48) from its
// transverse part t: the momentum, and E* as E times the ratio plus the
// rest (bitwise E where the ratio is 1). Also returns v*.B*.
KOKKOS_FORCEINLINE_FUNCTION void hlld_star_state(const Real w[NWAVE_FACE], const Real u[NWAVE_FACE], Real pt,
                                                 Real sm, Real ptst, Real bn, const HlldStarTransverse& t,
                                                 Real ust[NWAVE_FACE], Real& vbst) {
  const Real vn = w[1];
  ust[0] = t.rho;
  ust[1] = ust[0] * sm;
  ust[2] = ust[0] * t.vt1;
  ust[3] = ust[0] * t.vt2;
  ust[5] = t.bt1;
  ust[6] = t.bt2;
  vbst = math::mul_add(sm, bn, t.vt1 * ust[5] + t.vt2 * ust[6]);
  const Real vb = math::mul_add(vn, bn, w[2] * w[5] + w[3] * w[6]);
  // ptst sm - pt vn stays plain: it is exactly 0 where the two products are.
  const Real rest = math::mul_add(bn, vb - vbst, ptst * sm - pt * vn);
  ust[4] = math::mul_add(u[4], t.ratio, rest * t.inv_sdm);  // eq. (48)
}

// Flux of HLLD on one side of the contact: F* = F + S (U* - U), plus
// S* (U** - U*) when x = 0 lies beyond the Alfven wave S* (inner).
KOKKOS_FORCEINLINE_FUNCTION void hlld_side_flux(const Real f[NWAVE_FACE], const Real u[NWAVE_FACE],
                                                const Real ust[NWAVE_FACE], const Real udst[NWAVE_FACE],
                                                Real s, Real sst, bool inner, Real flux[NWAVE_FACE]) {
  AX_UNROLL
  for (int n = 0; n < NWAVE_FACE; ++n) {
    const Real outer = math::mul_add(s, ust[n] - u[n], f[n]);
    flux[n] = inner ? math::mul_add(sst, udst[n] - ust[n], outer) : outer;
  }
}

// The contact speed S_M, eq. (38), and the star total pressure p_T*, eq.
// (41) from each side, averaged (they agree mathematically; the average is
// symmetric under the mirror). S_M is in the grouped form: the mirror
// negates every term of its numerator and swaps the two terms of the
// denominator, so sm -> -sm exactly.
// ptl, ptr: the total pressures of the two sides.
KOKKOS_FORCEINLINE_FUNCTION void hlld_contact(const Real wl[NWAVE_FACE], const Real wr[NWAVE_FACE], Real ptl,
                                              Real ptr, Real sl, Real sr, Real& sm, Real& ptst) {
  const Real dsl = wl[0] * (sl - wl[1]);  // rho (S - vn) < 0 on the left
  const Real dsr = wr[0] * (sr - wr[1]);  //                > 0 on the right
  sm = (dsr * wr[1] - dsl * wl[1] + (ptl - ptr)) / (dsr - dsl);
  const Real ptstl = math::mul_add(dsl, sm - wl[1], ptl);
  const Real ptstr = math::mul_add(dsr, sm - wr[1], ptr);
  ptst = Real(0.5) * (ptstl + ptstr);
}

// What the inner states U** of both sides share, eqs. (51), (59)-(63):
// the Alfven speeds, v_t** and b_t** (from both sides' star states) and
// v**.B**. Without a normal field there are no Alfven waves and U** = U*.
struct HlldInner {
  Real sqdl, sqdr, sls, srs, sg, vt1, vt2, bt1, bt2, vbdst;
  bool no_alfven;
};
template <bool Batched = kBatchedReciprocals>
KOKKOS_FORCEINLINE_FUNCTION HlldInner hlld_inner(const HlldStarTransverse& l, const HlldStarTransverse& r, Real bn,
                                                 Real sm, Real ptst) {
  HlldInner in;
  in.sqdl = math::sqrt(l.rho);
  in.sqdr = math::sqrt(r.rho);
  // The three reciprocals (1/sqdl, 1/sqdr, 1/(sqdl + sqdr)) from one
  // division of their product (kBatchedReciprocals). Each is formed the
  // same way with the sides swapped, so the mirror symmetry stays bitwise.
  Real inv_sqdl, inv_sqdr, inv;
  if constexpr (Batched) {
    const Real prod = in.sqdl * in.sqdr, sum = in.sqdl + in.sqdr;
    const Real rcp = Real(1) / (prod * sum);
    inv_sqdl = (in.sqdr * sum) * rcp;
    inv_sqdr = (in.sqdl * sum) * rcp;
    inv = prod * rcp;
  } else {
    inv_sqdl = Real(1) / in.sqdl;
    inv_sqdr = Real(1) / in.sqdr;
    inv = Real(1) / (in.sqdl + in.sqdr);
  }
  const Real abn = math::fabs(bn);
  in.sls = math::mul_add(-abn, inv_sqdl, sm);
  in.srs = math::mul_add(abn, inv_sqdr, sm);
  const Real bnsq = bn * bn;
  // bnsq = 0 or 0.5 bnsq < small ptst, as one comparison of reals.
  const Real alfven_margin = bnsq == Real(0) ? Real(-1) : Real(0.5) * bnsq - hlld_small * ptst;
  in.no_alfven = alfven_margin < Real(0);
  in.sg = math::sign(bn);
  const Real sqlr = in.sg * (in.sqdl * in.sqdr);
  in.vt1 = (in.sqdl * l.vt1 + in.sqdr * r.vt1 + in.sg * (r.bt1 - l.bt1)) * inv;
  in.vt2 = (in.sqdl * l.vt2 + in.sqdr * r.vt2 + in.sg * (r.bt2 - l.bt2)) * inv;
  in.bt1 = (in.sqdl * r.bt1 + in.sqdr * l.bt1 + sqlr * (r.vt1 - l.vt1)) * inv;
  in.bt2 = (in.sqdl * r.bt2 + in.sqdr * l.bt2 + sqlr * (r.vt2 - l.vt2)) * inv;
  in.vbdst = math::mul_add(sm, bn, in.vt1 * in.bt1 + in.vt2 * in.bt2);
  return in;
}

// One side's inner state U** from its star state U* (and v*.B*): side = -1
// on the left, +1 on the right, which gives the sign of the energy term
// exactly (a - b is a + (-b) in IEEE arithmetic).
KOKKOS_FORCEINLINE_FUNCTION void hlld_inner_state(const HlldInner& in, Real side, Real sqd, const Real ust[NWAVE_FACE],
                                                  Real vbst, Real udst[NWAVE_FACE]) {
  udst[0] = ust[0];
  udst[1] = ust[1];
  udst[2] = in.no_alfven ? ust[2] : ust[0] * in.vt1;
  udst[3] = in.no_alfven ? ust[3] : ust[0] * in.vt2;
  udst[4] = in.no_alfven ? ust[4] : ust[4] + side * (sqd * in.sg * (vbst - in.vbdst));
  udst[5] = in.no_alfven ? ust[5] : in.bt1;
  udst[6] = in.no_alfven ? ust[6] : in.bt2;
}

// HLLD (T. Miyoshi & K. Kusano, J. Comput. Phys. 208, 315 (2005)): five
// waves (fast, Alfven, contact, Alfven, fast), four intermediate states. The
// structure follows Athena++ hlld.cpp / AthenaK hlld_mhd.hpp: flux in the
// difference form F_L* = F_L + S_L (U_L* - U_L), F_L** = F_L* + S_L* (U_L** - U_L*),
// S_M in the left/right-symmetric grouped form, p_T* averaged over both sides.
// Where S_M is exactly 0 the flux is the average of the two (mathematically
// equal) fluxes beside the contact, which keeps the mirror symmetry bitwise.
// Two forms of the same expressions, bitwise equal (test
// MhdRiemann.HlldFormsAgree, run on the CPU and on the GPU): the selection
// form (mhd_flux_hlld, the default) and the branch form, which the fused
// tiles kernel calls (HlldForm::branch).

// The selection form: every state is computed and the flux selected at the
// end, so that a loop over faces vectorises (the CPU sweeps) and a warp of
// one face per thread does not diverge (the native Riemann kernel on the
// H200: 5.38e8 cell-updates/s for the step against 4.94e8 with the branch
// form). Unselected values may be inf or NaN (supersonic faces, degenerate
// fields); they are never used.
template <bool Batched = kBatchedReciprocals>
KOKKOS_FORCEINLINE_FUNCTION void mhd_flux_hlld_select(const IdealGas& eos, const Real wl[NWAVE_FACE],
                                                      const Real wr[NWAVE_FACE], Real bn, Real flux[NWAVE_FACE]) {
  Real fl[NWAVE_FACE], fr[NWAVE_FACE], ul[NWAVE_FACE], ur[NWAVE_FACE];
  mhd_normal_flux(eos, wl, bn, fl, ul);
  mhd_normal_flux(eos, wr, bn, fr, ur);
  Real sl, sr, sm, ptst;
  mhd_outer_speeds<Batched>(eos, wl, wr, bn, sl, sr);
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
  // On GPUs a branch is cheaper than the fan's states where a warp's faces
  // are all supersonic. The same values as the selection below. Measured
  // on the H200 (3D Orszag-Tang 256^3, tiles layout, one lease): 5.14e8
  // cell-updates/s without this exit, 5.24e8 with it.
  if (sl >= Real(0) || sr <= Real(0)) {
    AX_UNROLL
    for (int n = 0; n < NWAVE_FACE; ++n) flux[n] = sl >= Real(0) ? fl[n] : fr[n];
    return;
  }
#endif
  const Real ptl = mhd_face_total_pressure(wl, bn);
  const Real ptr = mhd_face_total_pressure(wr, bn);
  hlld_contact(wl, wr, ptl, ptr, sl, sr, sm, ptst);
  const HlldStarTransverse tl = hlld_star_transverse(wl, sl, sm, ptst, bn);
  const HlldStarTransverse tr = hlld_star_transverse(wr, sr, sm, ptst, bn);
  Real ulst[NWAVE_FACE], urst[NWAVE_FACE], vbl, vbr;
  hlld_star_state(wl, ul, ptl, sm, ptst, bn, tl, ulst, vbl);
  hlld_star_state(wr, ur, ptr, sm, ptst, bn, tr, urst, vbr);
  const HlldInner in = hlld_inner<Batched>(tl, tr, bn, sm, ptst);
  Real uldst[NWAVE_FACE], urdst[NWAVE_FACE];
  hlld_inner_state(in, Real(-1), in.sqdl, ulst, vbl, uldst);
  hlld_inner_state(in, Real(1), in.sqdr, urst, vbr, urdst);

  // The flux on the side of the contact where x = 0 lies (the average of
  // both where S_M is exactly 0), or the upwind side's beyond the fan.
  Real fcl[NWAVE_FACE], fcr[NWAVE_FACE];
  // The whole fan on one side of the face: sl >= 0 or sr <= 0 (a
  // comparison of reals: logic on bools does not vectorise).
  const bool outside = math::fmax(sl, -sr) >= Real(0);
  hlld_side_flux(fl, ul, ulst, uldst, sl, in.sls, in.sls < Real(0), fcl);
  hlld_side_flux(fr, ur, urst, urdst, sr, in.srs, in.srs > Real(0), fcr);
  AX_UNROLL
  for (int n = 0; n < NWAVE_FACE; ++n) {
    // One two-way selection at a time: GCC if-converts (and so
    // vectorises) selections of at most four values.
    Real fan = sm < Real(0) ? fcr[n] : Real(0.5) * (fcl[n] + fcr[n]);
    fan = sm > Real(0) ? fcl[n] : fan;
    const Real upwind = sl >= Real(0) ? fl[n] : fr[n];
    flux[n] = outside ? upwind : fan;
  }
}

// The branch form, for GPUs: a face outside the fan takes the upwind
// side's physical flux, one inside it computes only the side of the contact
// where x = 0 lies (both only where S_M is exactly 0). Half the selection
// form's states stay live, so the fused tiles kernel holds HLLD in fewer
// registers and fits four teams a multiprocessor; a warp whose faces fall
// on both sides runs both in turn. H200, 256^3 Orszag-Tang, one lease: the
// fused step 7.52e8 cell-updates/s against 6.78e8 with the selection form.
template <bool Batched = kBatchedReciprocals>
KOKKOS_FORCEINLINE_FUNCTION void mhd_flux_hlld_branch(const IdealGas& eos, const Real wl[NWAVE_FACE],
                                                      const Real wr[NWAVE_FACE], Real bn, Real flux[NWAVE_FACE]) {
  Real sl, sr;
  mhd_outer_speeds<Batched>(eos, wl, wr, bn, sl, sr);
  if (sl >= Real(0) || sr <= Real(0)) {
    Real w[NWAVE_FACE], u[NWAVE_FACE];
    AX_UNROLL
    for (int n = 0; n < NWAVE_FACE; ++n) w[n] = sl >= Real(0) ? wl[n] : wr[n];
    mhd_normal_flux(eos, w, bn, flux, u);
    return;
  }
  Real sm, ptst;
  hlld_contact(wl, wr, mhd_face_total_pressure(wl, bn), mhd_face_total_pressure(wr, bn), sl, sr, sm, ptst);
  const HlldStarTransverse tl = hlld_star_transverse(wl, sl, sm, ptst, bn);
  const HlldStarTransverse tr = hlld_star_transverse(wr, sr, sm, ptst, bn);
  const HlldInner in = hlld_inner<Batched>(tl, tr, bn, sm, ptst);
  // Left of the contact (sm > 0), right of it (sm < 0), or both, averaged.
  auto side_flux = [&](bool left, Real fc[NWAVE_FACE]) {
    Real w[NWAVE_FACE], f[NWAVE_FACE], u[NWAVE_FACE], ust[NWAVE_FACE], udst[NWAVE_FACE];
    AX_UNROLL
    for (int n = 0; n < NWAVE_FACE; ++n) w[n] = left ? wl[n] : wr[n];
    const Real s = left ? sl : sr, ss = left ? in.sls : in.srs, sqd = left ? in.sqdl : in.sqdr;
    const Real side = left ? Real(-1) : Real(1);
    mhd_normal_flux(eos, w, bn, f, u);
    Real vbst;
    hlld_star_state(w, u, mhd_face_total_pressure(w, bn), sm, ptst, bn, left ? tl : tr, ust, vbst);
    hlld_inner_state(in, side, sqd, ust, vbst, udst);
    // Beyond this side's Alfven wave: sls < 0 on the left, srs > 0 on the right.
    hlld_side_flux(f, u, ust, udst, s, ss, side * ss > Real(0), fc);
  };
  if (sm != Real(0)) {
    side_flux(sm > Real(0), flux);
  } else {
    Real fcr[NWAVE_FACE];
    side_flux(true, flux);
    side_flux(false, fcr);
    AX_UNROLL
    for (int n = 0; n < NWAVE_FACE; ++n) flux[n] = Real(0.5) * (flux[n] + fcr[n]);
  }
}

template <bool Batched = kBatchedReciprocals>
KOKKOS_FORCEINLINE_FUNCTION void mhd_flux_hlld(const IdealGas& eos, const Real wl[NWAVE_FACE],
                                               const Real wr[NWAVE_FACE], Real bn, Real flux[NWAVE_FACE]) {
  mhd_flux_hlld_select<Batched>(eos, wl, wr, bn, flux);
}

enum class HlldForm { select, branch };

template <MhdRiemannSolver RS, HlldForm FORM = HlldForm::select, bool Batched = kBatchedReciprocals>
KOKKOS_FORCEINLINE_FUNCTION void mhd_riemann_flux(const IdealGas& eos, const Real wl[NWAVE_FACE],
                                             const Real wr[NWAVE_FACE], Real bn, Real flux[NWAVE_FACE]) {
  if constexpr (RS == MhdRiemannSolver::llf) {
    mhd_flux_llf<Batched>(eos, wl, wr, bn, flux);
  } else if constexpr (RS == MhdRiemannSolver::hlle) {
    mhd_flux_hlle<Batched>(eos, wl, wr, bn, flux);
  } else if constexpr (FORM == HlldForm::branch) {
    mhd_flux_hlld_branch<Batched>(eos, wl, wr, bn, flux);
  } else {
    mhd_flux_hlld_select<Batched>(eos, wl, wr, bn, flux);
  }
}

}  // namespace ax
