//===- weft_rt_llama2c.h - llama2.c checkpoint reader -----------*- C++ -*-===//
//
// File layout (Karpathy's llama2.c, "version 0"): 7 int32 header fields
// (dim, hidden_dim, n_layers, n_heads, n_kv_heads, vocab_size, seq_len; a
// negative vocab_size means an untied classifier follows), then fp32 arrays:
// token_embedding, rms_att, wq, wk, wv, wo, rms_ffn, w1, w2, w3, rms_final,
// freq_cis_real, freq_cis_imag (ignored), and wcls when untied.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_RT_LLAMA2C_H
#define WEFT_RT_LLAMA2C_H

#include <cstdint>
#include <string>
#include <vector>

namespace weft::rt {

struct LlamaConfig {
  int dim = 0, hiddenDim = 0, layers = 0, heads = 0, kvHeads = 0;
  int vocabSize = 0, seqLen = 0;
  bool tiedClassifier = true;
  float rmsEps = 1e-5f;       ///< llama2.c's value; HF configs set their own
  float ropeTheta = 10000.0f; ///< RoPE base
  int headSize() const { return dim / heads; }
  int kvDim() const { return kvHeads * headSize(); }
};

/// fp32 weights in llama2.c order. Per-layer arrays are stacked over
/// layers: wq is [layers][dim][dim], wk/wv [layers][kvDim][dim],
/// wo [layers][dim][dim], w1/w3 [layers][hidden][dim], w2
/// [layers][dim][hidden].
struct LlamaWeights {
  LlamaConfig config;
  std::vector<float> tokenEmbedding, rmsAtt, wq, wk, wv, wo, rmsFfn, w1, w2, w3,
      rmsFinal, wcls; ///< wcls is a copy of tokenEmbedding when tied
};

/// Checks a header; returns what is wrong with it, or "".
std::string checkLlamaConfig(const LlamaConfig &config);

/// Number of bytes a llama2.c file with this (valid) header must have.
int64_t llama2cFileBytes(const LlamaConfig &config);

/// Reads a llama2.c checkpoint. On failure returns false and sets *error to
/// "<path>: <what is wrong>" (missing file, bad header, truncated or
/// oversized file, non-finite weights).
bool readLlama2c(const std::string &path, LlamaWeights &out,
                 std::string *error);

/// Writes a checkpoint (for tests and generated benchmark models).
bool writeLlama2c(const std::string &path, const LlamaWeights &weights,
                  std::string *error);

} // namespace weft::rt

#endif
