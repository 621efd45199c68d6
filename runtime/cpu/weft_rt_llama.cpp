//===- weft_rt_llama.cpp - LLaMA decoder built from the runtime kernels ---===//
#include "weft_rt_llama.h"

#include "weft_rt_attention.h"
#include "weft_rt_ffn.h"
#include "weft_rt_norm.h"
#include "weft_rt_opt.h"
#include "weft_rt_rope.h"

#include <cstring>

namespace weft::rt {

int64_t LlamaLayer::storageBytes() const {
  int64_t bytes = int64_t(rmsAtt.size() + rmsFfn.size()) * 4;
  for (const std::vector<float> *b :
       {&normAttBias, &normFfnBias, &bq, &bk, &bv, &bo, &b1, &b2})
    bytes += int64_t(b->size()) * 4;
  for (const Linear *l : {&wq, &wk, &wv, &wo, &w1, &w2, &w3})
    bytes += l->storageBytes();
  return bytes;
}

int64_t LlamaModel::storageBytes() const {
  int64_t bytes = int64_t(tokenEmbedding.size() + rmsFinal.size()) * 4 +
                  classifier.storageBytes();
  for (const LlamaLayer &layer : layers)
    bytes += layer.storageBytes();
  return bytes;
}

bool buildLlamaModel(const LlamaWeights &w, const std::vector<int> &layerBits,
                     int classifierBits, int groupSize, LlamaModel &out,
                     std::string *error) {
  const LlamaConfig &c = w.config;
  if (int(layerBits.size()) != c.layers) {
    if (error)
      *error = "got " + std::to_string(layerBits.size()) +
               " layer bit widths for a model with " +
               std::to_string(c.layers) + " layers";
    return false;
  }
  out = LlamaModel();
  out.config = c;
  out.tokenEmbedding = w.tokenEmbedding;
  out.rmsFinal = w.rmsFinal;
  out.layers.resize(c.layers);
  const int64_t D = c.dim, KV = c.kvDim(), H = c.hiddenDim;
  for (int l = 0; l < c.layers; ++l) {
    LlamaLayer &layer = out.layers[l];
    layer.rmsAtt.assign(w.rmsAtt.begin() + l * D,
                        w.rmsAtt.begin() + (l + 1) * D);
    layer.rmsFfn.assign(w.rmsFfn.begin() + l * D,
                        w.rmsFfn.begin() + (l + 1) * D);
    const struct {
      const std::vector<float> &src;
      int64_t rows, cols;
      Linear &dst;
    } linears[] = {{w.wq, D, D, layer.wq},  {w.wk, KV, D, layer.wk},
                   {w.wv, KV, D, layer.wv}, {w.wo, D, D, layer.wo},
                   {w.w1, H, D, layer.w1},  {w.w2, D, H, layer.w2},
                   {w.w3, H, D, layer.w3}};
    for (const auto &lin : linears) {
      const float *src = lin.src.data() + l * lin.rows * lin.cols;
      if (!makeLinear(src, int(lin.rows), int(lin.cols), layerBits[l],
                      groupSize, lin.dst, error)) {
        if (error)
          *error = "layer " + std::to_string(l) + ": " + *error;
        return false;
      }
    }
  }
  if (!makeLinear(w.wcls.data(), c.vocabSize, c.dim, classifierBits, groupSize,
                  out.classifier, error)) {
    if (error)
      *error = "classifier: " + *error;
    return false;
  }
  return true;
}

LlamaScratch::LlamaScratch(const LlamaConfig &c, int maxRows)
    : norm(size_t(maxRows) * c.dim), q(size_t(maxRows) * c.dim),
      k(size_t(maxRows) * c.kvDim()), v(size_t(maxRows) * c.kvDim()),
      att(size_t(maxRows) * c.dim), proj(size_t(maxRows) * c.dim),
      ffn(c.hiddenDim, maxRows) {}

void llamaDecoderLayer(const LlamaConfig &c, const LlamaLayer &layer, float *x,
                       int m, int pos, float *keys, float *values,
                       LlamaScratch &s) {
  // One sequence is a micro-batch of one span.
  const LlamaSeqSpan span{m, pos, keys, values};
  llamaDecoderLayerBatched(c, layer, x, &span, 1, s);
}

void llamaDecoderLayerBatched(const LlamaConfig &c, const LlamaLayer &layer,
                              float *x, const LlamaSeqSpan *spans,
                              int numSpans, LlamaScratch &s) {
  if (c.isOpt())
    return optDecoderLayerBatched(c, layer, x, spans, numSpans, s);
  int m = 0;
  for (int i = 0; i < numSpans; ++i)
    m += spans[i].rows;
  if (m == 0)
    return;
  const int64_t rows = m, kvDim = c.kvDim();
  rmsNorm(x, layer.rmsAtt.data(), s.norm.data(), m, c.dim, c.rmsEps);
  layer.wq.apply(s.norm.data(), s.q.data(), m);
  layer.wk.apply(s.norm.data(), s.k.data(), m);
  layer.wv.apply(s.norm.data(), s.v.data(), m);
  int64_t row = 0;
  for (int i = 0; i < numSpans; ++i) {
    const LlamaSeqSpan &sp = spans[i];
    if (sp.rows == 0)
      continue;
    float *q = s.q.data() + row * c.dim, *k = s.k.data() + row * kvDim;
    rope(q, sp.rows, c.heads, c.headSize(), sp.pos, c.ropeTheta);
    rope(k, sp.rows, c.kvHeads, c.headSize(), sp.pos, c.ropeTheta);
    kvCacheAppend(sp.keys, sp.values, k, s.v.data() + row * kvDim, sp.pos,
                  sp.rows, int(kvDim));
    attention(q, sp.keys, sp.values, s.att.data() + row * c.dim, sp.rows,
              sp.pos, c.heads, c.kvHeads, c.headSize());
    row += sp.rows;
  }
  layer.wo.apply(s.att.data(), s.proj.data(), m);
  addInPlace(x, s.proj.data(), rows * c.dim);
  rmsNorm(x, layer.rmsFfn.data(), s.norm.data(), m, c.dim, c.rmsEps);
  ffnGated(layer.w1, layer.w3, layer.w2, s.norm.data(), s.proj.data(), m,
           s.ffn);
  addInPlace(x, s.proj.data(), rows * c.dim);
}

static int clampContext(const LlamaConfig &c, int maxContext) {
  return maxContext <= 0 || maxContext > c.seqLen ? c.seqLen : maxContext;
}

LlamaSession::LlamaSession(const LlamaModel &model, int maxRowsPerCall,
                           int maxContext)
    : model(model), maxRows(maxRowsPerCall),
      context(clampContext(model.config, maxContext)),
      keys(model.config.layers,
           std::vector<float>(size_t(context) * model.config.kvDim())),
      values(keys), x(size_t(maxRowsPerCall) * model.config.dim),
      scratch(model.config, maxRowsPerCall) {}

int64_t LlamaSession::kvCacheBytes() const {
  return 2 * int64_t(model.config.layers) * context * model.config.kvDim() *
         int64_t(sizeof(float));
}

bool LlamaSession::forward(const int *tokens, int m, float *logits,
                           std::string *error) {
  const LlamaConfig &c = model.config;
  auto reject = [&](const std::string &what) {
    if (error)
      *error = what;
    return false;
  };
  if (m < 1 || m > maxRows)
    return reject("cannot run " + std::to_string(m) +
                  " tokens at once (session holds up to " +
                  std::to_string(maxRows) + ")");
  if (pos + m > context)
    return reject("context full: " + std::to_string(pos) + " + " +
                  std::to_string(m) + " tokens exceed the context of " +
                  std::to_string(context));
  for (int t = 0; t < m; ++t) {
    if (tokens[t] < 0 || tokens[t] >= c.vocabSize)
      return reject("token id " + std::to_string(tokens[t]) +
                    " is outside the vocabulary [0, " +
                    std::to_string(c.vocabSize) + ")");
    std::memcpy(x.data() + int64_t(t) * c.dim,
                model.tokenEmbedding.data() + int64_t(tokens[t]) * c.dim,
                sizeof(float) * c.dim);
  }
  for (int l = 0; l < c.layers; ++l)
    llamaDecoderLayer(c, model.layers[l], x.data(), m, pos, keys[l].data(),
                      values[l].data(), scratch);
  rmsNorm(x.data(), model.rmsFinal.data(), x.data(), m, c.dim, c.rmsEps);
  model.classifier.apply(x.data(), logits, m);
  pos += m;
  return true;
}

} // namespace weft::rt
