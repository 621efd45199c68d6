//===- QualityTest.cpp - Quantisation sensitivity indicator ---------------===//
#include "TestUtil.h"

#include "weft/Planner/ModelImport.h"
#include "weft/Planner/Quality.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

#include "gtest/gtest.h"

#include <cstring>
#include <random>

using namespace weft;
using namespace weft::plan;

namespace {
cost::ModelDesc tiny(int64_t layers) {
  cost::ModelDesc m;
  m.hidden = 16;
  m.intermediate = 24;
  m.layers = layers;
  m.heads = 4;
  m.kvHeads = 2;
  m.vocab = 32;
  m.maxSeq = 8;
  return m;
}

/// A llama2.c checkpoint with random weights; layer `loud` gets 4x wider
/// weights, hence 16x the quantisation noise.
std::string writeCheckpoint(const cost::ModelDesc &m, int loud) {
  int32_t header[7] = {int32_t(m.hidden),  int32_t(m.intermediate),
                       int32_t(m.layers),  int32_t(m.heads),
                       int32_t(m.kvHeads), int32_t(m.vocab),
                       int32_t(m.maxSeq)};
  std::string bytes(reinterpret_cast<char *>(header), sizeof(header));
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-1, 1);
  auto put = [&](int64_t n, float scale) {
    for (int64_t i = 0; i < n; ++i) {
      float x = u(rng) * scale;
      bytes.append(reinterpret_cast<char *>(&x), sizeof(x));
    }
  };
  int64_t L = m.layers, d = m.hidden, kv = m.kvDim(), f = m.intermediate;
  put(m.vocab * d, 1);
  put(L * d, 1); // rms_att
  auto perLayer = [&](int64_t n) {
    for (int64_t l = 0; l < L; ++l)
      put(n, l == loud ? 4 : 1);
  };
  perLayer(d * d);
  perLayer(kv * d);
  perLayer(kv * d);
  perLayer(d * d);
  put(L * d, 1); // rms_ffn
  perLayer(f * d);
  perLayer(d * f);
  perLayer(f * d);
  put(d, 1);                                // rms_final
  put(2 * m.maxSeq * (m.headDim() / 2), 1); // the RoPE tables
  return test::writeTemp("bin", bytes);
}
} // namespace

TEST(Quality, BitNoiseOrdering) {
  EXPECT_LT(bitNoise(16), bitNoise(8));
  EXPECT_LT(bitNoise(8), bitNoise(4));
  EXPECT_LT(bitNoise(4), bitNoise(3));
  EXPECT_NEAR(bitNoise(4) / bitNoise(8), (255.0 / 15) * (255.0 / 15), 1e-9);
}

TEST(Quality, PriorIsNormalisedAndWeighsTheEnds) {
  QualityModel q = qualityPrior(tiny(10));
  EXPECT_EQ(q.source, "prior");
  EXPECT_NEAR(q.uniformLoss(4), 1.0, 1e-12);
  EXPECT_LT(q.uniformLoss(8), q.uniformLoss(4));
  EXPECT_GT(q.uniformLoss(3), q.uniformLoss(4));
  EXPECT_NEAR(q.sensitivity[0], 2 * q.sensitivity[5], 1e-12);
  EXPECT_NEAR(q.sensitivity[9], 2 * q.sensitivity[5], 1e-12);
  std::vector<int> mixed(10, 16);
  mixed[3] = 4;
  double expected = q.layerLoss(3, 4);
  for (int l = 0; l < 10; ++l)
    if (l != 3)
      expected += q.layerLoss(l, 16);
  EXPECT_NEAR(q.loss(mixed), expected, 1e-12);
}

