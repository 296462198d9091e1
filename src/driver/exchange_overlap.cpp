#include "driver/exchange_overlap.hpp"

namespace ax {

ExchangeOverlap plan_exchange_overlap(const Config& cfg, const Grid& grid, const GhostExchange& ghosts,
                                      const HydroSolver& solver) {
  ExchangeOverlap o;
  auto no = [&](const std::string& why) {
    o.why = why;
    return o;
  };
  if (!cfg.overlap_exchange) return no("mesh.overlap_exchange is false");
  bool any = false;
  for (int d = 0; d < 3; ++d) any = any || ghosts.has_messages(d);
  if (!any) return no("no ghosts come from another rank");
  const std::string refusal = solver.box_stage_refusal();
  if (!refusal.empty()) return no(refusal);
  // Peel the slabs of each axis with messages off the interior; the
  // remaining core reads no ghost a message brings.
  Box rest = grid.interior();
  for (int d = 0; d < 3; ++d) {
    if (!ghosts.has_messages(d)) continue;
    const int ng = grid.gh[d];
    int* lo = d == 0 ? &rest.ib : d == 1 ? &rest.jb : &rest.kb;
    int* hi = d == 0 ? &rest.ie : d == 1 ? &rest.je : &rest.ke;
    if (*hi - *lo <= 2 * ng) return no("the block is no thicker than two ghost depths along " + std::string(1, "xyz"[d]));
    Box below = rest, above = rest;
    (d == 0 ? below.ie : d == 1 ? below.je : below.ke) = *lo + ng;
    (d == 0 ? above.ib : d == 1 ? above.jb : above.kb) = *hi - ng;
    o.shell.push_back(below);
    o.shell.push_back(above);
    *lo += ng;
    *hi -= ng;
  }
  o.core = rest;
  o.on = true;
  o.why = "the interior away from rank boundaries runs while the ghosts are in flight";
  return o;
}

}  // namespace ax
