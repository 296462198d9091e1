#include "backend/grid.hpp"

namespace ax {

Grid make_grid(const int nx_global[3], const Real xmin[3], const Real xmax[3],
               int ng, const int dims[3], const int coords[3]) {
  Grid g;
  g.ng = ng;
  for (int d = 0; d < 3; ++d) {
    g.nx_global[d] = nx_global[d];
    g.nx[d] = nx_global[d] / dims[d];
    g.offset[d] = coords[d] * g.nx[d];
    g.gh[d] = nx_global[d] > 1 ? ng : 0;
    g.xmin[d] = xmin[d];
    g.xmax[d] = xmax[d];
    g.dx[d] = (xmax[d] - xmin[d]) / Real(nx_global[d]);
  }
  return g;
}

}  // namespace ax
