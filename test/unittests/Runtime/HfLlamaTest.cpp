//===- HfLlamaTest.cpp - HuggingFace LLaMA directories --------------------===//
#include "HfWriter.h"
#include "TinyLlama.h"
#include "weft_rt_checkpoint.h"
#include "weft_rt_rope.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

using namespace weft::rt;
using namespace weft::rt::test;

namespace {
/// Writes `w` as a HuggingFace directory in a fresh temporary folder.
std::string writeHfModel(const LlamaWeights &w, const std::string &name,
                         const std::string &extraConfig = "") {
  std::string dir = tempPath(name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  writeHfDirectory(w, dir, extraConfig);
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
    ASSERT_TRUE(readCheckpoint(dir, r, &error)) << error;
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
  EXPECT_FALSE(readCheckpoint(dir, r, &error));
  EXPECT_EQ(error, dir + "/config.json: rope_scaling is not supported yet");

  dir = writeHfModel(w, "hf-bad");
  std::filesystem::remove(dir + "/model-00002-of-00002.safetensors");
  EXPECT_FALSE(readCheckpoint(dir, r, &error));
  EXPECT_NE(
      error.find("no tensor named 'model.layers.0.input_layernorm.weight'"),
      std::string::npos)
      << error;

  std::ofstream(dir + "/config.json") << "{\"hidden_size\": 16}";
  EXPECT_FALSE(readCheckpoint(dir, r, &error));
  EXPECT_EQ(error, dir + "/config.json: model_type: missing");
  std::ofstream(dir + "/config.json")
      << "{\"model_type\": \"llama\", \"hidden_size\": 16}";
  EXPECT_FALSE(readCheckpoint(dir, r, &error));
  EXPECT_EQ(error, dir + "/config.json: num_hidden_layers: missing");

  LlamaWeights wider = randomLlama(llamaConfig(16, 24, 1, 4, 2, 10, 8), 94);
  dir = writeHfModel(wider, "hf-bad");
  std::ofstream(dir + "/config.json")
      << "{\"model_type\": \"llama\", \"hidden_size\": 16, "
         "\"intermediate_size\": 20, "
         "\"num_hidden_layers\": 1, \"num_attention_heads\": 4, "
         "\"num_key_value_heads\": 2, \"vocab_size\": 10, "
         "\"tie_word_embeddings\": true}";
  EXPECT_FALSE(readCheckpoint(dir, r, &error));
  EXPECT_EQ(error, dir + ": tensor 'model.layers.0.mlp.gate_proj.weight' has "
                         "shape [24x16], config.json implies [20x16]");
  EXPECT_FALSE(readCheckpoint(tempPath("no-such-dir"), r, &error));
  std::filesystem::remove_all(dir);
}

TEST(HfLlama, HugeConfigSizesAreCheckedAgainstTheFilesBeforeAllocating) {
  // A config.json within every field limit whose weights would take 2^62
  // bytes, next to a small checkpoint: the reader used to allocate first
  // (std::length_error / out of memory) and look at the tensors after.
  LlamaWeights w = randomLlama(llamaConfig(8, 12, 1, 2, 2, 10, 8, true), 91);
  std::string dir = writeHfModel(w, "hf-huge");
  std::ofstream(dir + "/config.json")
      << "{\"model_type\": \"llama\", \"hidden_size\": 1048576, "
         "\"intermediate_size\": 1048576, \"num_hidden_layers\": 16384, "
         "\"num_attention_heads\": 1024, \"vocab_size\": 1048576}";
  LlamaWeights r;
  std::string error;
  EXPECT_FALSE(readCheckpoint(dir, r, &error));
  EXPECT_EQ(error, dir + ": tensor 'model.embed_tokens.weight' has shape "
                         "[10x8], config.json implies [1048576x1048576]");
  EXPECT_TRUE(r.wq.empty());
  std::ofstream(dir + "/config.json")
      << "{\"model_type\": \"opt\", \"hidden_size\": 1048576, "
         "\"ffn_dim\": 1048576, \"num_hidden_layers\": 16384, "
         "\"num_attention_heads\": 1024, \"vocab_size\": 1048576}";
  EXPECT_FALSE(readCheckpoint(dir, r, &error));
  EXPECT_EQ(error, dir + ": no tensor named 'decoder.embed_tokens.weight'");
  EXPECT_TRUE(r.wq.empty());
  // Beyond the reader's limits, the config is refused by itself.
  std::ofstream(dir + "/config.json")
      << "{\"model_type\": \"llama\", \"hidden_size\": 8, "
         "\"intermediate_size\": 12, \"num_hidden_layers\": 1048576, "
         "\"num_attention_heads\": 2, \"vocab_size\": 10}";
  EXPECT_FALSE(readCheckpoint(dir, r, &error));
  EXPECT_EQ(error, dir + "/config.json: num_hidden_layers: too large (at "
                         "most 16384)");
  std::filesystem::remove_all(dir);
}
