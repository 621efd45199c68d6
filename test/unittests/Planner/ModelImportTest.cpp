//===- ModelImportTest.cpp - HuggingFace and llama2.c importers -----------===//
#include "TestUtil.h"

#include "weft/Planner/ModelImport.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include "gtest/gtest.h"

#include <cstring>
#include <vector>

using namespace weft;
using namespace weft::plan;

namespace {
cost::ModelDesc hf(llvm::StringRef json) {
  auto v = llvm::json::parse(json);
  EXPECT_TRUE(bool(v));
  auto m = modelFromHFConfig(*v, "config.json");
  EXPECT_TRUE(bool(m)) << llvm::toString(m.takeError());
  return *m;
}

std::string hfError(llvm::StringRef json) {
  auto m = modelFromHFConfig(cantFail(llvm::json::parse(json)), "config.json");
  return m ? "" : llvm::toString(m.takeError());
}
} // namespace

TEST(ModelImport, Llama70BWithGroupedQueryAttention) {
  cost::ModelDesc m = hf(R"({"model_type": "llama", "hidden_size": 8192,
    "intermediate_size": 28672, "num_hidden_layers": 80,
    "num_attention_heads": 64, "num_key_value_heads": 8, "vocab_size": 32000,
    "tie_word_embeddings": false})");
  EXPECT_EQ(m.arch, "llama");
  EXPECT_EQ(m.layers, 80);
  EXPECT_EQ(m.kvHeads, 8);
  EXPECT_EQ(m.kvDim(), 1024);
  EXPECT_TRUE(m.gatedFFN);
  EXPECT_FALSE(m.tiedEmbeddings);
  EXPECT_FALSE(m.attnBias);
  EXPECT_FALSE(m.layerNorm);
}

TEST(ModelImport, LlamaWithoutKVHeadsIsMultiHead) {
  cost::ModelDesc m = hf(R"({"model_type": "llama", "hidden_size": 6656,
    "intermediate_size": 17920, "num_hidden_layers": 60,
    "num_attention_heads": 52, "vocab_size": 32000})");
  EXPECT_EQ(m.kvHeads, 52);
}

TEST(ModelImport, MistralAndQwen2) {
  cost::ModelDesc mistral = hf(R"({"model_type": "mistral",
    "hidden_size": 4096, "intermediate_size": 14336, "num_hidden_layers": 32,
    "num_attention_heads": 32, "num_key_value_heads": 8,
    "vocab_size": 32000})");
  EXPECT_EQ(mistral.kvDim(), 1024);
  EXPECT_FALSE(mistral.attnBias);
  cost::ModelDesc qwen = hf(R"({"model_type": "qwen2", "hidden_size": 3584,
    "intermediate_size": 18944, "num_hidden_layers": 28,
    "num_attention_heads": 28, "num_key_value_heads": 4,
    "vocab_size": 152064, "tie_word_embeddings": false})");
  EXPECT_TRUE(qwen.attnBias); // Qwen2 has q/k/v biases
  EXPECT_FALSE(qwen.mlpBias);
  EXPECT_EQ(qwen.kvHeads, 4);
}

TEST(ModelImport, OptUsesFfnDimBiasesAndTiedEmbeddings) {
  cost::ModelDesc m = hf(R"({"model_type": "opt", "hidden_size": 7168,
    "ffn_dim": 28672, "num_hidden_layers": 48, "num_attention_heads": 56,
    "vocab_size": 50272, "enable_bias": true})");
  EXPECT_EQ(m.intermediate, 28672);
  EXPECT_FALSE(m.gatedFFN);
  EXPECT_TRUE(m.layerNorm);
  EXPECT_TRUE(m.attnBias);
  EXPECT_TRUE(m.mlpBias);
  EXPECT_TRUE(m.tiedEmbeddings);
  // 4 h^2 + 2 h f parameters per layer.
  EXPECT_EQ(m.linearParamsPerLayer(), 4LL * 7168 * 7168 + 2LL * 7168 * 28672);
}

TEST(ModelImport, BloomNamesAndDefaultFfn) {
  cost::ModelDesc m = hf(R"({"model_type": "bloom", "n_embed": 14336,
    "n_layer": 70, "n_head": 112, "vocab_size": 250880})");
  EXPECT_EQ(m.hidden, 14336);
  EXPECT_EQ(m.layers, 70);
  EXPECT_EQ(m.intermediate, 4 * 14336);
  EXPECT_TRUE(m.tiedEmbeddings);
  // BLOOM-176B: ~172.6 B parameters in its decoder layers.
  EXPECT_NEAR(70.0 * m.linearParamsPerLayer() / 1e9, 172.6, 0.1);
}

