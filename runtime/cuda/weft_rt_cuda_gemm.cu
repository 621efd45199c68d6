//===- weft_rt_cuda_gemm.cu - fp16-weight GEMV and cuBLAS GEMM ------------===//
#include "weft_rt_cuda_common.cuh"

namespace weft::rt::cuda {
using namespace detail;

namespace {
constexpr int kWarpsPerBlock = 8;

__global__ void toHalfKernel(const float *in, __half *out, int64_t n) {
  int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = __float2half(in[i]);
}

// One warp per output row; m <= 2 activation rows share each weight load.
__global__ void gemvF16Kernel(const float *x, const __half *w, float *y, int m,
                              int n, int k) {
  int row = blockIdx.x * kWarpsPerBlock + threadIdx.x / 32;
  int lane = threadIdx.x % 32;
  if (row >= n)
    return;
  const __half *wRow = w + int64_t(row) * k;
  float acc0 = 0.0f, acc1 = 0.0f;
  for (int i = lane; i < k; i += 32) {
    float wv = __half2float(wRow[i]);
    acc0 += wv * x[i];
    if (m > 1)
      acc1 += wv * x[k + i];
  }
  warpSumStore(acc0, acc1, m, y, row, n);
}
} // namespace

cudaError_t detail::toHalf(const float *in, __half *out, int64_t n,
                           cudaStream_t stream) {
  toHalfKernel<<<blocksFor(n), kBlock, 0, stream>>>(in, out, n);
  return cudaGetLastError();
}

cudaError_t detail::cublasGemmHalf(cublasHandle_t handle, const __half *x16,
                                   const __half *w16, float *y, int m, int n,
                                   int k, cudaStream_t stream) {
  // Row-major Y[M][N] = X W^T is column-major Y^T[N][M] = W^T^T X^T: W's
  // row-major storage read as column-major is W^T (K x N), so op(A) = T.
  const float alpha = 1.0f, beta = 0.0f;
  if (cublasSetStream(handle, stream) != CUBLAS_STATUS_SUCCESS)
    return cudaErrorUnknown;
  cublasStatus_t status =
      cublasGemmEx(handle, CUBLAS_OP_T, CUBLAS_OP_N, n, m, k, &alpha, w16,
                   CUDA_R_16F, k, x16, CUDA_R_16F, k, &beta, y, CUDA_R_32F, n,
                   CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
  return status == CUBLAS_STATUS_SUCCESS ? cudaSuccess : cudaErrorUnknown;
}

/// Rows of X up to which the GEMV kernels are used.
constexpr int kGemvMaxRows = 2;

cudaError_t gemmF16(cublasHandle_t handle, const float *x, const __half *w,
                    float *y, int m, int n, int k, __half *workspace,
                    cudaStream_t stream) {
  if (m <= 0 || n <= 0 || k <= 0)
    return cudaErrorInvalidValue;
  if (m <= kGemvMaxRows) {
    unsigned blocks = unsigned((n + kWarpsPerBlock - 1) / kWarpsPerBlock);
    gemvF16Kernel<<<blocks, 32 * kWarpsPerBlock, 0, stream>>>(x, w, y, m, n, k);
    return cudaGetLastError();
  }
  cudaError_t status = toHalf(x, workspace, int64_t(m) * k, stream);
  if (status != cudaSuccess)
    return status;
  return cublasGemmHalf(handle, workspace, w, y, m, n, k, stream);
}

} // namespace weft::rt::cuda
