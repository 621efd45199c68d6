//===- weft_rt_cuda.h - weft's CUDA runtime kernels -------------*- C++ -*-===//
//
// Host-callable launchers for the kernels generated CUDA serving programs
// use. Conventions match runtime/cpu: a linear weight is row-major [N][K],
// activations are row-major [M][K] fp32, Y[M][N] = X * W^T. Every pointer is
// device memory; every launcher is asynchronous on `stream` and returns the
// launch status (cudaSuccess, or the error of the launch / of a bad argument
// as cudaErrorInvalidValue).
//
// The quantized format is docs/quantization.md's, byte for byte: the CPU
// quantizer's arrays can be copied to the device unchanged.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_RT_CUDA_H
#define WEFT_RT_CUDA_H

#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>

namespace weft::rt::cuda {

/// Device-side view of a group-quantized weight (same fields as the CPU
/// QuantView).
struct QuantWeight {
  const uint8_t *codes; ///< rows * ceil(cols / 8) * bits bytes
  const __half *scales; ///< rows * ceil(cols / groupSize)
  const uint8_t *zeros; ///< rows * ceil(cols / groupSize)
  int rows, cols, bits, groupSize;
};

// --- normalisation, activations -----------------------------------------
cudaError_t rmsNorm(const float *x, const float *weight, float *out, int m,
                    int n, float eps, cudaStream_t stream);
cudaError_t layerNorm(const float *x, const float *weight, const float *bias,
                      float *out, int m, int n, float eps, cudaStream_t stream);
/// gate = silu(gate) * up
cudaError_t swiglu(float *gate, const float *up, int64_t n,
                   cudaStream_t stream);
cudaError_t gelu(float *x, int64_t n, cudaStream_t stream);
cudaError_t relu(float *x, int64_t n, cudaStream_t stream);
cudaError_t addInPlace(float *x, const float *y, int64_t n,
                       cudaStream_t stream);

// --- positions and attention ----------------------------------------------
/// llama2.c rotary embedding (pairs 2i, 2i+1 within each head); row t of x
/// is at position firstPos + t.
cudaError_t rope(float *x, int m, int heads, int headSize, int firstPos,
                 float theta, cudaStream_t stream);
/// Copies m rows of k and v ([m][kvDim]) into cache rows firstPos.. .
cudaError_t kvCacheAppend(float *keys, float *values, const float *k,
                          const float *v, int firstPos, int m, int kvDim,
                          cudaStream_t stream);
/// Causal GQA attention of m query rows at positions pastLen.. against
/// cache rows 0 .. pastLen+m-1 (appended already). Scores live in shared
/// memory: pastLen + m must not exceed maxAttentionContext().
cudaError_t attention(const float *q, const float *keys, const float *values,
                      float *out, int m, int pastLen, int heads, int kvHeads,
                      int headSize, cudaStream_t stream);
int maxAttentionContext();

// --- matrix products -------------------------------------------------------
/// fp16 weights; fp32 activations and accumulation. Uses a GEMV kernel for
/// m <= 2 and cuBLAS (tensor cores) otherwise; `workspace` holds at least
/// m * k halves for the converted activations.
cudaError_t gemmF16(cublasHandle_t handle, const float *x, const __half *w,
                    float *y, int m, int n, int k, __half *workspace,
                    cudaStream_t stream);
/// Weight-only quantized product. m <= 2: codes are unpacked in registers
/// (decode). Otherwise W is dequantized to fp16 into `dequantBuffer`
/// (rows * cols halves) and multiplied with cuBLAS; `workspace` as above.
cudaError_t gemmQuant(cublasHandle_t handle, const float *x,
                      const QuantWeight &w, float *y, int m,
                      __half *dequantBuffer, __half *workspace,
                      cudaStream_t stream);
/// W -> fp16 [rows][cols].
cudaError_t dequantize(const QuantWeight &w, __half *out, cudaStream_t stream);

// --- sampling ----------------------------------------------------------------
/// Index of the largest of n logits (first on ties) into *result.
cudaError_t argmax(const float *logits, int n, int *result,
                   cudaStream_t stream);

} // namespace weft::rt::cuda

#endif
