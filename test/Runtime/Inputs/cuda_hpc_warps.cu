// Warp-level code that the CUDA emulation must refuse to build (it would
// run wrongly: the threads of an emulated block are not warps).
#include "weft_cuda.h"

__global__ void warpSum(float *x) {
  float v = x[threadIdx.x];
#ifdef USE_WARP_SIZE
  for (int offset = warpSize / 2; offset > 0; offset /= 2)
#else
  for (int offset = 16; offset > 0; offset /= 2)
#endif
    v += __shfl_xor_sync(0xffffffffu, v, offset);
  x[threadIdx.x] = v;
}

int main() {
  float *d = weft_cuda_alloc<float>(32);
  WEFT_CUDA_LAUNCH(warpSum, 1, 1, 1, 32, 1, 1, d);
  weft_cuda_free(d);
  return 0;
}
