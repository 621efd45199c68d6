//===- weft_rt_qgemm.h - Weight-only quantized GEMM / GEMV ------*- C++ -*-===//
//
// Y[M][N] = X[M][K] * dequant(W)^T for a QuantView W of shape [N][K] (any
// bit width in [2, 8], format in weft_rt_quant.h). Decode (few rows of X)
// unpacks one weight row at a time into an L1-resident buffer and takes
// long vectorised dot products with it, so fp32 weights never exist as a
// whole; prefill dequantizes a tile of 16 weight rows and reuses it across
// all rows of X in the blocked fp32 kernel.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_RT_QGEMM_H
#define WEFT_RT_QGEMM_H

#include "weft_rt_quant.h"

namespace weft::rt {

/// Rows of X up to which the in-register GEMV path is used.
constexpr int kQuantGemvMaxRows = 2;

void gemmQuant(const float *x, const QuantView &w, float *y, int m);

} // namespace weft::rt

#endif
