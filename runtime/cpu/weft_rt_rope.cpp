//===- weft_rt_rope.cpp - Rotary position embedding -----------------------===//
#include "weft_rt_rope.h"

#include "weft_rt_scratch.h"

#include <cmath>
#include <cstdint>

namespace weft::rt {

void rope(float *x, int m, int heads, int headSize, int firstPos, float theta) {
  // Frequencies depend only on the pair index: compute them once per call.
  float *freq = detail::threadScratch<struct RopeFrequencies>(headSize / 2);
  for (int i = 0; i < headSize / 2; ++i)
    freq[i] = 1.0f / std::pow(theta, float(2 * i) / float(headSize));
  for (int t = 0; t < m; ++t) {
    float pos = float(firstPos + t);
    for (int i = 0; i < headSize / 2; ++i) {
      float angle = pos * freq[i];
      float c = std::cos(angle), s = std::sin(angle);
      for (int h = 0; h < heads; ++h) {
        float *pair = x + int64_t(t) * heads * headSize + h * headSize + 2 * i;
        float a = pair[0], b = pair[1];
        pair[0] = a * c - b * s;
        pair[1] = a * s + b * c;
      }
    }
  }
}

} // namespace weft::rt
