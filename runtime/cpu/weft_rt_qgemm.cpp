//===- weft_rt_qgemm.cpp - Weight-only quantized GEMM / GEMV --------------===//
#include "weft_rt_qgemm.h"

#include "weft_rt_gemm_kernel.h"
#include "weft_rt_half.h"
#include "weft_rt_parallel.h"
#include "weft_rt_quant_decode.h"

#include <vector>

namespace weft::rt {

namespace {
/// Weight rows dequantized together on the prefill path.
constexpr int kTileRows = 16;
} // namespace

/// Dot product of one packed weight row with x, scale applied per group.
template <int Bits>
static float dotQuantRow(const QuantView &w, int64_t row, const float *x) {
  const int groups = quantGroupsPerRow(w.cols, w.groupSize);
  const uint8_t *codes = w.codes + row * quantRowBytes(w.cols, Bits);
  float total = 0.0f;
  for (int g = 0; g < groups; ++g) {
    float zero = float(w.zeros[row * groups + g]);
    int begin = g * w.groupSize;
    int end = begin + w.groupSize < w.cols ? begin + w.groupSize : w.cols;
    float acc[8] = {};
    float block[8];
    int k = begin;
    for (; k + 8 <= end; k += 8) {
      detail::decode8<Bits>(codes + (k / 8) * Bits, zero, block);
      for (int j = 0; j < 8; ++j)
        acc[j] += block[j] * x[k + j];
    }
    if (k < end) { // partial block at the end of a row
      detail::decode8<Bits>(codes + (k / 8) * Bits, zero, block);
      for (int j = 0; j < end - k; ++j)
        acc[j] += block[j] * x[k + j];
    }
    float sum = 0.0f;
    for (int j = 0; j < 8; ++j)
      sum += acc[j];
    total += halfToFloat(w.scales[row * groups + g]) * sum;
  }
  return total;
}

template <int Bits>
static void gemvQuant(const float *x, const QuantView &w, float *y, int m) {
  parallelFor(w.rows, int64_t(m) * w.rows * w.cols,
              [&](int64_t begin, int64_t end) {
                for (int64_t row = begin; row < end; ++row)
                  for (int t = 0; t < m; ++t)
                    y[int64_t(t) * w.rows + row] =
                        dotQuantRow<Bits>(w, row, x + int64_t(t) * w.cols);
              });
}

static void gemmQuantTiled(const float *x, const QuantView &w, float *y,
                           int m) {
  int64_t tiles = (w.rows + kTileRows - 1) / kTileRows;
  parallelFor(tiles, int64_t(m) * w.rows * w.cols,
              [&](int64_t begin, int64_t end) {
                std::vector<float> tile(size_t(kTileRows) * w.cols);
                for (int64_t t = begin; t < end; ++t) {
                  int first = int(t * kTileRows);
                  int count = w.rows - first < kTileRows ? w.rows - first
                                                         : kTileRows;
                  dequantizeRows(w, first, count, tile.data());
                  detail::gemmRowsF32(x, tile.data(), y + first, m, w.rows,
                                      w.cols, 0, count);
                }
              });
}

void gemmQuant(const float *x, const QuantView &w, float *y, int m) {
  if (m > kQuantGemvMaxRows) {
    gemmQuantTiled(x, w, y, m);
    return;
  }
  detail::dispatchBits(w.bits, [&](auto bits) {
    gemvQuant<decltype(bits)::value>(x, w, y, m);
  });
}

} // namespace weft::rt