TEST(ModelImport, ErrorsNameTheField) {
  EXPECT_NE(hfError(R"({"hidden_size": 1})")
                .find("config.json: model_type: "
                      "missing"),
            std::string::npos);
  EXPECT_NE(hfError(R"({"model_type": "gpt9"})").find("unsupported 'gpt9'"),
            std::string::npos);
  std::string e = hfError(R"({"model_type": "llama", "hidden_size": -3,
    "num_hidden_layers": 2, "num_attention_heads": 1, "vocab_size": 9,
    "intermediate_size": 4})");
  EXPECT_NE(e.find("config.json: hidden_size: expected a positive integer"),
            std::string::npos)
      << e;
  e = hfError(R"({"model_type": "llama", "hidden_size": 64,
    "num_hidden_layers": 2, "num_attention_heads": 8,
    "num_key_value_heads": 3, "vocab_size": 9, "intermediate_size": 4})");
  EXPECT_NE(e.find("num_key_value_heads: must divide"), std::string::npos);
}

TEST(ModelImport, DirectoryAndBadFiles) {
  llvm::SmallString<128> dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("weft-model", dir));
  std::string cfg = std::string(dir) + "/config.json";
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(cfg, ec);
    os << R"({"model_type": "mistral", "hidden_size": 4096,
      "intermediate_size": 14336, "num_hidden_layers": 32,
      "num_attention_heads": 32, "num_key_value_heads": 8,
      "vocab_size": 32000})";
  }
  auto m = importModel(dir);
  ASSERT_TRUE(bool(m)) << llvm::toString(m.takeError());
  EXPECT_EQ(m->desc.layers, 32);
  EXPECT_EQ(m->source, cfg);
  llvm::sys::fs::remove(cfg);
  llvm::sys::fs::remove(dir);

  std::string bad = test::writeTemp("json", "{ not json");
  auto e = importModel(bad);
  ASSERT_FALSE(bool(e));
  EXPECT_NE(llvm::toString(e.takeError()).find("invalid JSON"),
            std::string::npos);
  llvm::sys::fs::remove(bad);
  EXPECT_FALSE(bool(importModel("/nonexistent/model.json")));
}

TEST(ModelImport, Llama2cHeader) {
  // dim 64, hidden 172, 5 layers, 8 heads, 4 kv heads, vocab 512, seq 512
  int32_t header[7] = {64, 172, 5, 8, 4, -512, 512};
  std::string bytes(reinterpret_cast<char *>(header), sizeof(header));
  std::string path = test::writeTemp("bin", bytes);
  auto m = importModel(path);
  ASSERT_TRUE(bool(m)) << llvm::toString(m.takeError());
  EXPECT_EQ(m->desc.hidden, 64);
  EXPECT_EQ(m->desc.intermediate, 172);
  EXPECT_EQ(m->desc.layers, 5);
  EXPECT_EQ(m->desc.kvHeads, 4);
  EXPECT_EQ(m->desc.vocab, 512);
  EXPECT_FALSE(m->desc.tiedEmbeddings); // negative vocab: own classifier
  EXPECT_EQ(m->llama2cWeights, path);
  llvm::sys::fs::remove(path);

  int32_t broken[7] = {64, 172, 0, 8, 4, 512, 512};
  path = test::writeTemp(
      "bin", std::string(reinterpret_cast<char *>(broken), sizeof(broken)));
  auto e = importModel(path);
  ASSERT_FALSE(bool(e));
  EXPECT_NE(llvm::toString(e.takeError())
                .find("header field n_layers = 0 is outside"),
            std::string::npos);
  llvm::sys::fs::remove(path);
  path = test::writeTemp("bin", "abc");
  EXPECT_FALSE(bool(importModel(path)));
  llvm::sys::fs::remove(path);
}

TEST(ModelImport, Stories260K) {
  std::string path =
      std::string(WEFT_SHARED_DATA_DIR) + "/models/stories260K.bin";
  if (!llvm::sys::fs::exists(path))
    GTEST_SKIP() << "no " << path;
  auto m = importModel(path);
  ASSERT_TRUE(bool(m)) << llvm::toString(m.takeError());
  EXPECT_EQ(m->desc.hidden, 64);
  EXPECT_EQ(m->desc.layers, 5);
  EXPECT_EQ(m->desc.heads, 8);
  EXPECT_EQ(m->desc.kvHeads, 4);
  EXPECT_EQ(m->desc.vocab, 512);
  EXPECT_TRUE(m->desc.tiedEmbeddings);
}
