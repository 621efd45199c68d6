//===- weft_rt_llama.h - LLaMA decoder built from the runtime kernels -----===//
//
// The reference composition of the kernels that generated serving code
// follows: embedding, per layer RMSNorm -> Q/K/V -> RoPE -> KV-cache
// attention (GQA) -> output projection -> residual -> RMSNorm -> SwiGLU FFN
// -> residual, then final RMSNorm and classifier. Each layer stores its
// weights at its own bit width, as a serving plan assigns them.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_RT_LLAMA_H
#define WEFT_RT_LLAMA_H

#include "weft_rt_ffn_block.h"
#include "weft_rt_linear.h"
#include "weft_rt_model.h"

#include <string>
#include <vector>

namespace weft::rt {

struct LlamaLayer {
  std::vector<float> rmsAtt, rmsFfn; ///< norm weights (LayerNorm for OPT)
  Linear wq, wk, wv, wo, w1, w2, w3; ///< OPT: w1 = fc1, w2 = fc2, no w3
  /// OPT only (empty for LLaMA): LayerNorm and projection biases, fp32.
  std::vector<float> normAttBias, normFfnBias, bq, bk, bv, bo, b1, b2;
  int64_t storageBytes() const;
};

struct LlamaModel {
  LlamaConfig config;
  std::vector<float> tokenEmbedding, rmsFinal;
  std::vector<LlamaLayer> layers;
  Linear classifier;
  int64_t storageBytes() const;
};

/// Converts fp32 weights: layer l is stored at layerBits[l] (32, 16 or
/// 2..8), the classifier at classifierBits. Returns false with *error when
/// layerBits has the wrong length or a width is unsupported.
bool buildLlamaModel(const LlamaWeights &weights,
                     const std::vector<int> &layerBits, int classifierBits,
                     int groupSize, LlamaModel &out, std::string *error);

/// Activation buffers of one decoder layer for up to maxRows tokens.
struct LlamaScratch {
  std::vector<float> norm, q, k, v, att, proj;
  FfnScratch ffn;
  LlamaScratch(const LlamaConfig &config, int maxRows);
};

/// One decoder layer on x[m][dim] in place, for tokens at positions
/// pos .. pos+m-1; keys/values are this layer's caches [seqLen][kvDim].
void llamaDecoderLayer(const LlamaConfig &config, const LlamaLayer &layer,
                       float *x, int m, int pos, float *keys, float *values,
                       LlamaScratch &scratch);

/// Rows of one sequence in a micro-batch: `rows` consecutive rows for its
/// tokens at positions pos .. pos+rows-1, and that sequence's KV caches of
/// the layer being run ([context][kvDim] each).
struct LlamaSeqSpan {
  int rows = 0, pos = 0;
  float *keys = nullptr, *values = nullptr;
};

/// One decoder layer on a micro-batch x[m][dim] (m = the spans' rows, in
/// span order) whose rows belong to several sequences: norms, Q/K/V/O and
/// the FFN run as one GEMM over all m rows; RoPE, KV append and causal
/// attention run per sequence at its own positions and into its own cache.
/// Same result as llamaDecoderLayer per sequence; scratch must hold m rows.
/// An OPT config runs optDecoderLayerBatched (weft_rt_opt.h) instead.
void llamaDecoderLayerBatched(const LlamaConfig &config,
                              const LlamaLayer &layer, float *x,
                              const LlamaSeqSpan *spans, int numSpans,
                              LlamaScratch &scratch);

/// KV caches and buffers of one sequence.
class LlamaSession {
public:
  /// KV caches hold maxContext positions (0: the model's seq_len; larger
  /// values are clamped to it).
  LlamaSession(const LlamaModel &model, int maxRowsPerCall, int maxContext = 0);
  /// Runs tokens[0..m) at the next m positions and writes their logits to
  /// logits[m][vocab]. Returns false with *error for a token id outside the
  /// vocabulary, m outside [1, maxRowsPerCall] or a full context.
  bool forward(const int *tokens, int m, float *logits, std::string *error);
  int position() const { return pos; }
  int contextLength() const { return context; }
  /// Bytes of the KV caches (what memory models must add to the weights).
  int64_t kvCacheBytes() const;

private:
  const LlamaModel &model;
  int maxRows, context, pos = 0;
  std::vector<std::vector<float>> keys, values;
  std::vector<float> x;
  LlamaScratch scratch;
};

} // namespace weft::rt

#endif
