// One FD WENO5 hydro face a thread, from the conserved states of its six
// cells and their thermodynamic values (CellThermo, formed once a stage):
// the fused faces kernel's arithmetic (weno_face_flux with cell_flux_of)
// without its indexing, for count.sh. WEIGHTS: js or z.
#include "fd/weno_face.hpp"

using namespace ax;

__global__ void fd_face(FdOptions o, const Real* __restrict__ u, const Real* __restrict__ th, Real* __restrict__ out,
                        int n) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  auto cell = [&](int m, Real uc[NHYDRO], Real w[NHYDRO], Real f[NHYDRO], Real& c) {
    for (int v = 0; v < NHYDRO; ++v) uc[v] = u[(t + m) * NHYDRO + v];
    const Real* tm = th + (t + m) * kCellThermoVals;
    const CellThermo ct{tm[0], tm[1], tm[2]};
    cell_flux_of(uc, ct, w, f);
    c = ct.c;
  };
  auto speed = [&](int m, Real& un, Real& c) {
    un = __ldg(&u[(t + m) * NHYDRO + 1]) * __ldg(&th[(t + m) * kCellThermoVals]);
    c = __ldg(&th[(t + m) * kCellThermoVals + 2]);
  };
  Real fhat[NHYDRO];
  weno_face_flux<WenoWeights::WEIGHTS, EigenAverage::arithmetic>(o, cell, speed, fhat);
  for (int v = 0; v < NHYDRO; ++v) out[t * NHYDRO + v] = fhat[v];
}
