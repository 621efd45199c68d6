//===- weft_rt_qgemm.cpp - Weight-only quantized GEMM / GEMV --------------===//
#include "weft_rt_qgemm.h"

#include "weft_rt_gemm.h"
#include "weft_rt_gemm_kernel.h"
#include "weft_rt_half.h"
#include "weft_rt_parallel.h"
#include "weft_rt_quant_decode.h"
#include "weft_rt_scratch.h"

namespace weft::rt {

namespace {
/// Weight rows dequantized together on the prefill path.
constexpr int kTileRows = 16;
} // namespace

template <int Bits>
static void gemvQuant(const float *x, const QuantView &w, float *y, int m) {
  parallelFor(w.rows, int64_t(m) * w.rows * w.cols,
              [&](int64_t begin, int64_t end) {
                float *buffer = detail::threadScratch<struct QuantRow>(w.cols);
                for (int64_t row = begin; row < end; ++row) {
                  detail::dequantizeRow<Bits>(w, row, buffer);
                  for (int t = 0; t < m; ++t)
                    y[int64_t(t) * w.rows + row] =
                        dotF32(buffer, x + int64_t(t) * w.cols, w.cols);
                }
              });
}

static void gemmQuantTiled(const float *x, const QuantView &w, float *y,
                           int m) {
  int64_t tiles = (w.rows + kTileRows - 1) / kTileRows;
  parallelFor(
      tiles, int64_t(m) * w.rows * w.cols, [&](int64_t begin, int64_t end) {
        float *tile =
            detail::threadScratch<struct QuantTile>(size_t(kTileRows) * w.cols);
        for (int64_t t = begin; t < end; ++t) {
          int first = int(t * kTileRows);
          int count = w.rows - first < kTileRows ? w.rows - first : kTileRows;
          dequantizeRows(w, first, count, tile);
          detail::gemmRowsF32(x, tile, y + first, m, w.rows, w.cols, 0, count);
        }
      });
}

void gemmQuant(const float *x, const QuantView &w, float *y, int m) {
  if (m > kQuantGemvMaxRows) {
    gemmQuantTiled(x, w, y, m);
    return;
  }
  detail::dispatchBits(
      w.bits, [&](auto bits) { gemvQuant<decltype(bits)::value>(x, w, y, m); });
}

} // namespace weft::rt
