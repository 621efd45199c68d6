//===- weft_rt_sample.h - Token sampling ------------------------*- C++ -*-===//
#ifndef WEFT_RT_SAMPLE_H
#define WEFT_RT_SAMPLE_H

#include <cstdint>

namespace weft::rt {

/// Small, seedable, platform-independent generator (xorshift64*), so that a
/// seed gives the same tokens on every machine and every rank.
struct Rng {
  uint64_t state;
  explicit Rng(uint64_t seed) : state(seed ? seed : 0x9e3779b97f4a7c15ull) {}
  uint64_t next() {
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return state * 0x2545f4914f6cdd1dull;
  }
  /// Uniform in [0, 1).
  float nextFloat() { return float(next() >> 40) * (1.0f / 16777216.0f); }
};

/// Index of the largest logit (the first one on ties).
int argmax(const float *logits, int n);

/// Samples from softmax(logits / temperature); temperature <= 0 is greedy.
/// `scratch` holds n floats.
int sampleTemperature(const float *logits, int n, float temperature, Rng &rng,
                      float *scratch);

} // namespace weft::rt

#endif
