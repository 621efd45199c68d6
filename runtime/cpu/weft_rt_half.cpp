//===- weft_rt_half.cpp - Portable IEEE fp16 <-> fp32 conversion ----------===//
#include "weft_rt_half.h"

#include <cstring>

namespace weft::rt {

static uint32_t bitsOf(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

static float floatOf(uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

uint16_t floatToHalf(float value) {
  uint32_t f = bitsOf(value);
  uint16_t sign = static_cast<uint16_t>((f >> 16) & 0x8000u);
  uint32_t absBits = f & 0x7fffffffu;
  if (absBits >= 0x7f800000u) // inf or NaN (keep NaN quiet and non-zero)
    return sign | (absBits > 0x7f800000u ? 0x7e00u : 0x7c00u);
  if (absBits >= 0x477ff000u) // rounds to >= 65520: overflow to inf
    return sign | 0x7c00u;
  if (absBits < 0x38800000u) { // below the smallest normal half: subnormal
    // Adding 0.5 makes the FPU do the round-to-nearest-even shift for us.
    float shifted = floatOf(absBits) + 0.5f;
    return sign | static_cast<uint16_t>(bitsOf(shifted) - bitsOf(0.5f));
  }
  uint32_t mantissaOdd = (absBits >> 13) & 1u;
  absBits += 0xc8000fffu + mantissaOdd; // rebias exponent, round to even
  return sign | static_cast<uint16_t>(absBits >> 13);
}

float halfToFloat(uint16_t h) {
  uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  uint32_t exponent = (h >> 10) & 0x1fu;
  uint32_t mantissa = h & 0x3ffu;
  if (exponent == 0x1f) // inf / NaN
    return floatOf(sign | 0x7f800000u | (mantissa << 13));
  if (exponent == 0) { // zero or subnormal: value = mantissa * 2^-24
    float magnitude = static_cast<float>(mantissa) * (1.0f / 16777216.0f);
    return sign ? -magnitude : magnitude;
  }
  return floatOf(sign | ((exponent + 112) << 23) | (mantissa << 13));
}

void floatToHalfArray(const float *in, uint16_t *out, size_t n) {
  for (size_t i = 0; i < n; ++i)
    out[i] = floatToHalf(in[i]);
}

void halfToFloatArray(const uint16_t *in, float *out, size_t n) {
  for (size_t i = 0; i < n; ++i)
    out[i] = halfToFloat(in[i]);
}

} // namespace weft::rt
