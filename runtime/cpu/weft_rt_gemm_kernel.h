//===- weft_rt_gemm_kernel.h - Blocked GEMM shared by all formats (internal) ===//
//
// One driver computes y[t][j] = x[t] . w[j] for fp32, fp16 and quantized
// weights and for any number of rows M:
//
//  * threads split the output features N into blocks of kNR weight rows, so
//    the result never depends on the thread count;
//  * rows of X are taken in chunks that stay in L2 (one chunk when M is
//    small, so every weight row is streamed from memory exactly once);
//  * per (chunk, block of kNR weight rows) the rows are made fp32 once --
//    used in place (fp32), converted while loading (fp16, small chunks), or
//    converted / dequantized into an L1 panel -- and the register-blocked
//    micro-kernel (kMR rows of X x kNR weight rows) runs over the chunk.
//
// Summation order: every output element is one 8-lane accumulator; lane l
// sums x[i] * w[i] for i = l (mod 8) in increasing i (the k % 8 tail as if
// zero-padded), and the lanes are added as ((0+1)+(2+3))+((4+5)+(6+7)).
// Nothing in this depends on M, on where the row sits in its micro-kernel
// block, on the thread count or on how the weights were made fp32 (fp16 and
// dequantized values are exact in fp32 either way), so a row's result is
// bit-identical whatever other rows share the batch.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_RT_GEMM_KERNEL_H
#define WEFT_RT_GEMM_KERNEL_H

#include "weft_rt_half.h"
#include "weft_rt_parallel.h"
#include "weft_rt_scratch.h"

#include <cstdint>
#include <cstring>

#if defined(__AVX__) && defined(__FMA__)
#include <immintrin.h>
#define WEFT_GEMM_AVX 1
#endif

namespace weft::rt::detail {

/// Rows of X and weight rows per micro-kernel call: 12 accumulators, three
/// X vectors and one weight vector fill the 16 AVX registers.
constexpr int kMR = 3;
constexpr int kNR = 4;

inline int roundUp8(int k) { return (k + 7) & ~7; }

#ifdef WEFT_GEMM_AVX
using Vec = __m256;
inline Vec vzero() { return _mm256_setzero_ps(); }
inline Vec vload(const float *p) { return _mm256_loadu_ps(p); }
inline Vec vload(const uint16_t *p) {
#ifdef __F16C__
  return _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i *>(p)));
#else
  float f[8];
  halfToFloatArray(p, f, 8);
  return _mm256_loadu_ps(f);
#endif
}
inline Vec vfma(Vec a, Vec b, Vec c) { return _mm256_fmadd_ps(a, b, c); }
/// Lane sums ((0+1)+(2+3))+((4+5)+(6+7)) of four accumulators at once.
inline void reduce4(Vec a, Vec b, Vec c, Vec d, float out[4]) {
  __m256 s = _mm256_hadd_ps(_mm256_hadd_ps(a, b), _mm256_hadd_ps(c, d));
  _mm_storeu_ps(out, _mm_add_ps(_mm256_castps256_ps128(s),
                                _mm256_extractf128_ps(s, 1)));
}
#else
/// Portable 8 lanes; the loops vectorise where the target allows.
struct Vec {
  float v[8];
};
inline Vec vzero() { return Vec{}; }
inline Vec vload(const float *p) {
  Vec r;
  std::memcpy(r.v, p, sizeof r.v);
  return r;
}
inline Vec vload(const uint16_t *p) {
  Vec r;
  halfToFloatArray(p, r.v, 8);
  return r;
}
inline Vec vfma(Vec a, Vec b, Vec c) {
  for (int l = 0; l < 8; ++l)
    c.v[l] += a.v[l] * b.v[l];
  return c;
}
inline void reduce4(Vec a, Vec b, Vec c, Vec d, float out[4]) {
  const Vec *v[4] = {&a, &b, &c, &d};
  for (int r = 0; r < 4; ++r) {
    const float *s = v[r]->v;
    out[r] = ((s[0] + s[1]) + (s[2] + s[3])) + ((s[4] + s[5]) + (s[6] + s[7]));
  }
}
#endif

/// Loads elements [i, k) (fewer than 8) of p zero-padded to 8 lanes.
template <typename T> inline Vec vloadTail(const T *p, int i, int k) {
  T buf[8] = {};
  for (int l = 0; i + l < k; ++l)
    buf[l] = p[i + l];
  return vload(buf);
}

