//===- weft_rt_quant_decode.h - Unpacking 8 codes at once (internal) -*- C++ -*-===//
//
// Every block of 8 codes of a packed row is exactly `Bits` bytes, so one
// little-endian 64-bit load followed by constant shifts decodes it; with
// Bits a template parameter the compiler unrolls it completely.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_RT_QUANT_DECODE_H
#define WEFT_RT_QUANT_DECODE_H

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

/// Calls f(std::integral_constant<int, bits>) for a supported bit width.
template <typename F> inline void dispatchBits(int bits, F &&f) {
  switch (bits) {
  case 2: f(std::integral_constant<int, 2>()); break;
  case 3: f(std::integral_constant<int, 3>()); break;
  case 4: f(std::integral_constant<int, 4>()); break;
  case 5: f(std::integral_constant<int, 5>()); break;
  case 6: f(std::integral_constant<int, 6>()); break;
  case 7: f(std::integral_constant<int, 7>()); break;
  default: f(std::integral_constant<int, 8>()); break;
  }
}

} // namespace weft::rt::detail

#endif
