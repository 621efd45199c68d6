//===- weft_rt_sample.cpp - Token sampling --------------------------------===//
#include "weft_rt_sample.h"

#include "weft_rt_norm.h"

namespace weft::rt {

int argmax(const float *logits, int n) {
  int best = 0;
  for (int i = 1; i < n; ++i)
    if (logits[i] > logits[best])
      best = i;
  return best;
}

int sampleTemperature(const float *logits, int n, float temperature, Rng &rng,
                      float *scratch) {
  if (temperature <= 0.0f)
    return argmax(logits, n);
  for (int i = 0; i < n; ++i)
    scratch[i] = logits[i] / temperature;
  softmax(scratch, n);
  float r = rng.nextFloat(), cumulative = 0.0f;
  for (int i = 0; i < n; ++i) {
    cumulative += scratch[i];
    if (r < cumulative)
      return i;
  }
  return n - 1; // rounding left r above the last partial sum
}

} // namespace weft::rt
