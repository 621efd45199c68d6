//===- weft_rt_qgemm.h - Weight-only quantized GEMM / GEMV ------*- C++ -*-===//
//
// Y[M][N] = X[M][K] * dequant(W)^T for a QuantView W of shape [N][K] (any
// bit width in [2, 8], format in weft_rt_quant.h). Dequantizes a few weight
// rows at a time into an L1 panel and runs the blocked fp32 kernel of
// weft_rt_gemm_kernel.h over (a chunk of) all rows of X with it, so each
// packed row is read once per chunk and fp32 weights never exist as a
// whole. A row's result is bit-identical for any M.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_RT_QGEMM_H
#define WEFT_RT_QGEMM_H

#include "weft_rt_quant.h"

namespace weft::rt {

void gemmQuant(const float *x, const QuantView &w, float *y, int m);

} // namespace weft::rt

#endif
