//===- weft_rt_gemm.cpp - fp32 and fp16-weight GEMM / GEMV ----------------===//
#include "weft_rt_gemm.h"

#include "weft_rt_gemm_kernel.h"
#include "weft_rt_half.h"

namespace weft::rt {

namespace {
/// Independent accumulators per dot product (two SSE / one AVX register).
constexpr int kLanes = 8;

/// fp32 weights are used in place.
struct F32Rows {
  const float *w;
  int k;
  void block(const float *x, int, int t0, int t1, int64_t j, int nr, float *,
             float *y, int64_t ldy) const {
    detail::runRows(x, k, t0, t1, w + j * k, int64_t(k), nr, y, ldy);
  }
};

/// Chunks of at most this many rows convert fp16 while loading (each weight
/// is used once or twice); larger ones convert a panel once and reuse it.
constexpr int kF16DirectRows = 2 * detail::kMR;

struct F16Rows {
  const uint16_t *w;
  int k;
  void block(const float *x, int, int t0, int t1, int64_t j, int nr,
             float *panel, float *y, int64_t ldy) const {
    const uint16_t *rows = w + j * k;
#ifdef __F16C__
    if (t1 - t0 <= kF16DirectRows) {
      detail::runRows(x, k, t0, t1, rows, int64_t(k), nr, y, ldy);
      return;
    }
#endif
    const int ld = detail::roundUp8(k);
    for (int r = 0; r < nr; ++r)
      halfToFloatArray(rows + int64_t(r) * k, panel + int64_t(r) * ld,
                       size_t(k));
    detail::runRows(x, k, t0, t1, static_cast<const float *>(panel),
                    int64_t(ld), nr, y, ldy);
  }
};
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

void gemmF32Strided(const float *x, const float *w, float *y, int m, int n,
                    int k, int64_t ldy) {
  detail::blockedGemm(x, m, n, k, y, ldy, F32Rows{w, k});
}

void gemmF32(const float *x, const float *w, float *y, int m, int n, int k) {
  gemmF32Strided(x, w, y, m, n, k, n);
}

void gemmF16(const float *x, const uint16_t *w, float *y, int m, int n, int k) {
  detail::blockedGemm(x, m, n, k, y, n, F16Rows{w, k});
}

} // namespace weft::rt
