//===- weft_rt_cuda_activation.cu - SwiGLU, GELU, ReLU, residual add ------===//
#include "weft_rt_cuda_common.cuh"

namespace weft::rt::cuda {
using namespace detail;

namespace {
__global__ void swigluKernel(float *gate, const float *up, int64_t n) {
  int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) {
    float g = gate[i];
    gate[i] = g / (1.0f + __expf(-g)) * up[i];
  }
}

__global__ void geluKernel(float *x, int64_t n) {
  int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    x[i] =
        0.5f * v * (1.0f + tanhf(0.7978845608f * (v + 0.044715f * v * v * v)));
  }
}

__global__ void reluKernel(float *x, int64_t n) {
  int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = fmaxf(x[i], 0.0f);
}

__global__ void addKernel(float *x, const float *y, int64_t n) {
  int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] += y[i];
}
} // namespace

cudaError_t swiglu(float *gate, const float *up, int64_t n,
                   cudaStream_t stream) {
  return launchElementwise(swigluKernel, n, stream, gate, up, n);
}

cudaError_t gelu(float *x, int64_t n, cudaStream_t stream) {
  return launchElementwise(geluKernel, n, stream, x, n);
}

cudaError_t relu(float *x, int64_t n, cudaStream_t stream) {
  return launchElementwise(reluKernel, n, stream, x, n);
}

cudaError_t addInPlace(float *x, const float *y, int64_t n,
                       cudaStream_t stream) {
  return launchElementwise(addKernel, n, stream, x, y, n);
}

} // namespace weft::rt::cuda