/// y[t][j] for t < MR, j < NR of x[t] (row stride ldx) against weight rows
/// w + j * ldw (fp32 or fp16), length k; NR may be below kNR at the end.
template <int MR, int NR, typename W>
inline void microKernel(const float *x, int64_t ldx, const W *w, int64_t ldw,
                        int k, float *y, int64_t ldy) {
  Vec acc[MR][kNR];
#pragma GCC unroll 16
  for (int t = 0; t < MR; ++t)
#pragma GCC unroll 16
    for (int j = 0; j < kNR; ++j)
      acc[t][j] = vzero();
  const int k8 = k & ~7;
  for (int i = 0; i < k8; i += 8) {
    Vec xv[MR];
#pragma GCC unroll 16
    for (int t = 0; t < MR; ++t)
      xv[t] = vload(x + t * ldx + i);
#pragma GCC unroll 16
    for (int j = 0; j < NR; ++j) {
      Vec wv = vload(w + j * ldw + i);
#pragma GCC unroll 16
      for (int t = 0; t < MR; ++t)
        acc[t][j] = vfma(xv[t], wv, acc[t][j]);
    }
  }
  if (k8 < k) { // the zero-padded tail: the same lanes, one more step
    Vec xv[MR];
    for (int t = 0; t < MR; ++t)
      xv[t] = vloadTail(x + t * ldx, k8, k);
    for (int j = 0; j < NR; ++j) {
      Vec wv = vloadTail(w + j * ldw, k8, k);
      for (int t = 0; t < MR; ++t)
        acc[t][j] = vfma(xv[t], wv, acc[t][j]);
    }
  }
#pragma GCC unroll 16
  for (int t = 0; t < MR; ++t) {
    float out[4];
    reduce4(acc[t][0], acc[t][1], acc[t][2], acc[t][3], out);
    for (int j = 0; j < NR; ++j)
      y[t * ldy + j] = out[j];
  }
}

/// Rows [t0, t1) of x against the nr (<= kNR) weight rows at w.
template <int NR, typename W>
inline void runRowsNR(const float *x, int k, int t0, int t1, const W *w,
                      int64_t ldw, float *y, int64_t ldy) {
  int t = t0;
  for (; t + kMR <= t1; t += kMR)
    microKernel<kMR, NR>(x + int64_t(t) * k, k, w, ldw, k, y + t * ldy, ldy);
  if (t1 - t == 2)
    microKernel<2, NR>(x + int64_t(t) * k, k, w, ldw, k, y + t * ldy, ldy);
  else if (t1 - t == 1)
    microKernel<1, NR>(x + int64_t(t) * k, k, w, ldw, k, y + t * ldy, ldy);
}

template <typename W>
inline void runRows(const float *x, int k, int t0, int t1, const W *w,
                    int64_t ldw, int nr, float *y, int64_t ldy) {
  switch (nr) {
  case 4:
    runRowsNR<4>(x, k, t0, t1, w, ldw, y, ldy);
    break;
  case 3:
    runRowsNR<3>(x, k, t0, t1, w, ldw, y, ldy);
    break;
  case 2:
    runRowsNR<2>(x, k, t0, t1, w, ldw, y, ldy);
    break;
  default:
    runRowsNR<1>(x, k, t0, t1, w, ldw, y, ldy);
    break;
  }
}

/// Rows of X per chunk: about 192 KiB of activations, so a chunk stays in
/// L2 while every weight block of the thread passes over it.
inline int rowChunk(int k) {
  int rows = (192 * 1024) / (4 * (k > 0 ? k : 1));
  rows -= rows % kMR;
  return rows < 4 * kMR ? 4 * kMR : rows;
}

/// y[M][ldy] (columns [0, n)) = x[M][K] * W^T for a weight source with
///   void block(const float *x, int k, int t0, int t1, int64_t j, int nr,
///              float *panel, float *y, int64_t ldy) const
/// computing y[t][j..j+nr-1] for t in [t0, t1) -- usually runRows on the
/// rows in place or made fp32 in `panel` (kNR * roundUp8(k) floats).
template <typename Source>
void blockedGemm(const float *x, int m, int64_t n, int k, float *y,
                 int64_t ldy, const Source &src) {
  if (m <= 0 || n <= 0)
    return;
  const int64_t blocks = (n + kNR - 1) / kNR;
  const int chunk = rowChunk(k);
  parallelFor(blocks, int64_t(m) * n * k, [&](int64_t b, int64_t e) {
    float *panel = threadScratch<struct GemmPanel>(size_t(kNR) * roundUp8(k));
    for (int t0 = 0; t0 < m; t0 += chunk) {
      const int t1 = m - t0 < chunk ? m : t0 + chunk;
      for (int64_t blk = b; blk < e; ++blk) {
        const int64_t j = blk * kNR;
        const int nr = n - j < kNR ? int(n - j) : kNR;
        src.block(x, k, t0, t1, j, nr, panel, y + j, ldy);
      }
    }
  });
}

} // namespace weft::rt::detail

#endif
