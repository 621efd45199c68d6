//===- QualityTest.cpp - Quantisation sensitivity indicator ---------------===//
#include "TestUtil.h"

#include "weft/Planner/ModelImport.h"
#include "weft/Planner/Quality.h"

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
  put(d, 1);
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
  auto q = qualityFromLlama2c(m, path);
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
  auto e = qualityFromLlama2c(m, cut);
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
  auto q = qualityFromLlama2c(m.desc, path);
  ASSERT_TRUE(bool(q)) << llvm::toString(q.takeError());
  ASSERT_EQ(q->sensitivity.size(), 5u);
  for (double s : q->sensitivity)
    EXPECT_GT(s, 0);
  EXPECT_NEAR(q->uniformLoss(4), 1.0, 1e-9);
}
