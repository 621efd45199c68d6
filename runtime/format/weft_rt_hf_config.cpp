//===- weft_rt_hf_config.cpp - HuggingFace config.json --------------------===//
#include "weft_rt_hf_config.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <initializer_list>

namespace weft::rt {

namespace {
/// Sizes beyond any real model would overflow the planner's 64-bit byte
/// counts: they are bad input.
constexpr int64_t kMaxDim = 1 << 22, kMaxLayers = 1 << 14;

bool isPresent(const JsonValue *v) {
  return v && v->kind != JsonValue::Kind::Null;
}

/// The first of `keys` present (and not null) as a positive integer, else
/// `fallback` (when >= 1), else an error naming the first key.
bool positive(const JsonValue &o, std::initializer_list<const char *> keys,
              int64_t fallback, int64_t &out, std::string *problem) {
  for (const char *key : keys) {
    const JsonValue *v = o.get(key);
    if (!isPresent(v))
      continue;
    if (!v->isCount() || v->number < 1) {
      *problem = std::string(key) + ": expected a positive integer";
      return false;
    }
    out = int64_t(v->number);
    return true;
  }
  if (fallback >= 1) {
    out = fallback;
    return true;
  }
  *problem = std::string(*keys.begin()) + ": missing";
  return false;
}

bool flag(const JsonValue &o, const char *key, bool fallback) {
  const JsonValue *v = o.get(key);
  return v && v->kind == JsonValue::Kind::Bool ? v->boolean : fallback;
}

/// The first of `keys` present (and not null) as a positive number, else
/// `fallback`.
bool positiveNumber(const JsonValue &o, std::initializer_list<const char *> keys,
                    double fallback, double &out, std::string *problem) {
  for (const char *key : keys) {
    const JsonValue *v = o.get(key);
    if (!isPresent(v))
      continue;
    if (v->kind != JsonValue::Kind::Number || !(v->number > 0) ||
        !std::isfinite(v->number)) {
      *problem = std::string(key) + ": expected a positive number";
      return false;
    }
    out = v->number;
    return true;
  }
  out = fallback;
  return true;
}

std::string stringField(const JsonValue &o, const char *key,
                        const char *fallback) {
  const JsonValue *v = o.get(key);
  return v && v->kind == JsonValue::Kind::String ? v->string : fallback;
}

bool fail(std::string *problem, const std::string &what) {
  if (problem)
    *problem = what;
  return false;
}
} // namespace

bool parseHfConfig(const JsonValue &o, HfConfig &m, std::string *problem) {
  std::string why;
  if (o.kind != JsonValue::Kind::Object)
    return fail(problem, "(top level): expected a JSON object");
  m = HfConfig();
  const JsonValue *type = o.get("model_type");
  if (!type || type->kind != JsonValue::Kind::String)
    return fail(problem, "model_type: missing");
  m.arch = type->string;
  std::transform(m.arch.begin(), m.arch.end(), m.arch.begin(),
                 [](unsigned char c) { return char(std::tolower(c)); });
  const JsonValue *name = o.get("_name_or_path");
  m.name = name && name->kind == JsonValue::Kind::String ? name->string
                                                         : type->string;
  const bool isOpt = m.arch == "opt", isBloom = m.arch == "bloom";
  const bool isLlamaLike = m.isLlamaFamily();
  if (!isOpt && !isBloom && !isLlamaLike)
    return fail(problem, "model_type: unsupported '" + type->string +
                             "' (supported: llama, mistral, qwen2, mixtral, "
                             "opt, bloom)");

  if (!positive(o, {"hidden_size", "n_embed"}, 0, m.hidden, &why) ||
      !positive(o, {"num_hidden_layers", "n_layer"}, 0, m.layers, &why) ||
      !positive(o, {"num_attention_heads", "n_head"}, 0, m.heads, &why) ||
      !positive(o, {"vocab_size"}, 0, m.vocab, &why))
    return fail(problem, why);
  if (m.hidden % m.heads)
    return fail(problem, "num_attention_heads: does not divide hidden size " +
                             std::to_string(m.hidden));
  if (!positive(o, {"num_key_value_heads"}, m.heads, m.kvHeads, &why))
    return fail(problem, why);
  if (m.heads % m.kvHeads)
    return fail(problem, "num_key_value_heads: must divide "
                         "num_attention_heads " +
                             std::to_string(m.heads));
  bool ffnOk =
      isOpt     ? positive(o, {"ffn_dim"}, 0, m.intermediate, &why)
      : isBloom ? positive(o, {"intermediate_size"}, 4 * m.hidden,
                           m.intermediate, &why)
                : positive(o, {"intermediate_size"}, 0, m.intermediate, &why);
  if (!ffnOk || !positive(o, {"max_position_embeddings", "seq_length"}, 2048,
                          m.maxPositions, &why))
    return fail(problem, why);
  const std::pair<const char *, int64_t> dims[] = {
      {"hidden_size", m.hidden},
      {"intermediate_size", m.intermediate},
      {"num_attention_heads", m.heads},
      {"vocab_size", m.vocab},
      {"max_position_embeddings", m.maxPositions}};
  for (auto [field, value] : dims)
    if (value > kMaxDim)
      return fail(problem, std::string(field) + ": too large (at most " +
                               std::to_string(kMaxDim) + ")");
  if (m.layers > kMaxLayers)
    return fail(problem, "num_hidden_layers: too large (at most " +
                             std::to_string(kMaxLayers) + ")");

  // Architecture conventions, overridable by the config's own flags.
  m.gatedFFN = isLlamaLike;
  m.layerNorm = isOpt || isBloom;
  m.tiedEmbeddings = flag(o, "tie_word_embeddings", !isLlamaLike);
  if (isOpt) {
    m.attnBias = m.mlpBias = flag(o, "enable_bias", true);
  } else if (isBloom) {
    m.attnBias = m.mlpBias = true;
  } else {
    m.attnBias = flag(o, "attention_bias", m.arch == "qwen2");
    m.mlpBias = flag(o, "mlp_bias", false);
  }
  // LayerNorms without an epsilon in the config use torch's default.
  if (!positiveNumber(o, {"rms_norm_eps", "layer_norm_epsilon",
                          "layer_norm_eps"},
                      isLlamaLike ? 1e-6 : 1e-5, m.normEps, &why) ||
      !positiveNumber(o, {"rope_theta"}, 10000, m.ropeTheta, &why))
    return fail(problem, why);
  if (!isLlamaLike)
    m.ropeTheta = 0; // learned (OPT) or ALiBi (BLOOM) positions
  m.ropeScaling = isPresent(o.get("rope_scaling"));
  m.activation = isOpt     ? stringField(o, "activation_function", "relu")
                 : isBloom ? "gelu_tanh"
                           : stringField(o, "hidden_act", "silu");
  const std::string dtype = stringField(o, "torch_dtype", "float32");
  m.dtype = dtype == "float16" ? "f16" : dtype == "bfloat16" ? "bf16" : "f32";
  if (isOpt) {
    m.layerNormBefore = flag(o, "do_layer_norm_before", true);
    m.layerNormAffine = flag(o, "layer_norm_elementwise_affine", true);
    if (!positive(o, {"word_embed_proj_dim"}, m.hidden, m.wordEmbedProjDim,
                  &why))
      return fail(problem, why);
  }
  return true;
}

bool readHfConfig(const std::string &path, HfConfig &out, std::string *error) {
  JsonValue json;
  if (!readJsonObject(path, json, error))
    return false;
  std::string problem;
  if (!parseHfConfig(json, out, &problem))
    return fail(error, path + ": " + problem);
  return true;
}

bool hasWeightReader(const std::string &modelType) {
  return modelType == "llama" || modelType == "mistral" ||
         modelType == "qwen2" || modelType == "opt";
}

bool hfTensorLayout(const HfConfig &hf, LlamaConfig &c, std::string *problem) {
  c = LlamaConfig();
  if (hf.arch == "opt") {
    if (!hf.layerNormBefore)
      return fail(problem, "do_layer_norm_before: post-LayerNorm OPT "
                           "(opt-350m) is not supported");
    if (hf.wordEmbedProjDim != hf.hidden)
      return fail(
          problem,
          "word_embed_proj_dim: " + std::to_string(hf.wordEmbedProjDim) +
              " differs from hidden_size " + std::to_string(hf.hidden) +
              " (projected embeddings, opt-350m) and is "
              "not supported");
    if (!hf.attnBias)
      return fail(problem, "enable_bias: OPT without biases is not supported");
    if (!hf.layerNormAffine)
      return fail(problem, "layer_norm_elementwise_affine: LayerNorms "
                           "without weights are not supported");
    c.arch = ModelArch::Opt;
    c.geluFfn = hf.activation == "gelu";
  } else if (!hasWeightReader(hf.arch)) {
    return fail(problem, "model_type: '" + hf.arch +
                             "' has no weight reader (llama, mistral, "
                             "qwen2 and opt do)");
  }
  // parseHfConfig bounds every size far below 2^31; checkLlamaConfig
  // applies the runtime's own limits.
  c.dim = int(hf.hidden);
  c.hiddenDim = int(hf.intermediate);
  c.layers = int(hf.layers);
  c.heads = int(hf.heads);
  c.kvHeads = int(hf.kvHeads);
  c.vocabSize = int(hf.vocab);
  c.seqLen = int(hf.maxPositions);
  c.tiedClassifier = hf.tiedEmbeddings;
  c.rmsEps = float(hf.normEps);
  if (hf.ropeTheta > 0)
    c.ropeTheta = float(hf.ropeTheta);
  std::string why = checkLlamaConfig(c);
  return why.empty() || fail(problem, why);
}

std::string hfServingProblem(const HfConfig &hf) {
  if (hf.arch != "llama" && hf.arch != "mistral" && hf.arch != "opt")
    return "model_type: '" + hf.arch +
           "' has no serving runtime yet (llama, mistral and opt have)";
  if (hf.ropeScaling)
    return "rope_scaling is not supported yet";
  if (hf.arch == "opt" && hf.activation != "relu" && hf.activation != "gelu")
    return "activation_function: '" + hf.activation +
           "' is not supported (relu or gelu)";
  if (hf.arch != "opt" && hf.activation != "silu")
    return "hidden_act: '" + hf.activation +
           "' is not supported (SwiGLU runs silu)";
  return "";
}

} // namespace weft::rt
