// One FD WENO5 MHD face a thread: its six cells' fluxes and wave speeds
// (mhd_cell_flux) and the face (mhd_weno_face_flux), as the CPU pencils
// run them; the GPU segments kernel forms each cell once for about one
// face instead of six. For count.sh. WEIGHTS: js or z.
#include "fd/weno_mhd.hpp"

using namespace ax;

__global__ void fd_mhd_face(FdOptions o, const Real* __restrict__ u, Real* __restrict__ out, int n) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  Real uc[kWenoStencil][8], w[kWenoStencil][8], f[kWenoStencil][8], lambda[kWenoStencil][NMHD_WAVES];
  for (int m = 0; m < kWenoStencil; ++m) {
    for (int v = 0; v < 8; ++v) uc[m][v] = u[(t + m) * 8 + v];
    mhd_cell_flux(o.eos, uc[m], w[m], f[m], lambda[m]);
  }
  Real fhat[8];
  mhd_weno_face_flux<WenoWeights::WEIGHTS>(o, uc, w, f, lambda, fhat);
  for (int v = 0; v < 8; ++v) out[t * 8 + v] = fhat[v];
}
