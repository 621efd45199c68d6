//===- weft_rt_half.cpp - Portable IEEE fp16 <-> fp32 conversion ----------===//
#include "weft_rt_half.h"

#include <cstring>

#ifdef __F16C__
#include <immintrin.h>
#endif

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
  // Shift exponent and mantissa into place and rebias; only inf/NaN and
  // zero/subnormal inputs need a fix-up, so the common path is branch-free.
  const uint32_t shiftedExponent = 0x7c00u << 13;
  uint32_t bits = uint32_t(h & 0x7fffu) << 13;
  uint32_t exponent = bits & shiftedExponent;
  bits += (127 - 15) << 23;
  if (exponent == shiftedExponent) { // inf / NaN
    bits += (128 - 16) << 23;
  } else if (exponent == 0) { // zero / subnormal: let the FPU normalise
    bits += 1u << 23;
    bits = bitsOf(floatOf(bits) - floatOf(113u << 23));
  }
  return floatOf(bits | uint32_t(h & 0x8000u) << 16);
}

float bf16ToFloat(uint16_t h) { return floatOf(uint32_t(h) << 16); }

void floatToHalfArray(const float *in, uint16_t *out, size_t n) {
  for (size_t i = 0; i < n; ++i)
    out[i] = floatToHalf(in[i]);
}

void halfToFloatArray(const uint16_t *in, float *out, size_t n) {
  size_t i = 0;
#ifdef __F16C__ // hardware conversion when the build targets it
  for (; i + 8 <= n; i += 8)
    _mm256_storeu_ps(out + i, _mm256_cvtph_ps(_mm_loadu_si128(
                                  reinterpret_cast<const __m128i *>(in + i))));
#endif
  for (; i < n; ++i)
    out[i] = halfToFloat(in[i]);
}

} // namespace weft::rt
