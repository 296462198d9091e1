// One FD WENO5 hydro face a thread, from the conserved states of its six
// cells: the fused faces kernel's arithmetic (weno_face_flux with
// cell_flux) without its indexing, for count.sh. WEIGHTS: js or z.
#include "fd/weno_face.hpp"

using namespace ax;

__global__ void fd_face(FdOptions o, const Real* __restrict__ u, Real* __restrict__ out, int n) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  auto cell = [&](int m, Real uc[NHYDRO], Real w[NHYDRO], Real f[NHYDRO], Real& c) {
    for (int v = 0; v < NHYDRO; ++v) uc[v] = u[(t + m) * NHYDRO + v];
    cell_flux(o.eos, uc, w, f, c);
  };
  auto speed = [&](int m, Real& un, Real& c) {
    Real uc[NHYDRO], w[NHYDRO], f[NHYDRO];
    for (int v = 0; v < NHYDRO; ++v) uc[v] = __ldg(&u[(t + m) * NHYDRO + v]);
    cell_flux(o.eos, uc, w, f, c);
    un = w[1];
  };
  Real fhat[NHYDRO];
  weno_face_flux<WenoWeights::WEIGHTS, EigenAverage::arithmetic>(o, cell, speed, fhat);
  for (int v = 0; v < NHYDRO; ++v) out[t * NHYDRO + v] = fhat[v];
}
