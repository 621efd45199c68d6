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

/// The decoder architectures the runtime composes. Llama: RMSNorm, RoPE,
/// SwiGLU, GQA, no biases. Opt (HF OPTForCausalLM, pre-LN): LayerNorm with
/// bias, learned positions, biased Q/K/V/O, plain ReLU/GELU FFN with
/// biases, multi-head attention.
enum class ModelArch : uint8_t { Llama = 0, Opt = 1 };

/// OPT's learned position table starts at row 2 (HF's OPT offset): the
/// token at position p adds row p + 2, so the table has seqLen + 2 rows.
constexpr int kOptPositionOffset = 2;

struct LlamaConfig {
  int dim = 0, hiddenDim = 0, layers = 0, heads = 0, kvHeads = 0;
  int vocabSize = 0, seqLen = 0;
  bool tiedClassifier = true;
  float rmsEps = 1e-5f;       ///< norm epsilon (RMSNorm, or OPT's LayerNorm)
  float ropeTheta = 10000.0f; ///< RoPE base (unused by OPT)
  ModelArch arch = ModelArch::Llama;
  bool geluFfn = false; ///< OPT only: GELU instead of ReLU in the FFN
  int headSize() const { return dim / heads; }
  int kvDim() const { return kvHeads * headSize(); }
  bool isOpt() const { return arch == ModelArch::Opt; }
};

/// fp32 weights in llama2.c order. Per-layer arrays are stacked over
/// layers: wq is [layers][dim][dim], wk/wv [layers][kvDim][dim],
/// wo [layers][dim][dim], w1/w3 [layers][hidden][dim], w2
/// [layers][dim][hidden].
///
/// OPT reuses the same arrays: rmsAtt/rmsFfn/rmsFinal are the LayerNorm
/// weights, w1 is fc1 [layers][hidden][dim], w2 fc2, w3 is empty; the
/// fields below (empty for LLaMA) hold the rest.
struct LlamaWeights {
  LlamaConfig config;
  std::vector<float> tokenEmbedding, rmsAtt, wq, wk, wv, wo, rmsFfn, w1, w2, w3,
      rmsFinal, wcls; ///< wcls is a copy of tokenEmbedding when tied
  /// OPT: learned positions [seqLen + kOptPositionOffset][dim]; LayerNorm
  /// biases [layers][dim] and [dim]; projection biases bq bk bv bo
  /// [layers][dim], b1 [layers][hidden], b2 [layers][dim].
  std::vector<float> positionEmbedding, normAttBias, normFfnBias,
      normFinalBias, bq, bk, bv, bo, b1, b2;
};

/// Checks a header; returns what is wrong with it, or "".
std::string checkLlamaConfig(const LlamaConfig &config);

/// Number of bytes a llama2.c file with this (valid) header must have, or
/// -1 when that number does not fit in int64_t.
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
