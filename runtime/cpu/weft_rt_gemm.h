//===- weft_rt_gemm.h - fp32 and fp16-weight GEMM / GEMV --------*- C++ -*-===//
//
// Layout convention shared by every matrix kernel of the runtime (and by
// llama2.c / HuggingFace checkpoints): a weight W of a linear layer with K
// inputs and N outputs is row-major [N][K], activations X are row-major
// [M][K] (M tokens), and the result is Y[M][N] = X * W^T.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_RT_GEMM_H
#define WEFT_RT_GEMM_H

#include <cstdint>

namespace weft::rt {

/// Y[M][N] = X[M][K] * W[N][K]^T, fp32 weights. M == 1 is a GEMV.
void gemmF32(const float *x, const float *w, float *y, int m, int n, int k);

/// Same with the output row stride given: y[t * ldy + j] (ldy >= n), so
/// results can land in a slice of a wider buffer.
void gemmF32Strided(const float *x, const float *w, float *y, int m, int n,
                    int k, int64_t ldy);

/// Same with IEEE fp16 weights (stored as uint16_t); activations and
/// accumulation stay fp32.
void gemmF16(const float *x, const uint16_t *w, float *y, int m, int n, int k);

/// Dot product of two fp32 vectors with several partial sums, which lets
/// compilers vectorise it without -ffast-math.
float dotF32(const float *a, const float *b, int k);

} // namespace weft::rt

#endif
