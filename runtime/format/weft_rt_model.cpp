//===- weft_rt_model.cpp - A decoder model's shape and tensors ------------===//
#include "weft_rt_model.h"

#include <iterator>

namespace weft::rt {

namespace {
/// Upper bound on any config field: keeps every size computation far from
/// int64 overflow and rejects garbage early.
constexpr int64_t kMaxField = 1 << 20;

/// Each tensor kind: its name in messages, whether it is per layer, and
/// its array in LlamaWeights.
struct TensorInfo {
  Tensor kind;
  const char *name;
  bool perLayer;
  std::vector<float> LlamaWeights::*array;
};

constexpr TensorInfo kTensors[] = {
    {Tensor::TokenEmbedding, "token_embedding", false,
     &LlamaWeights::tokenEmbedding},
    {Tensor::PositionEmbedding, "position_embedding", false,
     &LlamaWeights::positionEmbedding},
    {Tensor::AttnNorm, "attn_norm", true, &LlamaWeights::rmsAtt},
    {Tensor::AttnNormBias, "attn_norm_bias", true, &LlamaWeights::normAttBias},
    {Tensor::Wq, "wq", true, &LlamaWeights::wq},
    {Tensor::Bq, "q_proj bias", true, &LlamaWeights::bq},
    {Tensor::Wk, "wk", true, &LlamaWeights::wk},
    {Tensor::Bk, "k_proj bias", true, &LlamaWeights::bk},
    {Tensor::Wv, "wv", true, &LlamaWeights::wv},
    {Tensor::Bv, "v_proj bias", true, &LlamaWeights::bv},
    {Tensor::Wo, "wo", true, &LlamaWeights::wo},
    {Tensor::Bo, "out_proj bias", true, &LlamaWeights::bo},
    {Tensor::FfnNorm, "ffn_norm", true, &LlamaWeights::rmsFfn},
    {Tensor::FfnNormBias, "ffn_norm_bias", true, &LlamaWeights::normFfnBias},
    {Tensor::W1, "w1", true, &LlamaWeights::w1},
    {Tensor::B1, "fc1 bias", true, &LlamaWeights::b1},
    {Tensor::W2, "w2", true, &LlamaWeights::w2},
    {Tensor::B2, "fc2 bias", true, &LlamaWeights::b2},
    {Tensor::W3, "w3", true, &LlamaWeights::w3},
    {Tensor::FinalNorm, "final_norm", false, &LlamaWeights::rmsFinal},
    {Tensor::FinalNormBias, "final_norm_bias", false,
     &LlamaWeights::normFinalBias},
    {Tensor::Classifier, "classifier", false, &LlamaWeights::wcls},
};

constexpr bool indexedByKind() {
  for (size_t i = 0; i < std::size(kTensors); ++i)
    if (size_t(kTensors[i].kind) != i)
      return false;
  return true;
}
static_assert(indexedByKind(), "kTensors must list Tensor in enum order");

const TensorInfo &info(Tensor t) { return kTensors[size_t(t)]; }
} // namespace

std::string checkLlamaConfig(const LlamaConfig &c) {
  const std::pair<const char *, int> fields[] = {{"dim", c.dim},
                                                 {"hidden_dim", c.hiddenDim},
                                                 {"n_layers", c.layers},
                                                 {"n_heads", c.heads},
                                                 {"n_kv_heads", c.kvHeads},
                                                 {"vocab_size", c.vocabSize},
                                                 {"seq_len", c.seqLen}};
  for (const auto &[name, value] : fields)
    if (value <= 0 || value > kMaxField)
      return std::string("header field ") + name + " = " +
             std::to_string(value) + " is outside [1, " +
             std::to_string(kMaxField) + "]";
  if (c.dim % c.heads != 0)
    return "dim " + std::to_string(c.dim) + " is not a multiple of n_heads " +
           std::to_string(c.heads);
  if (c.heads % c.kvHeads != 0)
    return "n_heads " + std::to_string(c.heads) +
           " is not a multiple of n_kv_heads " + std::to_string(c.kvHeads);
  if (c.isOpt() && c.kvHeads != c.heads)
    return "OPT has multi-head attention: n_kv_heads " +
           std::to_string(c.kvHeads) + " differs from n_heads " +
           std::to_string(c.heads);
  if (!c.isOpt() && c.headSize() % 2 != 0)
    return "head size " + std::to_string(c.headSize()) +
           " is odd; rotary embeddings need pairs";
  // From a config or a stage file: NaN, infinite or absurd values would
  // only show as garbage tokens.
  if (!(c.rmsEps > 0 && c.rmsEps < 1))
    return "norm epsilon " + std::to_string(c.rmsEps) + " is outside (0, 1)";
  if (!(c.ropeTheta > 0 && c.ropeTheta < 1e30f))
    return "rope_theta " + std::to_string(c.ropeTheta) +
           " is not a positive number below 1e30";
  return "";
}

bool isPerLayer(Tensor t) { return info(t).perLayer; }

const char *tensorName(Tensor t) { return info(t).name; }

TensorShape tensorShape(const LlamaConfig &c, Tensor t) {
  const int64_t D = c.dim, H = c.hiddenDim, KV = c.kvDim(), V = c.vocabSize;
  switch (t) {
  case Tensor::TokenEmbedding:
  case Tensor::Classifier:
    return {V, D};
  case Tensor::PositionEmbedding:
    return {int64_t(c.seqLen) + kOptPositionOffset, D};
  case Tensor::Wq:
  case Tensor::Wo:
    return {D, D};
  case Tensor::Wk:
  case Tensor::Wv:
    return {KV, D};
  case Tensor::W1:
  case Tensor::W3:
    return {H, D};
  case Tensor::W2:
    return {D, H};
  case Tensor::Bk:
  case Tensor::Bv:
    return {KV, 0};
  case Tensor::B1:
    return {H, 0};
  default: // norms, their biases, Bq, Bo, B2
    return {D, 0};
  }
}

std::vector<Tensor> modelTensors(const LlamaConfig &c) {
  using T = Tensor;
  std::vector<Tensor> out;
  for (const TensorInfo &t : kTensors) {
    bool optOnly = t.kind == T::PositionEmbedding ||
                   t.kind == T::AttnNormBias || t.kind == T::Bq ||
                   t.kind == T::Bk || t.kind == T::Bv || t.kind == T::Bo ||
                   t.kind == T::FfnNormBias || t.kind == T::B1 ||
                   t.kind == T::B2 || t.kind == T::FinalNormBias;
    if (optOnly && !c.isOpt())
      continue;
    if (t.kind == T::W3 && c.isOpt())
      continue; // OPT's FFN has no up projection
    if (t.kind == T::Classifier && c.tiedClassifier)
      continue;
    out.push_back(t.kind);
  }
  return out;
}

std::vector<float> &stackedArray(LlamaWeights &w, Tensor t) {
  return w.*info(t).array;
}

const std::vector<float> &stackedArray(const LlamaWeights &w, Tensor t) {
  return w.*info(t).array;
}

} // namespace weft::rt
