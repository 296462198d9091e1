// Where a problem's features lie on the grid: distances from a centre as
// the initial states measure them, and the checks that refuse a set-up the
// grid cannot show (a sphere with no cell centre inside, a tube along an
// axis with one cell or with every cell on one side): such runs used to
// run a uniform state and exit 0.
#pragma once

#include <string>

#include "backend/types.hpp"

namespace ax {

class Section;
struct Config;

// Offsets from a centre along the active axes only (a circle in 2D, a slab
// in 1D, wherever the centre puts the inactive coordinates) and, across a
// periodic axis, to the nearest image of the centre, so a sphere or loop
// that crosses the seam goes on from the other side instead of ending in a
// sheet there. Inside half a period the plain difference, bitwise.
struct CentreOffsets {
  Real c[3] = {0, 0, 0};       // the centre, moved into the domain along periodic axes
  Real period[3] = {0, 0, 0};  // the domain's length along periodic active axes, else 0
  bool active[3] = {false, false, false};

  KOKKOS_INLINE_FUNCTION Real along(int d, Real x) const {
    if (!active[d]) return 0;
    Real s = x - c[d];
    if (period[d] > 0) {
      if (s > Real(0.5) * period[d]) s -= period[d];
      else if (s < Real(-0.5) * period[d]) s += period[d];
    }
    return s;
  }
  KOKKOS_INLINE_FUNCTION Real squared(Real x, Real y, Real z) const {
    const Real a = along(0, x), b = along(1, y), e = along(2, z);
    return a * a + b * b + e * e;
  }
};

CentreOffsets centre_offsets(const Config& cfg, const Real center[3]);

// Fails at `key` unless a cell centre lies strictly within `radius` of the
// centre and, where `some_outside`, one lies outside; `what` names the
// feature ("the blast").
void require_ball_cells(Section& p, const std::string& key, const Config& cfg, const CentreOffsets& o, double radius,
                        bool some_outside, const std::string& what);

// Fails at problem.name unless x and y are active; `what` says why the
// problem needs them ("the vortex lies in the x-y plane"). The message
// names mesh.cells and where it was given, which may be the key to change.
void require_xy_plane(Section& p, const Config& cfg, const std::string& what);

// Fails at `key` unless the grid has more than one cell along axis.
void require_active(Section& p, const std::string& key, const Config& cfg, int axis);

// A shock tube along axis with its discontinuity at x: the axis active, a
// cell centre on either side of x (left: centre < x), and no periodic seam
// along the axis unless one was asked for (the default boundaries are
// periodic, and the two states would meet again there).
void require_tube(Section& p, const Config& cfg, int axis, double x);

}  // namespace ax
