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
