//===- weft_rt_norm.cpp - RMSNorm, LayerNorm and softmax ------------------===//
#include "weft_rt_norm.h"

#include <cmath>
#include <cstdint>

namespace weft::rt {

void rmsNorm(const float *x, const float *weight, float *out, int m, int n,
             float eps) {
  for (int t = 0; t < m; ++t) {
    const float *row = x + int64_t(t) * n;
    float *dst = out + int64_t(t) * n;
    float sumSquares = 0.0f;
    for (int i = 0; i < n; ++i)
      sumSquares += row[i] * row[i];
    float scale = 1.0f / std::sqrt(sumSquares / float(n) + eps);
    for (int i = 0; i < n; ++i)
      dst[i] = weight[i] * (scale * row[i]);
  }
}

void layerNorm(const float *x, const float *weight, const float *bias,
               float *out, int m, int n, float eps) {
  for (int t = 0; t < m; ++t) {
    const float *row = x + int64_t(t) * n;
    float *dst = out + int64_t(t) * n;
    float mean = 0.0f;
    for (int i = 0; i < n; ++i)
      mean += row[i];
    mean /= float(n);
    float var = 0.0f;
    for (int i = 0; i < n; ++i)
      var += (row[i] - mean) * (row[i] - mean);
    float scale = 1.0f / std::sqrt(var / float(n) + eps);
    for (int i = 0; i < n; ++i)
      dst[i] = (row[i] - mean) * scale * weight[i] + (bias ? bias[i] : 0.0f);
  }
}

void softmax(float *x, int n) {
  if (n <= 0)
    return;
  float maxValue = x[0];
  for (int i = 1; i < n; ++i)
    maxValue = x[i] > maxValue ? x[i] : maxValue;
  float sum = 0.0f;
  for (int i = 0; i < n; ++i) {
    x[i] = std::exp(x[i] - maxValue);
    sum += x[i];
  }
  float inv = 1.0f / sum;
  for (int i = 0; i < n; ++i)
    x[i] *= inv;
}

} // namespace weft::rt
