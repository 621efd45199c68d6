//===- weft_rt_quant_decode.h - Unpacking 8 codes at once (internal) ------===//
//
// Every block of 8 codes of a packed row is exactly `Bits` bytes, so one
// little-endian 64-bit load followed by constant shifts decodes it; with
// Bits a template parameter the compiler unrolls it completely.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_RT_QUANT_DECODE_H
#define WEFT_RT_QUANT_DECODE_H

#include "weft_rt_half.h"
#include "weft_rt_quant.h"

#include <cstdint>
#include <type_traits>

#ifdef __AVX2__
#include <immintrin.h>
#endif

namespace weft::rt::detail {

/// out[j] = code j of the block - zero.
template <int Bits>
inline void decode8(const uint8_t *block, float zero, float out[8]) {
  uint64_t v = 0;
  for (int b = 0; b < Bits; ++b)
    v |= uint64_t(block[b]) << (8 * b);
  constexpr uint64_t mask = (uint64_t(1) << Bits) - 1;
  for (int j = 0; j < 8; ++j)
    out[j] = float(int((v >> (Bits * j)) & mask)) - zero;
}

/// Unpacks codes [begin, end) of a row (begin a multiple of 8) as weights
/// scale * (code - zero). The 8- and 4-bit loops are written per byte so
/// that compilers vectorise them; other widths go block by block.
template <int Bits>
inline void unpackCodes(const uint8_t *codes, int begin, int end, float scale,
                        float zero, float *out) {
  const uint8_t *p = codes + (begin / 8) * Bits;
  const int n = end - begin;
  if constexpr (Bits == 8) {
    for (int i = 0; i < n; ++i)
      out[i] = (float(p[i]) - zero) * scale;
  } else if constexpr (Bits == 4) {
    for (int j = 0; j < n / 2; ++j) {
      out[2 * j] = (float(p[j] & 0xf) - zero) * scale;
      out[2 * j + 1] = (float(p[j] >> 4) - zero) * scale;
    }
    if (n % 2)
      out[n - 1] = (float(p[n / 2] & 0xf) - zero) * scale;
  } else {
    int k = 0;
    for (; k + 8 <= n; k += 8) { // full blocks, fully unrolled
      float block[8];
      decode8<Bits>(p + (k / 8) * Bits, zero, block);
      for (int j = 0; j < 8; ++j)
        out[k + j] = block[j] * scale;
    }
    if (k < n) { // the short block at the end of a row
      float block[8];
      decode8<Bits>(p + (k / 8) * Bits, zero, block);
      for (int j = 0; k + j < n; ++j)
        out[k + j] = block[j] * scale;
    }
  }
}

/// Dequantizes row `row` of w into out[cols].
template <int Bits>
inline void dequantizeRow(const QuantView &w, int64_t row, float *out) {
  const int groups = quantGroupsPerRow(w.cols, w.groupSize);
  const uint8_t *codes = w.codes + row * quantRowBytes(w.cols, Bits);
  for (int g = 0; g < groups; ++g) {
    int begin = g * w.groupSize;
    int end = begin + w.groupSize < w.cols ? begin + w.groupSize : w.cols;
    unpackCodes<Bits>(codes, begin, end,
                      halfToFloat(w.scales[row * groups + g]),
                      float(w.zeros[row * groups + g]), out + begin);
  }
}

#ifdef __AVX2__
/// pshufb / shift constants that put code j of an 8-code block (bits
/// [Bits*j, Bits*j + Bits) of the block's bytes) at the bottom of 32-bit
/// lane j: lane j gets bytes b, b+1 (b = Bits*j / 8; two bytes always hold
/// the code), shifted right by Bits*j % 8.
template <int Bits> struct CodeLanes {
  int8_t shuffle[32] = {};
  int32_t shift[8] = {};
  constexpr CodeLanes() {
    for (int j = 0; j < 8; ++j) {
      int bit = Bits * j, half = j / 4, lane = j % 4;
      shuffle[16 * half + 4 * lane + 0] = int8_t(bit / 8);
      shuffle[16 * half + 4 * lane + 1] = int8_t(bit / 8 + 1);
      shuffle[16 * half + 4 * lane + 2] = int8_t(-128); // zero
      shuffle[16 * half + 4 * lane + 3] = int8_t(-128);
      shift[j] = bit % 8;
    }
  }
};

/// (code j - zero) * scale for the 8 codes of a block whose bytes are the
/// low Bits bytes of `bytes` (higher bytes are ignored); the same fp32
/// operations, and so the same values, as unpackCodes.
template <int Bits>
inline __m256 decode8Avx2(__m128i bytes, __m256 zero, __m256 scale) {
  __m256i codes;
  if constexpr (Bits == 8) {
    codes = _mm256_cvtepu8_epi32(bytes);
  } else {
    static constexpr CodeLanes<Bits> lanes;
    __m256i src = _mm256_broadcastq_epi64(bytes); // both 128-bit halves
    codes = _mm256_shuffle_epi8(
        src, _mm256_loadu_si256(
                 reinterpret_cast<const __m256i *>(lanes.shuffle)));
    codes = _mm256_srlv_epi32(
        codes,
        _mm256_loadu_si256(reinterpret_cast<const __m256i *>(lanes.shift)));
    codes = _mm256_and_si256(codes, _mm256_set1_epi32((1 << Bits) - 1));
  }
  return _mm256_mul_ps(_mm256_sub_ps(_mm256_cvtepi32_ps(codes), zero), scale);
}
#endif

/// dequantizeRow with AVX2 decoding when the build targets it; the values
/// are identical.
template <int Bits>
inline void dequantizeRowFast(const QuantView &w, int64_t row, float *out) {
#ifdef __AVX2__
  const int groups = quantGroupsPerRow(w.cols, w.groupSize);
  const int64_t rowBytes = quantRowBytes(w.cols, Bits);
  const uint8_t *codes = w.codes + row * rowBytes;
  // Blocks before this one can be read with one 8-byte load (the surplus
  // bytes belong to the same row); the last few are assembled bytewise.
  const int wideBlocks = rowBytes >= 8 ? int((rowBytes - 8) / Bits) + 1 : 0;
  for (int g = 0; g < groups; ++g) {
    int begin = g * w.groupSize; // a multiple of 8: blocks never straddle
    int end = begin + w.groupSize < w.cols ? begin + w.groupSize : w.cols;
    float scale = halfToFloat(w.scales[row * groups + g]);
    float zero = float(w.zeros[row * groups + g]);
    __m256 sv = _mm256_set1_ps(scale), zv = _mm256_set1_ps(zero);
    int i = begin;
    const uint8_t *p = codes + (begin / 8) * Bits;
    for (; i + 8 <= end; i += 8, p += Bits) {
      __m128i bytes;
      if (i / 8 < wideBlocks) {
        bytes = _mm_loadl_epi64(reinterpret_cast<const __m128i *>(p));
      } else {
        uint64_t v = 0;
        for (int b = 0; b < Bits; ++b)
          v |= uint64_t(p[b]) << (8 * b);
        bytes = _mm_cvtsi64_si128((long long)v);
      }
      _mm256_storeu_ps(out + i, decode8Avx2<Bits>(bytes, zv, sv));
    }
    if (i < end)
      unpackCodes<Bits>(codes, i, end, scale, zero, out + i);
  }
#else
  dequantizeRow<Bits>(w, row, out);
#endif
}

/// Calls f(std::integral_constant<int, bits>) for a supported bit width.
template <typename F> inline void dispatchBits(int bits, F &&f) {
  switch (bits) {
  case 2:
    f(std::integral_constant<int, 2>());
    break;
  case 3:
    f(std::integral_constant<int, 3>());
    break;
  case 4:
    f(std::integral_constant<int, 4>());
    break;
  case 5:
    f(std::integral_constant<int, 5>());
    break;
  case 6:
    f(std::integral_constant<int, 6>());
    break;
  case 7:
    f(std::integral_constant<int, 7>());
    break;
  default:
    f(std::integral_constant<int, 8>());
    break;
  }
}

} // namespace weft::rt::detail

#endif
