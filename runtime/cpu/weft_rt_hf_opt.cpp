//===- weft_rt_hf_opt.cpp - HuggingFace OPT checkpoints -------------------===//
#include "weft_rt_hf_opt.h"

#include "weft_rt_json.h"
#include "weft_rt_safetensors.h"

#include <iterator>

namespace weft::rt {

namespace {
bool fail(std::string *error, const std::string &what) {
  if (error)
    *error = what;
  return false;
}

bool flag(const JsonValue &json, const char *key, bool fallback) {
  const JsonValue *v = json.get(key);
  return v && v->kind == JsonValue::Kind::Bool ? v->boolean : fallback;
}
} // namespace

bool readHfOptConfig(const std::string &path, LlamaConfig &c,
                     std::string *error) {
  JsonValue json;
  if (!readJsonObject(path, json, error))
    return false;
  std::string problem;
  const JsonValue *type = json.get("model_type");
  if (!type || type->kind != JsonValue::Kind::String || type->string != "opt")
    return fail(error, path + ": model_type is not \"opt\"");
  c = LlamaConfig();
  c.arch = ModelArch::Opt;
  if (!jsonCount(json, "hidden_size", -1, c.dim, problem) ||
      !jsonCount(json, "ffn_dim", -1, c.hiddenDim, problem) ||
      !jsonCount(json, "num_hidden_layers", -1, c.layers, problem) ||
      !jsonCount(json, "num_attention_heads", -1, c.heads, problem) ||
      !jsonCount(json, "vocab_size", -1, c.vocabSize, problem) ||
      !jsonCount(json, "max_position_embeddings", 2048, c.seqLen, problem))
    return fail(error, path + ": " + problem);
  c.kvHeads = c.heads;
  c.rmsEps = 1e-5f; // HF's OPT LayerNorms use torch's default
  c.tiedClassifier = flag(json, "tie_word_embeddings", true);
  int projDim = 0;
  if (!jsonCount(json, "word_embed_proj_dim", c.dim, projDim, problem))
    return fail(error, path + ": " + problem);
  if (!flag(json, "do_layer_norm_before", true))
    return fail(error, path + ": do_layer_norm_before: post-LayerNorm OPT "
                              "(opt-350m) is not supported");
  if (projDim != c.dim)
    return fail(error, path + ": word_embed_proj_dim: " +
                           std::to_string(projDim) + " differs from "
                           "hidden_size " + std::to_string(c.dim) +
                           " (projected embeddings, opt-350m) and is not "
                           "supported");
  if (!flag(json, "enable_bias", true))
    return fail(error, path + ": enable_bias: OPT without biases is not "
                              "supported");
  if (!flag(json, "layer_norm_elementwise_affine", true))
    return fail(error, path + ": layer_norm_elementwise_affine: LayerNorms "
                              "without weights are not supported");
  const JsonValue *act = json.get("activation_function");
  std::string activation =
      act && act->kind == JsonValue::Kind::String ? act->string : "relu";
  if (activation != "relu" && activation != "gelu")
    return fail(error, path + ": activation_function: '" + activation +
                           "' is not supported (relu or gelu)");
  c.geluFfn = activation == "gelu";
  problem = checkLlamaConfig(c);
  if (!problem.empty())
    return fail(error, path + ": " + problem);
  return true;
}

bool readHfOpt(const std::string &dir, LlamaWeights &out,
               std::string *error) {
  out = LlamaWeights();
  if (!readHfOptConfig(dir + "/config.json", out.config, error))
    return false;
  SafetensorsDir files;
  if (!files.open(dir, error))
    return false;
  // Checkpoints saved from OPTModel lack the "model." prefix.
  const std::string top = files.holderOf("model.decoder.embed_tokens.weight")
                              ? "model.decoder."
                              : "decoder.";

  const LlamaConfig &c = out.config;
  const int64_t L = c.layers, D = c.dim, H = c.hiddenDim;
  struct Wanted {
    std::string name;
    std::vector<float> *dst;
    int64_t offset, rows, cols; ///< cols == 0: a vector of `rows` values
  };
  // Every tensor of the model; stops at the first visit that fails.
  auto each = [&](auto &&visit) {
    const Wanted whole[] = {
        {top + "embed_tokens.weight", &out.tokenEmbedding, 0, c.vocabSize, D},
        {top + "embed_positions.weight", &out.positionEmbedding, 0,
         c.seqLen + kOptPositionOffset, D},
        {top + "final_layer_norm.weight", &out.rmsFinal, 0, D, 0},
        {top + "final_layer_norm.bias", &out.normFinalBias, 0, D, 0}};
    for (const Wanted &w : whole)
      if (!visit(w))
        return false;
    if (!c.tiedClassifier &&
        !visit(Wanted{"lm_head.weight", &out.wcls, 0, c.vocabSize, D}))
      return false;
    for (int64_t l = 0; l < L; ++l) {
      const std::string p = top + "layers." + std::to_string(l) + ".";
      const Wanted perLayer[] = {
          {p + "self_attn_layer_norm.weight", &out.rmsAtt, l * D, D, 0},
          {p + "self_attn_layer_norm.bias", &out.normAttBias, l * D, D, 0},
          {p + "self_attn.q_proj.weight", &out.wq, l * D * D, D, D},
          {p + "self_attn.q_proj.bias", &out.bq, l * D, D, 0},
          {p + "self_attn.k_proj.weight", &out.wk, l * D * D, D, D},
          {p + "self_attn.k_proj.bias", &out.bk, l * D, D, 0},
          {p + "self_attn.v_proj.weight", &out.wv, l * D * D, D, D},
          {p + "self_attn.v_proj.bias", &out.bv, l * D, D, 0},
          {p + "self_attn.out_proj.weight", &out.wo, l * D * D, D, D},
          {p + "self_attn.out_proj.bias", &out.bo, l * D, D, 0},
          {p + "final_layer_norm.weight", &out.rmsFfn, l * D, D, 0},
          {p + "final_layer_norm.bias", &out.normFfnBias, l * D, D, 0},
          {p + "fc1.weight", &out.w1, l * H * D, H, D},
          {p + "fc1.bias", &out.b1, l * H, H, 0},
          {p + "fc2.weight", &out.w2, l * D * H, D, H},
          {p + "fc2.bias", &out.b2, l * D, D, 0}};
      for (const Wanted &w : perLayer)
        if (!visit(w))
          return false;
    }
    return true;
  };
  // Every tensor must exist with its shape before anything is allocated:
  // the sizes then come from the files, never from config.json alone.
  if (!each([&](const Wanted &w) {
        return files.check(w.name, w.rows, w.cols, error);
      }))
    return false;
  auto alloc = [](std::vector<float> &v, int64_t n) { v.assign(size_t(n), 0); };
  alloc(out.tokenEmbedding, c.vocabSize * D);
  alloc(out.positionEmbedding, (c.seqLen + kOptPositionOffset) * D);
  alloc(out.rmsFinal, D);
  alloc(out.normFinalBias, D);
  for (auto *v : {&out.rmsAtt, &out.normAttBias, &out.rmsFfn, &out.normFfnBias,
                  &out.bq, &out.bk, &out.bv, &out.bo, &out.b2})
    alloc(*v, L * D);
  alloc(out.b1, L * H);
  for (auto *v : {&out.wq, &out.wk, &out.wv, &out.wo})
    alloc(*v, L * D * D);
  alloc(out.w1, L * H * D);
  alloc(out.w2, L * D * H);
  if (!c.tiedClassifier)
    alloc(out.wcls, c.vocabSize * D);
  if (!each([&](const Wanted &w) {
        return files.read(w.name, w.dst->data() + w.offset, w.rows, w.cols,
                          error);
      }))
    return false;
  if (c.tiedClassifier)
    out.wcls = out.tokenEmbedding;
  return true;
}

} // namespace weft::rt
