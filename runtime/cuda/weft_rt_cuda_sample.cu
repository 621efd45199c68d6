//===- weft_rt_cuda_sample.cu - Greedy token selection on the device ------===//
#include "weft_rt_cuda_common.cuh"

namespace weft::rt::cuda {

namespace {
constexpr int kArgmaxBlock = 1024;

// A single block: strided scan, then a tree reduction preferring the lower
// index on ties (the CPU runtime's rule).
__global__ void argmaxKernel(const float *logits, int n, int *result) {
  __shared__ float bestValue[kArgmaxBlock];
  __shared__ int bestIndex[kArgmaxBlock];
  float value = -INFINITY;
  int index = n; // beyond every real index: loses all ties
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    if (logits[i] > value || index == n) {
      value = logits[i];
      index = i;
    }
  bestValue[threadIdx.x] = value;
  bestIndex[threadIdx.x] = index;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) {
      float v = bestValue[threadIdx.x + stride];
      int j = bestIndex[threadIdx.x + stride];
      if (v > bestValue[threadIdx.x] ||
          (v == bestValue[threadIdx.x] && j < bestIndex[threadIdx.x])) {
        bestValue[threadIdx.x] = v;
        bestIndex[threadIdx.x] = j;
      }
    }
    __syncthreads();
  }
  if (threadIdx.x == 0)
    *result = bestIndex[0];
}
} // namespace

cudaError_t argmax(const float *logits, int n, int *result,
                   cudaStream_t stream) {
  if (n <= 0)
    return cudaErrorInvalidValue;
  argmaxKernel<<<1, kArgmaxBlock, 0, stream>>>(logits, n, result);
  return cudaGetLastError();
}

} // namespace weft::rt::cuda
