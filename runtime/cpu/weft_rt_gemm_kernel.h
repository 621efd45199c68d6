//===- weft_rt_gemm_kernel.h - Serial fp32 GEMM block (internal) ----------===//
//
// The single-threaded building block of gemmF32, shared with the fp16 and
// quantized GEMMs, which convert a tile of weight rows and then call it from
// inside their own threaded loop.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_RT_GEMM_KERNEL_H
#define WEFT_RT_GEMM_KERNEL_H

#include <cstdint>

namespace weft::rt::detail {

/// Output columns [begin, end) of y[M][ldy] = x[M][K] * w[.][K]^T, where
/// row j of w is output column j.
void gemmRowsF32(const float *x, const float *w, float *y, int m, int64_t ldy,
                 int k, int64_t begin, int64_t end);

} // namespace weft::rt::detail

#endif
