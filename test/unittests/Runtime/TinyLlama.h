//===- TinyLlama.h - Generated llama2.c-style models for tests --*- C++ -*-===//
#ifndef WEFT_TEST_RUNTIME_TINYLLAMA_H
#define WEFT_TEST_RUNTIME_TINYLLAMA_H

#include "RuntimeTestUtil.h"
#include "weft_rt_checkpoint.h"

namespace weft::rt::test {

/// A model shape, in llama2.c header order.
inline LlamaConfig llamaConfig(int dim, int hidden, int layers, int heads,
                               int kvHeads, int vocab, int seqLen,
                               bool tied = true) {
  LlamaConfig c;
  c.dim = dim;
  c.hiddenDim = hidden;
  c.layers = layers;
  c.heads = heads;
  c.kvHeads = kvHeads;
  c.vocabSize = vocab;
  c.seqLen = seqLen;
  c.tiedClassifier = tied;
  return c;
}

/// Random weights for a model of the given shape (norm weights near 1, so
/// activations stay in a realistic range).
inline LlamaWeights randomLlama(const LlamaConfig &c, uint32_t seed) {
  LlamaWeights w;
  w.config = c;
  int64_t L = c.layers, D = c.dim, H = c.hiddenDim, KV = c.kvDim();
  float s = 1.0f / std::sqrt(float(D));
  w.tokenEmbedding = randomVector(size_t(c.vocabSize) * D, seed, 1.0f);
  w.rmsAtt = randomVector(size_t(L * D), seed + 1, 0.1f);
  w.rmsFfn = randomVector(size_t(L * D), seed + 2, 0.1f);
  w.rmsFinal = randomVector(size_t(D), seed + 3, 0.1f);
  for (auto *v : {&w.rmsAtt, &w.rmsFfn, &w.rmsFinal})
    for (float &x : *v)
      x += 1.0f;
  w.wq = randomVector(size_t(L * D * D), seed + 4, s);
  w.wk = randomVector(size_t(L * KV * D), seed + 5, s);
  w.wv = randomVector(size_t(L * KV * D), seed + 6, s);
  w.wo = randomVector(size_t(L * D * D), seed + 7, s);
  w.w1 = randomVector(size_t(L * H * D), seed + 8, s);
  w.w2 = randomVector(size_t(L * D * H), seed + 9, 1.0f / std::sqrt(float(H)));
  w.w3 = randomVector(size_t(L * H * D), seed + 10, s);
  w.wcls = c.tiedClassifier
               ? w.tokenEmbedding
               : randomVector(size_t(c.vocabSize) * D, seed + 11, s);
  return w;
}

/// Random weights for an OPT of the given shape (kvHeads = heads; LayerNorm
/// weights near 1, small biases, learned positions of seqLen + 2 rows).
inline LlamaWeights randomOpt(int dim, int ffn, int layers, int heads,
                              int vocab, int maxPositions, bool gelu,
                              uint32_t seed) {
  LlamaWeights w = randomLlama(
      llamaConfig(dim, ffn, layers, heads, heads, vocab, maxPositions, true),
      seed);
  LlamaConfig &c = w.config;
  c.arch = ModelArch::Opt;
  c.geluFfn = gelu;
  w.w3.clear();
  int64_t L = layers, D = dim, H = ffn;
  // With a tied head a strong token embedding makes every model repeat its
  // input; a weak one next to strong positions and layer outputs makes the
  // greedy tokens depend on position and context.
  for (float &v : w.tokenEmbedding)
    v *= 0.8f;
  w.wcls = w.tokenEmbedding;
  for (auto *v : {&w.wo, &w.w2})
    for (float &x : *v)
      x *= 1.5f;
  w.positionEmbedding =
      randomVector(size_t((maxPositions + kOptPositionOffset) * D), seed + 20,
                   1.0f);
  uint32_t next = seed + 21;
  for (auto *v : {&w.normAttBias, &w.normFfnBias, &w.bq, &w.bk, &w.bv, &w.bo,
                  &w.b2})
    *v = randomVector(size_t(L * D), next++, 0.02f);
  w.b1 = randomVector(size_t(L * H), next++, 0.1f);
  w.normFinalBias = randomVector(size_t(D), next++, 0.1f);
  return w;
}

/// Where the real tiny LLaMA lives: $WEFT_SHARED_DATA or ../shared/data
/// next to the source tree; "" when absent.
inline std::string storiesPath() {
  const char *env = std::getenv("WEFT_SHARED_DATA");
  std::string dir =
      env ? env : std::string(WEFT_SOURCE_DIR) + "/../shared/data";
  std::string path = dir + "/models/stories260K.bin";
  std::FILE *f = std::fopen(path.c_str(), "rb");
  if (!f)
    return "";
  std::fclose(f);
  return path;
}

} // namespace weft::rt::test

#endif
