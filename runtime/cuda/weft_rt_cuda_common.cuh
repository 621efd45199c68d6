//===- weft_rt_cuda_common.cuh - Shared device helpers (internal) ---------===//
#ifndef WEFT_RT_CUDA_COMMON_CUH
#define WEFT_RT_CUDA_COMMON_CUH

#include "weft_rt_cuda.h"

namespace weft::rt::cuda::detail {

constexpr int kBlock = 256;

inline unsigned blocksFor(int64_t n) {
  return unsigned((n + kBlock - 1) / kBlock);
}

/// Sum over a block (blockDim.x a multiple of 32, at most 1024).
__device__ inline float blockSum(float v) {
  __shared__ float partial[32];
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_xor_sync(0xffffffffu, v, offset);
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  __syncthreads(); // partial may still be read by a previous call
  if (lane == 0)
    partial[warp] = v;
  __syncthreads();
  int warps = blockDim.x / 32;
  v = lane < warps ? partial[lane] : 0.0f;
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_xor_sync(0xffffffffu, v, offset);
  return v;
}

/// Maximum over a block, same constraints.
__device__ inline float blockMax(float v) {
  __shared__ float partial[32];
  for (int offset = 16; offset > 0; offset /= 2)
    v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, offset));
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  __syncthreads();
  if (lane == 0)
    partial[warp] = v;
  __syncthreads();
  int warps = blockDim.x / 32;
  v = lane < warps ? partial[lane] : -INFINITY;
  for (int offset = 16; offset > 0; offset /= 2)
    v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, offset));
  return v;
}

/// Sums two per-lane partial dot products over a warp; lane 0 writes them
/// as y[row] and, when m > 1, y[rows + row] (GEMV with one or two X rows).
__device__ inline void warpSumStore(float acc0, float acc1, int m, float *y,
                                    int row, int rows) {
  for (int offset = 16; offset > 0; offset /= 2) {
    acc0 += __shfl_xor_sync(0xffffffffu, acc0, offset);
    acc1 += __shfl_xor_sync(0xffffffffu, acc1, offset);
  }
  if (threadIdx.x % 32 == 0) {
    y[row] = acc0;
    if (m > 1)
      y[rows + row] = acc1;
  }
}

/// Launches a one-thread-per-element kernel over n elements.
template <typename... Params, typename... Args>
cudaError_t launchElementwise(void (*kernel)(Params...), int64_t n,
                              cudaStream_t stream, Args... args) {
  if (n < 0)
    return cudaErrorInvalidValue;
  if (n == 0)
    return cudaSuccess;
  kernel<<<blocksFor(n), kBlock, 0, stream>>>(args...);
  return cudaGetLastError();
}

/// Converts fp32 activations to fp16 for tensor-core GEMMs.
cudaError_t toHalf(const float *in, __half *out, int64_t n,
                   cudaStream_t stream);
/// y[m][n] = x16[m][k] * w16[n][k]^T with fp32 output, via cuBLAS.
cudaError_t cublasGemmHalf(cublasHandle_t handle, const __half *x16,
                           const __half *w16, float *y, int m, int n, int k,
                           cudaStream_t stream);

} // namespace weft::rt::cuda::detail

#endif
