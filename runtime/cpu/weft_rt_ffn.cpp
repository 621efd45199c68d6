//===- weft_rt_ffn.cpp - Activations and fused FFN gates ------------------===//
#include "weft_rt_ffn.h"

#include <cmath>

namespace weft::rt {

void swiglu(float *gate, const float *up, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    float g = gate[i];
    gate[i] = g / (1.0f + std::exp(-g)) * up[i];
  }
}

void gelu(float *x, int64_t n) {
  const float k = 0.7978845608028654f; // sqrt(2 / pi)
  for (int64_t i = 0; i < n; ++i) {
    float v = x[i];
    x[i] = 0.5f * v * (1.0f + std::tanh(k * (v + 0.044715f * v * v * v)));
  }
}

void relu(float *x, int64_t n) {
  for (int64_t i = 0; i < n; ++i)
    x[i] = x[i] > 0.0f ? x[i] : 0.0f;
}

void addInPlace(float *x, const float *y, int64_t n) {
  for (int64_t i = 0; i < n; ++i)
    x[i] += y[i];
}

} // namespace weft::rt
