//===- weft_rt_half.h - Portable IEEE fp16 <-> fp32 conversion --*- C++ -*-===//
//
// fp16 weight storage and quantization scales use IEEE binary16 stored as
// uint16_t, converted in software so the runtime needs no compiler support
// for _Float16 or F16C; checkpoints may hold fp16 or bfloat16.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_RT_HALF_H
#define WEFT_RT_HALF_H

#include <cstddef>
#include <cstdint>

namespace weft::rt {

/// Rounds to nearest even; overflow becomes +-inf, NaN stays NaN.
uint16_t floatToHalf(float value);
float halfToFloat(uint16_t bits);
/// bfloat16 is the upper half of an fp32: exact.
float bf16ToFloat(uint16_t bits);

void floatToHalfArray(const float *in, uint16_t *out, size_t n);
void halfToFloatArray(const uint16_t *in, float *out, size_t n);

} // namespace weft::rt

#endif
