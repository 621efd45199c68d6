//===- weft_rt_opt.cpp - OPT decoder built from the runtime kernels -------===//
#include "weft_rt_opt.h"

#include "weft_rt_attention.h"
#include "weft_rt_ffn.h"
#include "weft_rt_half.h"
#include "weft_rt_norm.h"

#include <vector>

namespace weft::rt {

void optDecoderLayerBatched(const LlamaConfig &c, const LlamaLayer &layer,
                            float *x, const LlamaSeqSpan *spans, int numSpans,
                            LlamaScratch &s) {
  int m = 0;
  for (int i = 0; i < numSpans; ++i)
    m += spans[i].rows;
  if (m == 0)
    return;
  const int64_t rows = m, D = c.dim;
  layerNorm(x, layer.rmsAtt.data(), layer.normAttBias.data(), s.norm.data(), m,
            c.dim, c.rmsEps);
  layer.wq.apply(s.norm.data(), s.q.data(), m);
  layer.wk.apply(s.norm.data(), s.k.data(), m);
  layer.wv.apply(s.norm.data(), s.v.data(), m);
  addBias(s.q.data(), layer.bq.data(), m, c.dim);
  addBias(s.k.data(), layer.bk.data(), m, c.dim);
  addBias(s.v.data(), layer.bv.data(), m, c.dim);
  // HF scales q by head_size^-0.5 after its bias; attention() applies the
  // same factor to the scores, so q is left as it is here.
  int64_t row = 0;
  for (int i = 0; i < numSpans; ++i) {
    const LlamaSeqSpan &sp = spans[i];
    if (sp.rows == 0)
      continue;
    kvCacheAppend(sp.keys, sp.values, s.k.data() + row * D,
                  s.v.data() + row * D, sp.pos, sp.rows, c.dim);
    attention(s.q.data() + row * D, sp.keys, sp.values,
              s.att.data() + row * D, sp.rows, sp.pos, c.heads, c.heads,
              c.headSize());
    row += sp.rows;
  }
  layer.wo.apply(s.att.data(), s.proj.data(), m);
  addBias(s.proj.data(), layer.bo.data(), m, c.dim);
  addInPlace(x, s.proj.data(), rows * D);
  layerNorm(x, layer.rmsFfn.data(), layer.normFfnBias.data(), s.norm.data(), m,
            c.dim, c.rmsEps);
  ffnPlain(layer.w1, layer.b1.data(), layer.w2, layer.b2.data(),
           c.geluFfn ? Activation::GELU : Activation::ReLU, s.norm.data(),
           s.proj.data(), m, s.ffn);
  addInPlace(x, s.proj.data(), rows * D);
}

void optAddPositions(const LlamaConfig &c, const uint16_t *table, int pos,
                     int rows, float *x) {
  std::vector<float> row(size_t(c.dim));
  for (int t = 0; t < rows; ++t) {
    halfToFloatArray(table + int64_t(pos + t + kOptPositionOffset) * c.dim,
                     row.data(), row.size());
    float *dst = x + int64_t(t) * c.dim;
    for (int j = 0; j < c.dim; ++j)
      dst[j] += row[j];
  }
}

} // namespace weft::rt
