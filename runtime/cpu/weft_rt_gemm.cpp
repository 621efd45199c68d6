//===- weft_rt_gemm.cpp - fp32 and fp16-weight GEMM / GEMV ----------------===//
#include "weft_rt_gemm.h"

#include "weft_rt_gemm_kernel.h"
#include "weft_rt_half.h"
#include "weft_rt_parallel.h"
#include "weft_rt_scratch.h"

namespace weft::rt {

namespace {
/// Output rows of W handled together: each loaded X row is reused this often.
constexpr int kRowBlock = 4;
/// Independent accumulators per dot product (two SSE / one AVX register).
constexpr int kLanes = 8;
} // namespace

float dotF32(const float *a, const float *b, int k) {
  float acc[kLanes] = {};
  int i = 0;
  for (; i + kLanes <= k; i += kLanes)
    for (int l = 0; l < kLanes; ++l)
      acc[l] += a[i + l] * b[i + l];
  float sum = 0.0f;
  for (; i < k; ++i)
    sum += a[i] * b[i];
  for (int l = 0; l < kLanes; ++l)
    sum += acc[l];
  return sum;
}

/// Four dot products of one activation row against four weight rows.
static void dot4F32(const float *x, const float *const w[kRowBlock], int k,
                    float out[kRowBlock]) {
  float acc[kRowBlock][kLanes] = {};
  int i = 0;
  for (; i + kLanes <= k; i += kLanes)
    for (int r = 0; r < kRowBlock; ++r)
      for (int l = 0; l < kLanes; ++l)
        acc[r][l] += x[i + l] * w[r][i + l];
  for (int r = 0; r < kRowBlock; ++r) {
    float sum = 0.0f;
    for (int j = i; j < k; ++j)
      sum += x[j] * w[r][j];
    for (int l = 0; l < kLanes; ++l)
      sum += acc[r][l];
    out[r] = sum;
  }
}

void detail::gemmRowsF32(const float *x, const float *w, float *y, int m,
                         int64_t ldy, int k, int64_t begin, int64_t end) {
  int64_t row = begin;
  for (; row + kRowBlock <= end; row += kRowBlock) {
    const float *rows[kRowBlock];
    for (int r = 0; r < kRowBlock; ++r)
      rows[r] = w + (row + r) * int64_t(k);
    for (int t = 0; t < m; ++t) {
      float out[kRowBlock];
      dot4F32(x + int64_t(t) * k, rows, k, out);
      for (int r = 0; r < kRowBlock; ++r)
        y[int64_t(t) * ldy + row + r] = out[r];
    }
  }
  for (; row < end; ++row)
    for (int t = 0; t < m; ++t)
      y[int64_t(t) * ldy + row] = dotF32(x + int64_t(t) * k, w + row * k, k);
}

void gemmF32Strided(const float *x, const float *w, float *y, int m, int n,
                    int k, int64_t ldy) {
  int64_t blocks = (n + kRowBlock - 1) / kRowBlock;
  parallelFor(blocks, int64_t(m) * n * k, [&](int64_t b, int64_t e) {
    int64_t end = e * kRowBlock < n ? e * kRowBlock : n;
    detail::gemmRowsF32(x, w, y, m, ldy, k, b * kRowBlock, end);
  });
}

void gemmF32(const float *x, const float *w, float *y, int m, int n, int k) {
  gemmF32Strided(x, w, y, m, n, k, n);
}

void gemmF16(const float *x, const uint16_t *w, float *y, int m, int n, int k) {
  int64_t blocks = (n + kRowBlock - 1) / kRowBlock;
  parallelFor(blocks, int64_t(m) * n * k, [&](int64_t b, int64_t e) {
    // Convert a block of weight rows once, then reuse it for all M rows.
    float *tile = detail::threadScratch<struct HalfTile>(size_t(kRowBlock) * k);
    for (int64_t block = b; block < e; ++block) {
      int64_t row = block * kRowBlock;
      int64_t end = row + kRowBlock < n ? row + kRowBlock : n;
      halfToFloatArray(w + row * k, tile, size_t(end - row) * k);
      detail::gemmRowsF32(x, tile, y + row, m, n, k, 0, end - row);
    }
  });
}

} // namespace weft::rt
