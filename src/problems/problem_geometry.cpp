#include "problems/problem_geometry.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "config/config.hpp"
#include "config/section.hpp"
#include "problems/problem.hpp"

namespace ax {

namespace {

bool periodic(const Config& cfg, int d) { return cfg.bc[d][0] == BoundaryKind::periodic; }

// Cell centres along axis d as Grid::x_center forms them.
Real centre_of_cell(const Config& cfg, int d, int i) {
  const Real dx = Real((cfg.xmax[d] - cfg.xmin[d]) / cfg.nx[d]);
  return Real(cfg.xmin[d]) + (Real(i) + Real(0.5)) * dx;
}

std::string number(double x) {
  std::ostringstream os;
  os << x;
  return os.str();
}

}  // namespace

CentreOffsets centre_offsets(const Config& cfg, const Real center[3]) {
  CentreOffsets o;
  for (int d = 0; d < 3; ++d) {
    o.active[d] = cfg.nx[d] > 1;
    o.c[d] = center[d];
    if (!o.active[d] || !periodic(cfg, d)) continue;
    const double lo = cfg.xmin[d], length = cfg.xmax[d] - cfg.xmin[d];
    o.period[d] = Real(length);
    // A centre given outside the domain stands for its image inside.
    if (center[d] < lo || center[d] > cfg.xmax[d]) o.c[d] = Real(lo + length * (std::fmod(center[d] - lo, length) +
                                                                           (center[d] < lo ? 1 : 0)));
  }
  return o;
}

void require_ball_cells(Section& p, const std::string& key, const Config& cfg, const CentreOffsets& o, double radius,
                        bool some_outside, const std::string& what) {
  // Squared distance is a sum over the axes, so the nearest and farthest
  // cell centres are those of each axis apart.
  double nearest = 0, farthest = 0;
  for (int d = 0; d < 3; ++d) {
    if (!o.active[d]) continue;
    double lo = 1e300, hi = 0;
    for (int i = 0; i < cfg.nx[d]; ++i) {
      const double s = std::fabs(double(o.along(d, centre_of_cell(cfg, d, i))));
      lo = std::min(lo, s);
      hi = std::max(hi, s);
    }
    nearest += lo * lo;
    farthest += hi * hi;
  }
  const double r2 = radius * radius;
  if (!(nearest < r2))
    p.fail(key, what + " holds no cell centre: " + key + " " + number(radius) + ", the nearest centre lies " +
                    number(std::sqrt(nearest)) + " from problem.center; expected a larger " + key +
                    " or a finer mesh, and a centre inside the domain");
  if (some_outside && !(farthest >= r2))
    p.fail(key, what + " holds every cell centre (" + key + " " + number(radius) + ", the farthest centre lies " +
                    number(std::sqrt(farthest)) + " from problem.center), so the domain is uniform; expected a "
                    "smaller " + key);
}

void require_xy_plane(Section& p, const Config& cfg, const std::string& what) {
  if (cfg.nx[0] > 1 && cfg.nx[1] > 1) return;
  const std::string cells = "[" + std::to_string(cfg.nx[0]) + ", " + std::to_string(cfg.nx[1]) + ", " +
                            std::to_string(cfg.nx[2]) + "]";
  p.fail("name", what + ": expected mesh.cells with x and y active, got " + cells + " (" +
                     key_place(cfg, "mesh.cells") + ")");
}

void require_active(Section& p, const std::string& key, const Config& cfg, int axis) {
  if (cfg.nx[axis] > 1) return;
  const char a = "xyz"[axis];
  const std::string cells = "[" + std::to_string(cfg.nx[0]) + ", " + std::to_string(cfg.nx[1]) + ", " +
                            std::to_string(cfg.nx[2]) + "]";
  p.fail(key, std::string("the problem runs along ") + a + ", but mesh.cells = " + cells + " has one cell along " + a +
                  " (its one cell would hold one state only): expected more than one cell along " + a +
                  " in mesh.cells, or the direction of an active axis");
}

void require_tube(Section& p, const Config& cfg, int axis, double x) {
  require_active(p, "direction", cfg, axis);
  require_inside(p, "position", x, cfg, axis);
  const char a = "xyz"[axis];
  const double first = centre_of_cell(cfg, axis, 0), last = centre_of_cell(cfg, axis, cfg.nx[axis] - 1);
  if (!(first < x && last >= x))
    p.fail("position", "every cell centre lies on one side of " + number(x) + " (the centres along " + a + " run from " +
                           number(first) + " to " + number(last) + "), so the tube holds one state: expected a " +
                           "position between the first and the last cell centre");
  const std::string b = std::string("boundaries.") + a;
  const bool given = cfg.key_where.count(b) || cfg.key_where.count(b + "_inner") || cfg.key_where.count(b + "_outer");
  if (periodic(cfg, axis) && !given)
    p.fail("direction", std::string("the tube's two states would meet again at the periodic seam along ") + a +
                            " (boundaries default to periodic): expected " + b + ": outflow (Athena++'s tubes), or " +
                            b + ": periodic given to run it that way");
}

}  // namespace ax
