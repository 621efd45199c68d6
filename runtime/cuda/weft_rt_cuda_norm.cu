//===- weft_rt_cuda_norm.cu - RMSNorm and LayerNorm -----------------------===//
#include "weft_rt_cuda_common.cuh"

namespace weft::rt::cuda {
using namespace detail;

namespace {
constexpr int kNormBlock = 256;

// One block per row.
__global__ void rmsNormKernel(const float *x, const float *weight, float *out,
                              int n, float eps) {
  const float *row = x + int64_t(blockIdx.x) * n;
  float *dst = out + int64_t(blockIdx.x) * n;
  float ss = 0.0f;
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    ss += row[i] * row[i];
  float scale = rsqrtf(blockSum(ss) / float(n) + eps);
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    dst[i] = weight[i] * (scale * row[i]);
}

__global__ void layerNormKernel(const float *x, const float *weight,
                                const float *bias, float *out, int n,
                                float eps) {
  const float *row = x + int64_t(blockIdx.x) * n;
  float *dst = out + int64_t(blockIdx.x) * n;
  float sum = 0.0f;
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    sum += row[i];
  float mean = blockSum(sum) / float(n);
  float var = 0.0f;
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    var += (row[i] - mean) * (row[i] - mean);
  float scale = rsqrtf(blockSum(var) / float(n) + eps);
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    dst[i] = (row[i] - mean) * scale * weight[i] + (bias ? bias[i] : 0.0f);
}
} // namespace

cudaError_t rmsNorm(const float *x, const float *weight, float *out, int m,
                    int n, float eps, cudaStream_t stream) {
  if (m <= 0 || n <= 0)
    return cudaErrorInvalidValue;
  rmsNormKernel<<<m, kNormBlock, 0, stream>>>(x, weight, out, n, eps);
  return cudaGetLastError();
}

cudaError_t layerNorm(const float *x, const float *weight, const float *bias,
                      float *out, int m, int n, float eps,
                      cudaStream_t stream) {
  if (m <= 0 || n <= 0)
    return cudaErrorInvalidValue;
  layerNormKernel<<<m, kNormBlock, 0, stream>>>(x, weight, bias, out, n, eps);
  return cudaGetLastError();
}

} // namespace weft::rt::cuda