TEST(Quality, FromLlama2cWeightsFindsTheNoisyLayer) {
  cost::ModelDesc m = tiny(4);
  std::string path = writeCheckpoint(m, /*loud=*/2);
  m.arch = "llama2c";
  auto q = qualityFromWeights(m, path);
  ASSERT_TRUE(bool(q)) << llvm::toString(q.takeError());
  EXPECT_EQ(q->source, "weights");
  EXPECT_NEAR(q->uniformLoss(4), 1.0, 1e-9);
  for (int l : {0, 1, 3})
    EXPECT_GT(q->sensitivity[2], 8 * q->sensitivity[l]) << l;
  llvm::sys::fs::remove(path);

  // Truncated weights are an error, not a crash.
  std::string full = writeCheckpoint(m, 0);
  auto buf = llvm::MemoryBuffer::getFile(full);
  std::string cut = test::writeTemp(
      "bin", (*buf)->getBuffer().take_front((*buf)->getBufferSize() / 2));
  auto e = qualityFromWeights(m, cut);
  ASSERT_FALSE(bool(e));
  EXPECT_NE(llvm::toString(e.takeError()).find("shorter"), std::string::npos);
  llvm::sys::fs::remove(full);
  llvm::sys::fs::remove(cut);
}

TEST(Quality, Stories260K) {
  std::string path =
      std::string(WEFT_SHARED_DATA_DIR) + "/models/stories260K.bin";
  if (!llvm::sys::fs::exists(path))
    GTEST_SKIP() << "no " << path;
  auto m = cantFail(importModel(path));
  auto q = qualityFromWeights(m.desc, path);
  ASSERT_TRUE(bool(q)) << llvm::toString(q.takeError());
  ASSERT_EQ(q->sensitivity.size(), 5u);
  for (double s : q->sensitivity)
    EXPECT_GT(s, 0);
  EXPECT_NEAR(q->uniformLoss(4), 1.0, 1e-9);
}

namespace {

/// A safetensors file with LLaMA tensor names for `m`; layer `loud` gets 4x
/// wider weights. Matrices alternate F16 and BF16, norms are F32.
std::string writeSafetensors(const llvm::Twine &path, const cost::ModelDesc &m,
                             int loud) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> u(-1, 1);
  std::string data;
  llvm::json::Object header;
  auto add = [&](const std::string &name, int64_t rows, int64_t cols,
                 const char *dtype, float scale) {
    size_t begin = data.size();
    for (int64_t i = 0; i < rows * cols; ++i) {
      float x = u(rng) * scale;
      uint32_t bits;
      memcpy(&bits, &x, 4);
      if (!strcmp(dtype, "F32")) {
        data.append(reinterpret_cast<char *>(&x), 4);
        continue;
      }
      uint16_t h;
      if (!strcmp(dtype, "BF16")) {
        h = uint16_t(bits >> 16);
      } else { // F16 of a normal number in range
        int32_t exp = int32_t((bits >> 23) & 0xff) - 127 + 15;
        h = uint16_t(((bits >> 16) & 0x8000) |
                     (exp <= 0 ? 0 : (uint32_t(exp) << 10) |
                                         ((bits >> 13) & 0x3ff)));
      }
      data.append(reinterpret_cast<char *>(&h), 2);
    }
    llvm::json::Array shape{rows};
    if (cols != 1)
      shape.push_back(cols);
    header[name] = llvm::json::Object{
        {"dtype", dtype},
        {"shape", std::move(shape)},
        {"data_offsets", llvm::json::Array{int64_t(begin), int64_t(data.size())}}};
  };
  int64_t d = m.hidden, kv = m.kvDim(), f = m.intermediate;
  add("model.embed_tokens.weight", m.vocab, d, "BF16", 1);
  add("model.norm.weight", d, 1, "F32", 1);
  add("lm_head.weight", m.vocab, d, "F16", 1);
  for (int64_t l = 0; l < m.layers; ++l) {
    std::string p = "model.layers." + std::to_string(l) + ".";
    float s = l == loud ? 4 : 1;
    add(p + "input_layernorm.weight", d, 1, "F32", 1);
    add(p + "post_attention_layernorm.weight", d, 1, "F32", 1);
    add(p + "self_attn.q_proj.weight", d, d, "F16", s);
    add(p + "self_attn.k_proj.weight", kv, d, "BF16", s);
    add(p + "self_attn.v_proj.weight", kv, d, "F16", s);
    add(p + "self_attn.o_proj.weight", d, d, "BF16", s);
    add(p + "mlp.gate_proj.weight", f, d, "F16", s);
    add(p + "mlp.up_proj.weight", f, d, "BF16", s);
    add(p + "mlp.down_proj.weight", d, f, "F16", s);
  }
  header["__metadata__"] = llvm::json::Object{{"format", "pt"}};
  std::string text;
  llvm::raw_string_ostream(text) << llvm::json::Value(std::move(header));
  uint64_t len = text.size();
  std::error_code ec;
  llvm::raw_fd_ostream os(path.str(), ec);
  os.write(reinterpret_cast<char *>(&len), 8);
  os << text << data;
  return path.str();
}

} // namespace

