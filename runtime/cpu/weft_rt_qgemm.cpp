//===- weft_rt_qgemm.cpp - Weight-only quantized GEMM / GEMV --------------===//
#include "weft_rt_qgemm.h"

#include "weft_rt_gemm_kernel.h"
#include "weft_rt_quant_decode.h"

namespace weft::rt {

namespace {
#if defined(WEFT_GEMM_AVX) && defined(__AVX2__)
#define WEFT_QGEMM_FUSED 1
/// Chunks of at most this many rows (decode) decode codes in registers
/// straight into the FMAs instead of through the panel.
constexpr int kFusedMaxRows = 2 * detail::kMR;

/// microKernel with the weights decoded in registers. The decoded values,
/// the zero-padded tail and the accumulation are exactly the panel path's,
/// so results are bit-identical to it.
template <int MR, int NR, int Bits>
void fusedKernel(const float *x, int64_t ldx, const QuantView &w, int64_t j0,
                 int k, float *y, int64_t ldy) {
  using detail::Vec;
  const int groups = quantGroupsPerRow(k, w.groupSize);
  const int64_t rowBytes = quantRowBytes(k, Bits);
  // Blocks below this index may be read with one 8-byte load.
  const int wideBlocks = rowBytes >= 8 ? int((rowBytes - 8) / Bits) + 1 : 0;
  const uint8_t *codes[detail::kNR];
  for (int j = 0; j < NR; ++j)
    codes[j] = w.codes + (j0 + j) * rowBytes;
  Vec acc[MR][detail::kNR];
  for (int t = 0; t < MR; ++t)
    for (int j = 0; j < detail::kNR; ++j)
      acc[t][j] = detail::vzero();
  const int k8 = k & ~7;
  for (int g = 0; g < groups; ++g) {
    const int begin = g * w.groupSize;
    const int end = begin + w.groupSize < k8 ? begin + w.groupSize : k8;
    Vec sv[NR], zv[NR];
    for (int j = 0; j < NR; ++j) {
      int64_t p = (j0 + j) * groups + g;
      sv[j] = _mm256_set1_ps(halfToFloat(w.scales[p]));
      zv[j] = _mm256_set1_ps(float(w.zeros[p]));
    }
    for (int i = begin; i < end; i += 8) {
      const int block = i / 8;
      Vec xv[MR];
#pragma GCC unroll 16
      for (int t = 0; t < MR; ++t)
        xv[t] = detail::vload(x + t * ldx + i);
#pragma GCC unroll 16
      for (int j = 0; j < NR; ++j) {
        const uint8_t *p = codes[j] + int64_t(block) * Bits;
        __m128i bytes;
        if (block < wideBlocks) {
          bytes = _mm_loadl_epi64(reinterpret_cast<const __m128i *>(p));
        } else {
          uint64_t v = 0;
          for (int b = 0; b < Bits; ++b)
            v |= uint64_t(p[b]) << (8 * b);
          bytes = _mm_cvtsi64_si128((long long)v);
        }
        Vec wv = detail::decode8Avx2<Bits>(bytes, zv[j], sv[j]);
#pragma GCC unroll 16
        for (int t = 0; t < MR; ++t)
          acc[t][j] = detail::vfma(xv[t], wv, acc[t][j]);
      }
    }
  }
  if (k8 < k) { // short last block: as the panel path's zero-padded tail
    const int g = k8 / w.groupSize;
    Vec xv[MR];
    for (int t = 0; t < MR; ++t)
      xv[t] = detail::vloadTail(x + t * ldx, k8, k);
    for (int j = 0; j < NR; ++j) {
      int64_t p = (j0 + j) * groups + g;
      float wt[8] = {};
      detail::unpackCodes<Bits>(codes[j], k8, k, halfToFloat(w.scales[p]),
                                float(w.zeros[p]), wt);
      Vec wv = detail::vload(wt);
      for (int t = 0; t < MR; ++t)
        acc[t][j] = detail::vfma(xv[t], wv, acc[t][j]);
    }
  }
  for (int t = 0; t < MR; ++t) {
    float out[4];
    detail::reduce4(acc[t][0], acc[t][1], acc[t][2], acc[t][3], out);
    for (int j = 0; j < NR; ++j)
      y[t * ldy + j] = out[j];
  }
}

template <int NR, int Bits>
void fusedRows(const float *x, int k, int t0, int t1, const QuantView &w,
               int64_t j, float *y, int64_t ldy) {
  int t = t0;
  for (; t + detail::kMR <= t1; t += detail::kMR)
    fusedKernel<detail::kMR, NR, Bits>(x + int64_t(t) * k, k, w, j, k,
                                       y + t * ldy, ldy);
  if (t1 - t == 2)
    fusedKernel<2, NR, Bits>(x + int64_t(t) * k, k, w, j, k, y + t * ldy, ldy);
  else if (t1 - t == 1)
    fusedKernel<1, NR, Bits>(x + int64_t(t) * k, k, w, j, k, y + t * ldy, ldy);
}
#endif

/// Prefill: dequantizes kNR rows into the L1 panel of the blocked GEMM and
/// reuses them for the chunk. Decode (AVX2): decodes in registers.
template <int Bits> struct QuantRows {
  const QuantView &w;
  void block(const float *x, int k, int t0, int t1, int64_t j, int nr,
             float *panel, float *y, int64_t ldy) const {
#ifdef WEFT_QGEMM_FUSED
    if (t1 - t0 <= kFusedMaxRows) {
      switch (nr) {
      case 4:
        fusedRows<4, Bits>(x, k, t0, t1, w, j, y, ldy);
        return;
      case 3:
        fusedRows<3, Bits>(x, k, t0, t1, w, j, y, ldy);
        return;
      case 2:
        fusedRows<2, Bits>(x, k, t0, t1, w, j, y, ldy);
        return;
      default:
        fusedRows<1, Bits>(x, k, t0, t1, w, j, y, ldy);
        return;
      }
    }
#endif
    const int ld = detail::roundUp8(k);
    for (int r = 0; r < nr; ++r)
      detail::dequantizeRowFast<Bits>(w, j + r, panel + int64_t(r) * ld);
    detail::runRows(x, k, t0, t1, static_cast<const float *>(panel),
                    int64_t(ld), nr, y, ldy);
  }
};
} // namespace

void gemmQuant(const float *x, const QuantView &w, float *y, int m) {
  detail::dispatchBits(w.bits, [&](auto bits) {
    detail::blockedGemm(x, m, w.rows, w.cols, y, w.rows,
                        QuantRows<decltype(bits)::value>{w});
  });
}

} // namespace weft::rt
