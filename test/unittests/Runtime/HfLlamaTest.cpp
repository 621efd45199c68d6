//===- HfLlamaTest.cpp - HuggingFace LLaMA directories --------------------===//
#include "TinyLlama.h"
#include "weft_rt_hf_llama.h"
#include "weft_rt_rope.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

using namespace weft::rt;
using namespace weft::rt::test;

namespace {
struct Tensor {
  std::string name;
  std::vector<int64_t> shape;
  std::vector<float> data;
};

/// Writes F32 tensors as a safetensors file.
void writeSafetensors(const std::string &path,
                      const std::vector<Tensor> &tensors) {
  std::string header = "{", data;
  for (const Tensor &t : tensors) {
    std::string shape;
    for (int64_t d : t.shape)
      shape += (shape.empty() ? "" : ",") + std::to_string(d);
    size_t begin = data.size();
    data.append(reinterpret_cast<const char *>(t.data.data()),
                t.data.size() * 4);
    header += (header.size() > 1 ? "," : "") + std::string("\"") + t.name +
              "\":{\"dtype\":\"F32\",\"shape\":[" + shape +
              "],\"data_offsets\":[" + std::to_string(begin) + "," +
              std::to_string(data.size()) + "]}";
  }
  header += "}";
  std::ofstream out(path, std::ios::binary);
  uint64_t length = header.size();
  out.write(reinterpret_cast<const char *>(&length), 8);
  out << header << data;
}

/// llama2.c q/k rows -> HuggingFace's rotate-half order (what HF's
/// conversion script does), written independently of the runtime.
std::vector<float> toHfRows(const float *meta, int heads, int hs, int cols) {
  std::vector<float> hf(size_t(heads) * hs * cols);
  for (int h = 0; h < heads; ++h)
    for (int i = 0; i < hs / 2; ++i)
      for (int c = 0; c < cols; ++c) {
        hf[(size_t(h) * hs + i) * cols + c] =
            meta[(size_t(h) * hs + 2 * i) * cols + c];
        hf[(size_t(h) * hs + hs / 2 + i) * cols + c] =
            meta[(size_t(h) * hs + 2 * i + 1) * cols + c];
      }
  return hf;
}

std::vector<float> slice(const std::vector<float> &v, int64_t index,
                         int64_t size) {
  return {v.begin() + index * size, v.begin() + (index + 1) * size};
}

/// Writes `w` as a HuggingFace directory split over two shards.
std::string writeHfModel(const LlamaWeights &w, const std::string &name,
                         const std::string &extraConfig = "") {
  const LlamaConfig &c = w.config;
  std::string dir = tempPath(name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/config.json")
      << "{\"architectures\": [\"LlamaForCausalLM\"], \"hidden_size\": "
      << c.dim << ", \"intermediate_size\": " << c.hiddenDim
      << ", \"num_hidden_layers\": " << c.layers
      << ", \"num_attention_heads\": " << c.heads
      << ", \"num_key_value_heads\": " << c.kvHeads
      << ", \"vocab_size\": " << c.vocabSize
      << ", \"max_position_embeddings\": " << c.seqLen
      << ", \"rms_norm_eps\": 1e-05, \"rope_theta\": 10000.0"
      << ", \"tie_word_embeddings\": " << (c.tiedClassifier ? "true" : "false")
      << extraConfig << "}";
  int64_t D = c.dim, KV = c.kvDim(), H = c.hiddenDim, hs = c.headSize();
  std::vector<Tensor> first = {
      {"model.embed_tokens.weight", {c.vocabSize, D}, w.tokenEmbedding},
      {"model.norm.weight", {D}, w.rmsFinal}};
  if (!c.tiedClassifier)
    first.push_back({"lm_head.weight", {c.vocabSize, D}, w.wcls});
  std::vector<Tensor> second;
  for (int l = 0; l < c.layers; ++l) {
    std::string p = "model.layers." + std::to_string(l) + ".";
    second.push_back({p + "self_attn.q_proj.weight",
                      {D, D},
                      toHfRows(&w.wq[l * D * D], c.heads, int(hs), int(D))});
    second.push_back({p + "self_attn.k_proj.weight",
                      {KV, D},
                      toHfRows(&w.wk[l * KV * D], c.kvHeads, int(hs), int(D))});
    second.push_back(
        {p + "self_attn.v_proj.weight", {KV, D}, slice(w.wv, l, KV * D)});
    second.push_back(
        {p + "self_attn.o_proj.weight", {D, D}, slice(w.wo, l, D * D)});
    second.push_back(
        {p + "mlp.gate_proj.weight", {H, D}, slice(w.w1, l, H * D)});
    second.push_back(
        {p + "mlp.down_proj.weight", {D, H}, slice(w.w2, l, D * H)});
    second.push_back({p + "mlp.up_proj.weight", {H, D}, slice(w.w3, l, H * D)});
    second.push_back(
        {p + "input_layernorm.weight", {D}, slice(w.rmsAtt, l, D)});
    second.push_back(
        {p + "post_attention_layernorm.weight", {D}, slice(w.rmsFfn, l, D)});
  }
  writeSafetensors(dir + "/model-00001-of-00002.safetensors", first);
  writeSafetensors(dir + "/model-00002-of-00002.safetensors", second);
  return dir;
}
} // namespace

TEST(HfLlama, ReadsTheSameWeightsAsLlama2c) {
  for (bool tied : {true, false}) {
    LlamaWeights w =
        randomLlama(llamaConfig(24, 40, 2, 6, 2, 30, 16, tied), 90);
    std::string dir = writeHfModel(w, "hf-model");
    LlamaWeights r;
    std::string error;
    ASSERT_TRUE(readHfLlama(dir, r, &error)) << error;
    EXPECT_EQ(r.config.kvHeads, 2);
    EXPECT_EQ(r.config.tiedClassifier, tied);
    EXPECT_EQ(r.tokenEmbedding, w.tokenEmbedding);
    EXPECT_EQ(r.wq, w.wq);
    EXPECT_EQ(r.wk, w.wk);
    EXPECT_EQ(r.wv, w.wv);
    EXPECT_EQ(r.w2, w.w2);
    EXPECT_EQ(r.rmsFfn, w.rmsFfn);
    EXPECT_EQ(r.wcls, w.wcls);
    std::filesystem::remove_all(dir);
  }
}

// The runtime's pairwise RoPE on converted weights equals HuggingFace's
// rotate-half RoPE on the original ones (up to the same row order change).
TEST(HfLlama, ConvertedRowsMatchRotateHalfRope) {
  const int heads = 2, hs = 8, cols = 5, pos = 7;
  auto meta = randomVector(size_t(heads) * hs * cols, 91);
  auto hf = toHfRows(meta.data(), heads, hs, cols);
  std::vector<float> converted(meta.size());
  hfToLlama2cRows(hf.data(), converted.data(), heads, hs, cols);
  EXPECT_EQ(converted, meta);
  auto x = randomVector(cols, 92);
  auto project = [&](const std::vector<float> &w) {
    std::vector<float> q(heads * hs);
    for (int r = 0; r < heads * hs; ++r)
      for (int c = 0; c < cols; ++c)
        q[r] += w[r * cols + c] * x[c];
    return q;
  };
  std::vector<float> qHf = project(hf), qOurs = project(converted);
  rope(qOurs.data(), 1, heads, hs, pos);
  for (int h = 0; h < heads; ++h)
    for (int i = 0; i < hs / 2; ++i) { // HF: rotate_half pairs (i, i + hs/2)
      double angle = pos * std::pow(10000.0, -2.0 * i / hs);
      double a = qHf[h * hs + i], b = qHf[h * hs + hs / 2 + i];
      double outA = a * std::cos(angle) - b * std::sin(angle);
      double outB = b * std::cos(angle) + a * std::sin(angle);
      EXPECT_NEAR(qOurs[h * hs + 2 * i], outA, 1e-5);
      EXPECT_NEAR(qOurs[h * hs + 2 * i + 1], outB, 1e-5);
    }
}

TEST(HfLlama, ClearErrors) {
  LlamaWeights w = randomLlama(llamaConfig(16, 20, 1, 4, 2, 10, 8), 93);
  LlamaWeights r;
  std::string error;
  std::string dir =
      writeHfModel(w, "hf-bad", ", \"rope_scaling\": {\"type\": \"linear\"}");
  EXPECT_FALSE(readHfLlama(dir, r, &error));
  EXPECT_EQ(error, dir + "/config.json: rope_scaling is not supported yet");

  dir = writeHfModel(w, "hf-bad");
  std::filesystem::remove(dir + "/model-00002-of-00002.safetensors");
  EXPECT_FALSE(readHfLlama(dir, r, &error));
  EXPECT_NE(
      error.find("no tensor named 'model.layers.0.input_layernorm.weight'"),
      std::string::npos)
      << error;

  std::ofstream(dir + "/config.json") << "{\"hidden_size\": 16}";
  EXPECT_FALSE(readHfLlama(dir, r, &error));
  EXPECT_EQ(error, dir + "/config.json: missing \"intermediate_size\"");

  LlamaWeights wider = randomLlama(llamaConfig(16, 24, 1, 4, 2, 10, 8), 94);
  dir = writeHfModel(wider, "hf-bad");
  std::ofstream(dir + "/config.json")
      << "{\"hidden_size\": 16, \"intermediate_size\": 20, "
         "\"num_hidden_layers\": 1, \"num_attention_heads\": 4, "
         "\"num_key_value_heads\": 2, \"vocab_size\": 10, "
         "\"tie_word_embeddings\": true}";
  EXPECT_FALSE(readHfLlama(dir, r, &error));
  EXPECT_EQ(error, dir + ": tensor 'model.layers.0.mlp.gate_proj.weight' has "
                         "shape [24x16], config.json implies [20x16]");
  EXPECT_FALSE(readHfLlama(tempPath("no-such-dir"), r, &error));
  std::filesystem::remove_all(dir);
}