TEST(Quality, FromSafetensorsDirectory) {
  cost::ModelDesc m = tiny(3);
  m.arch = "llama";
  llvm::SmallString<128> dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("weft-st", dir));
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(std::string(dir) + "/config.json", ec);
    os << R"({"model_type": "llama", "hidden_size": 16,
      "intermediate_size": 24, "num_hidden_layers": 3,
      "num_attention_heads": 4, "num_key_value_heads": 2, "vocab_size": 32})";
  }
  std::string st = writeSafetensors(dir + "/model.safetensors", m, 1);
  auto imported = importModel(dir);
  ASSERT_TRUE(bool(imported)) << llvm::toString(imported.takeError());
  ASSERT_EQ(imported->safetensors.size(), 1u);
  auto q = qualityFromWeights(imported->desc, dir);
  ASSERT_TRUE(bool(q)) << llvm::toString(q.takeError());
  EXPECT_EQ(q->source, "weights");
  EXPECT_NEAR(q->uniformLoss(4), 1.0, 1e-9);
  EXPECT_GT(q->sensitivity[1], 8 * q->sensitivity[0]);
  EXPECT_GT(q->sensitivity[1], 8 * q->sensitivity[2]);

  // A config with more layers than the files: the missing tensor is named.
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(std::string(dir) + "/config.json", ec);
    os << R"({"model_type": "llama", "hidden_size": 16,
      "intermediate_size": 24, "num_hidden_layers": 4,
      "num_attention_heads": 4, "num_key_value_heads": 2, "vocab_size": 32})";
  }
  auto missing = qualityFromWeights(imported->desc, dir);
  ASSERT_FALSE(bool(missing));
  EXPECT_NE(
      llvm::toString(missing.takeError())
          .find("no tensor named 'model.layers.3.input_layernorm.weight'"),
      std::string::npos);

  // A corrupt header is an error naming the file.
  llvm::sys::fs::remove(st);
  std::string bad = std::string(dir) + "/model.safetensors";
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(bad, ec);
    os << std::string("\x10\0\0\0\0\0\0\0{}", 10);
  }
  auto corrupt = qualityFromWeights(imported->desc, dir);
  ASSERT_FALSE(bool(corrupt));
  EXPECT_NE(llvm::toString(corrupt.takeError())
                .find("model.safetensors: header: length 16 exceeds the file"),
            std::string::npos);

  // Architectures without a weight reader get the prior.
  cost::ModelDesc bloom = imported->desc;
  bloom.arch = "bloom";
  auto prior = qualityFromWeights(bloom, dir);
  ASSERT_TRUE(bool(prior)) << llvm::toString(prior.takeError());
  EXPECT_EQ(prior->source, "prior");
  llvm::sys::fs::remove(bad);
  llvm::sys::fs::remove(std::string(dir) + "/config.json");
  llvm::sys::fs::remove(dir);
}
