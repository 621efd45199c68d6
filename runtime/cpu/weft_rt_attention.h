//===- weft_rt_attention.h - Causal attention over a KV cache ---*- C++ -*-===//
//
// The KV cache of one layer and one sequence is two row-major arrays
// keys[maxSeq][kvHeads * headSize] and values[maxSeq][kvHeads * headSize];
// row p holds position p. Grouped-query attention: query head h reads KV
// head h / (heads / kvHeads).
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_RT_ATTENTION_H
#define WEFT_RT_ATTENTION_H

namespace weft::rt {

/// Copies m new key and value rows (positions firstPos .. firstPos+m-1) into
/// the cache. k and v are [m][kvDim].
void kvCacheAppend(float *keys, float *values, const float *k, const float *v,
                   int firstPos, int m, int kvDim);

/// Causal attention of m query rows q[m][heads * headSize] at positions
/// pastLen .. pastLen+m-1 against cache rows 0 .. pastLen+m-1 (the current
/// rows must already be appended). Writes out[m][heads * headSize].
/// Returns false (and writes nothing) when heads is not a multiple of
/// kvHeads or a size is not positive.
bool attention(const float *q, const float *keys, const float *values,
               float *out, int m, int pastLen, int heads, int kvHeads,
               int headSize);

} // namespace weft::rt

#endif
