//===- weft_rt_model.h - A decoder model's shape and tensors ----*- C++ -*-===//
//
// What every reader and writer of model files agrees on: the architectures
// the runtime composes, a model's shape (LlamaConfig), the tensors of a
// model by role (Tensor), and the fp32 weights of a whole model in llama2.c
// order (LlamaWeights). Plain C++17: the planner (through lib/Planner), the
// quantiser and generated programs all use it.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_RT_MODEL_H
#define WEFT_RT_MODEL_H

#include <cstdint>
#include <string>
#include <utility>
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

/// Checks a config (from any file); returns what is wrong with it, or "".
std::string checkLlamaConfig(const LlamaConfig &config);

/// One tensor of a model by its role. Per-layer tensors exist once per
/// decoder layer; the others once per model.
enum class Tensor : uint8_t {
  TokenEmbedding,    ///< [vocab][dim]
  PositionEmbedding, ///< OPT: [seqLen + 2][dim]
  AttnNorm,          ///< [dim] (RMSNorm or LayerNorm weight)
  AttnNormBias,      ///< OPT: [dim]
  Wq,                ///< [dim][dim], q rows in llama2.c (pairwise RoPE) order
  Bq,                ///< OPT: [dim]
  Wk,                ///< [kvDim][dim], like Wq
  Bk,                ///< OPT: [kvDim]
  Wv,                ///< [kvDim][dim]
  Bv,                ///< OPT: [kvDim]
  Wo,                ///< [dim][dim]
  Bo,                ///< OPT: [dim]
  FfnNorm,           ///< [dim]
  FfnNormBias,       ///< OPT: [dim]
  W1,                ///< [hidden][dim]: LLaMA's gate, OPT's fc1
  B1,                ///< OPT: [hidden]
  W2,                ///< [dim][hidden]: down / fc2
  B2,                ///< OPT: [dim]
  W3,                ///< LLaMA: [hidden][dim], the up projection
  FinalNorm,         ///< [dim]
  FinalNormBias,     ///< OPT: [dim]
  Classifier,        ///< [vocab][dim]; absent when tied to the embedding
};

bool isPerLayer(Tensor t);

/// Rows and columns of one tensor (of one layer) under `config`; cols is 0
/// for a vector of `rows` values.
struct TensorShape {
  int64_t rows = 0, cols = 0;
  int64_t elements() const { return rows * (cols ? cols : 1); }
};
TensorShape tensorShape(const LlamaConfig &config, Tensor t);

/// The runtime's name of a tensor, for messages ("layer 3 wq").
const char *tensorName(Tensor t);

/// Every tensor a checkpoint of `config` holds, in llama2.c file order for
/// LLaMA (the per-layer kinds once each, in layer-major order within a
/// kind); OPT's extra tensors and the classifier only where they exist.
std::vector<Tensor> modelTensors(const LlamaConfig &config);

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
  std::vector<float> positionEmbedding, normAttBias, normFfnBias, normFinalBias,
      bq, bk, bv, bo, b1, b2;
};

/// The array of LlamaWeights that holds tensor `t` (of all layers, stacked).
std::vector<float> &stackedArray(LlamaWeights &w, Tensor t);
const std::vector<float> &stackedArray(const LlamaWeights &w, Tensor t);

} // namespace weft::rt

#endif
