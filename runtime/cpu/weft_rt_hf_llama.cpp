//===- weft_rt_hf_llama.cpp - HuggingFace LLaMA checkpoints ---------------===//
#include "weft_rt_hf_llama.h"

#include "weft_rt_json.h"
#include "weft_rt_safetensors.h"

#include <cstring>
#include <iterator>

namespace weft::rt {

namespace {
bool fail(std::string *error, const std::string &what) {
  if (error)
    *error = what;
  return false;
}

/// One tensor of the model: where it goes and the shape it must have.
struct Wanted {
  std::string name;
  std::vector<float> *dst;
  int64_t offset;     ///< into *dst
  int64_t rows, cols; ///< cols == 0: a vector of `rows` values
  int permuteHeads;   ///< > 0: q/k rows to convert from HF order
};
} // namespace

void hfToLlama2cRows(const float *hf, float *out, int heads, int headSize,
                     int cols) {
  const int half = headSize / 2;
  for (int h = 0; h < heads; ++h)
    for (int i = 0; i < half; ++i) {
      const int64_t base = int64_t(h) * headSize;
      std::memcpy(out + (base + 2 * i) * cols, hf + (base + i) * cols,
                  sizeof(float) * cols);
      std::memcpy(out + (base + 2 * i + 1) * cols,
                  hf + (base + half + i) * cols, sizeof(float) * cols);
    }
}

bool readHfLlamaConfig(const std::string &path, LlamaConfig &c,
                       std::string *error) {
  JsonValue json;
  if (!readJsonObject(path, json, error))
    return false;
  std::string problem;
  if (!jsonCount(json, "hidden_size", -1, c.dim, problem) ||
      !jsonCount(json, "intermediate_size", -1, c.hiddenDim, problem) ||
      !jsonCount(json, "num_hidden_layers", -1, c.layers, problem) ||
      !jsonCount(json, "num_attention_heads", -1, c.heads, problem) ||
      !jsonCount(json, "num_key_value_heads", c.heads, c.kvHeads, problem) ||
      !jsonCount(json, "vocab_size", -1, c.vocabSize, problem) ||
      !jsonCount(json, "max_position_embeddings", 2048, c.seqLen, problem))
    return fail(error, path + ": " + problem);
  const JsonValue *eps = json.get("rms_norm_eps");
  const JsonValue *theta = json.get("rope_theta");
  const JsonValue *tied = json.get("tie_word_embeddings");
  c.rmsEps =
      eps && eps->kind == JsonValue::Kind::Number ? float(eps->number) : 1e-6f;
  c.ropeTheta = theta && theta->kind == JsonValue::Kind::Number
                    ? float(theta->number)
                    : 10000.0f;
  c.tiedClassifier =
      tied && tied->kind == JsonValue::Kind::Bool && tied->boolean;
  const JsonValue *scaling = json.get("rope_scaling");
  if (scaling && scaling->kind != JsonValue::Kind::Null)
    return fail(error, path + ": rope_scaling is not supported yet");
  problem = checkLlamaConfig(c);
  if (!problem.empty())
    return fail(error, path + ": " + problem);
  return true;
}

bool readHfLlama(const std::string &dir, LlamaWeights &out,
                 std::string *error) {
  if (!readHfLlamaConfig(dir + "/config.json", out.config, error))
    return false;
  SafetensorsDir files;
  if (!files.open(dir, error))
    return false;

  const LlamaConfig &c = out.config;
  const int64_t L = c.layers, D = c.dim, H = c.hiddenDim, KV = c.kvDim();
  // Every tensor of the model, each read straight into its layer's slice
  // of the stacked llama2.c arrays; stops at the first visit that fails.
  auto each = [&](auto &&visit) {
    if (!visit(Wanted{"model.embed_tokens.weight", &out.tokenEmbedding, 0,
                      c.vocabSize, D, 0}) ||
        !visit(Wanted{"model.norm.weight", &out.rmsFinal, 0, D, 0, 0}))
      return false;
    if (!c.tiedClassifier &&
        !visit(Wanted{"lm_head.weight", &out.wcls, 0, c.vocabSize, D, 0}))
      return false;
    for (int64_t l = 0; l < L; ++l) {
      std::string p = "model.layers." + std::to_string(l) + ".";
      const Wanted perLayer[] = {
          {p + "input_layernorm.weight", &out.rmsAtt, l * D, D, 0, 0},
          {p + "self_attn.q_proj.weight", &out.wq, l * D * D, D, D, c.heads},
          {p + "self_attn.k_proj.weight", &out.wk, l * KV * D, KV, D,
           c.kvHeads},
          {p + "self_attn.v_proj.weight", &out.wv, l * KV * D, KV, D, 0},
          {p + "self_attn.o_proj.weight", &out.wo, l * D * D, D, D, 0},
          {p + "post_attention_layernorm.weight", &out.rmsFfn, l * D, D, 0, 0},
          {p + "mlp.gate_proj.weight", &out.w1, l * H * D, H, D, 0},
          {p + "mlp.down_proj.weight", &out.w2, l * D * H, D, H, 0},
          {p + "mlp.up_proj.weight", &out.w3, l * H * D, H, D, 0}};
      for (const Wanted &w : perLayer)
        if (!visit(w))
          return false;
    }
    return true;
  };
  // Every tensor must exist with its shape before anything is allocated:
  // the sizes then come from the files, never from config.json alone (a
  // config with huge sizes is an error, not an allocation failure).
  if (!each([&](const Wanted &w) {
        return files.check(w.name, w.rows, w.cols, error);
      }))
    return false;
  out.tokenEmbedding.assign(size_t(c.vocabSize * D), 0.0f);
  out.rmsFinal.assign(size_t(D), 0.0f);
  out.wcls.assign(c.tiedClassifier ? 0 : size_t(c.vocabSize * D), 0.0f);
  for (auto *v : {&out.rmsAtt, &out.rmsFfn})
    v->assign(size_t(L * D), 0.0f);
  out.wq.assign(size_t(L * D * D), 0.0f);
  out.wk.assign(size_t(L * KV * D), 0.0f);
  out.wv.assign(size_t(L * KV * D), 0.0f);
  out.wo.assign(size_t(L * D * D), 0.0f);
  out.w1.assign(size_t(L * H * D), 0.0f);
  out.w2.assign(size_t(L * D * H), 0.0f);
  out.w3.assign(size_t(L * H * D), 0.0f);

  std::vector<float> hf;
  if (!each([&](const Wanted &w) {
        float *dst = w.dst->data() + w.offset;
        if (!w.permuteHeads)
          return files.read(w.name, dst, w.rows, w.cols, error);
        hf.resize(size_t(w.rows * w.cols));
        if (!files.read(w.name, hf.data(), w.rows, w.cols, error))
          return false;
        hfToLlama2cRows(hf.data(), dst, w.permuteHeads, c.headSize(),
                        int(w.cols));
        return true;
      }))
    return false;
  if (c.tiedClassifier)
    out.wcls = out.tokenEmbedding;
  return true;
}

} // namespace weft::rt
