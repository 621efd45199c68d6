//===- weft_rt_attention.cpp - Causal attention over a KV cache -----------===//
#include "weft_rt_attention.h"

#include "weft_rt_gemm.h"
#include "weft_rt_norm.h"
#include "weft_rt_parallel.h"
#include "weft_rt_scratch.h"

#include <cmath>
#include <cstdint>
#include <cstring>

namespace weft::rt {

void kvCacheAppend(float *keys, float *values, const float *k, const float *v,
                   int firstPos, int m, int kvDim) {
  size_t bytes = size_t(m) * kvDim * sizeof(float);
  std::memcpy(keys + int64_t(firstPos) * kvDim, k, bytes);
  std::memcpy(values + int64_t(firstPos) * kvDim, v, bytes);
}

bool attention(const float *q, const float *keys, const float *values,
               float *out, int m, int pastLen, int heads, int kvHeads,
               int headSize) {
  if (m <= 0 || heads <= 0 || kvHeads <= 0 || headSize <= 0 || pastLen < 0 ||
      heads % kvHeads != 0)
    return false;
  const int dim = heads * headSize, kvDim = kvHeads * headSize;
  const int group = heads / kvHeads;
  const float scale = 1.0f / std::sqrt(float(headSize));
  const int64_t tasks = int64_t(m) * heads;
  const int64_t work = tasks * (pastLen + m) * headSize * 2;
  parallelFor(tasks, work, [&](int64_t begin, int64_t end) {
    float *scores = detail::threadScratch<struct AttentionScores>(pastLen + m);
    for (int64_t task = begin; task < end; ++task) {
      int t = int(task / heads), h = int(task % heads);
      int visible = pastLen + t + 1; // causal: keys up to own position
      const float *query = q + int64_t(t) * dim + h * headSize;
      int64_t kvOffset = int64_t(h / group) * headSize;
      for (int p = 0; p < visible; ++p)
        scores[p] =
            dotF32(query, keys + int64_t(p) * kvDim + kvOffset, headSize) *
            scale;
      softmax(scores, visible);
      float *dst = out + int64_t(t) * dim + h * headSize;
      std::memset(dst, 0, sizeof(float) * headSize);
      for (int p = 0; p < visible; ++p) {
        const float *value = values + int64_t(p) * kvDim + kvOffset;
        for (int i = 0; i < headSize; ++i)
          dst[i] += scores[p] * value[i];
      }
    }
  });
  return true;
}

} // namespace weft::rt
