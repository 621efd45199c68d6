//===- weft_rt_cuda_qgemm.cu - Weight-only quantized GEMV / GEMM ----------===//
//
// Format: docs/quantization.md. Every block of 8 codes is `Bits` bytes and
// groups start at block boundaries, so a lane decodes whole blocks with one
// 64-bit little-endian value and constant shifts.
//
//===----------------------------------------------------------------------===//
#include "weft_rt_cuda_common.cuh"

#include <type_traits>

namespace weft::rt::cuda {
using namespace detail;

namespace {
constexpr int kWarpsPerBlock = 8;

template <int Bits> __device__ inline uint64_t loadBlock(const uint8_t *p) {
  if constexpr (Bits == 8) { // 8-byte aligned: row bytes are a multiple of 8
    uint2 v = *reinterpret_cast<const uint2 *>(p);
    return uint64_t(v.x) | uint64_t(v.y) << 32;
  } else if constexpr (Bits == 4) { // 4-byte aligned
    return *reinterpret_cast<const uint32_t *>(p);
  } else {
    uint64_t v = 0;
#pragma unroll
    for (int b = 0; b < Bits; ++b)
      v |= uint64_t(p[b]) << (8 * b);
    return v;
  }
}

template <int Bits> __device__ inline float codeAt(uint64_t block, int j) {
  return float(unsigned(block >> (Bits * j)) & ((1u << Bits) - 1));
}

// Decode: one warp per output row, lanes stride over blocks of 8 codes.
template <int Bits>
__global__ void gemvQuantKernel(const float *x, QuantWeight w, float *y,
                                int m) {
  int row = blockIdx.x * kWarpsPerBlock + threadIdx.x / 32;
  int lane = threadIdx.x % 32;
  if (row >= w.rows)
    return;
  const int blocks = (w.cols + 7) / 8;
  const int groups = (w.cols + w.groupSize - 1) / w.groupSize;
  const uint8_t *codes = w.codes + int64_t(row) * blocks * Bits;
  float acc0 = 0.0f, acc1 = 0.0f;
  for (int b = lane; b < blocks; b += 32) {
    int k = b * 8, g = k / w.groupSize;
    float scale = __half2float(w.scales[int64_t(row) * groups + g]);
    float zero = float(w.zeros[int64_t(row) * groups + g]);
    uint64_t block = loadBlock<Bits>(codes + int64_t(b) * Bits);
    int valid = min(8, w.cols - k);
    float s0 = 0.0f, s1 = 0.0f;
#pragma unroll
    for (int j = 0; j < 8; ++j) {
      if (j < valid) {
        float c = codeAt<Bits>(block, j) - zero;
        s0 += c * x[k + j];
        if (m > 1)
          s1 += c * x[w.cols + k + j];
      }
    }
    acc0 += scale * s0;
    acc1 += scale * s1;
  }
  warpSumStore(acc0, acc1, m, y, row, w.rows);
}

// Prefill: one thread per block of 8 codes writes 8 fp16 weights.
template <int Bits>
__global__ void dequantizeKernel(QuantWeight w, __half *out) {
  const int blocks = (w.cols + 7) / 8;
  int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= int64_t(w.rows) * blocks)
    return;
  int row = int(i / blocks), b = int(i % blocks), k = b * 8;
  const int groups = (w.cols + w.groupSize - 1) / w.groupSize;
  int g = k / w.groupSize;
  float scale = __half2float(w.scales[int64_t(row) * groups + g]);
  float zero = float(w.zeros[int64_t(row) * groups + g]);
  uint64_t block =
      loadBlock<Bits>(w.codes + (int64_t(row) * blocks + b) * Bits);
  __half *dst = out + int64_t(row) * w.cols + k;
  int valid = min(8, w.cols - k);
  for (int j = 0; j < valid; ++j)
    dst[j] = __float2half(scale * (codeAt<Bits>(block, j) - zero));
}

bool validWeight(const QuantWeight &w) {
  return w.rows > 0 && w.cols > 0 &&
         (w.bits == 3 || w.bits == 4 || w.bits == 8) && w.groupSize > 0 &&
         w.groupSize % 8 == 0;
}

/// Calls f(std::integral_constant<int, bits>) for 3, 4 or 8 bits.
template <typename F> cudaError_t withBits(int bits, F &&f) {
  switch (bits) {
  case 3:
    return f(std::integral_constant<int, 3>());
  case 4:
    return f(std::integral_constant<int, 4>());
  case 8:
    return f(std::integral_constant<int, 8>());
  default:
    return cudaErrorInvalidValue;
  }
}
} // namespace

cudaError_t dequantize(const QuantWeight &w, __half *out, cudaStream_t stream) {
  if (!validWeight(w))
    return cudaErrorInvalidValue;
  int64_t threads = int64_t(w.rows) * ((w.cols + 7) / 8);
  return withBits(w.bits, [&](auto bits) {
    dequantizeKernel<decltype(bits)::value>
        <<<blocksFor(threads), kBlock, 0, stream>>>(w, out);
    return cudaGetLastError();
  });
}

cudaError_t gemmQuant(cublasHandle_t handle, const float *x,
                      const QuantWeight &w, float *y, int m,
                      __half *dequantBuffer, __half *workspace,
                      cudaStream_t stream) {
  if (!validWeight(w) || m <= 0)
    return cudaErrorInvalidValue;
  if (m <= 2) {
    unsigned blocks = unsigned((w.rows + kWarpsPerBlock - 1) / kWarpsPerBlock);
    return withBits(w.bits, [&](auto bits) {
      gemvQuantKernel<decltype(bits)::value>
          <<<blocks, 32 * kWarpsPerBlock, 0, stream>>>(x, w, y, m);
      return cudaGetLastError();
    });
  }
  cudaError_t status = dequantize(w, dequantBuffer, stream);
  if (status == cudaSuccess)
    status = toHalf(x, workspace, int64_t(m) * w.cols, stream);
  if (status != cudaSuccess)
    return status;
  return cublasGemmHalf(handle, workspace, dequantBuffer, y, m, w.rows, w.cols,
                        stream);
}

} // namespace weft::rt::cuda
