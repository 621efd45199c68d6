//===- StageFileTest.cpp - Stage weight files and the batched layer -------===//
#include "TinyLlama.h"
#include "weft_rt_half.h"
#include "weft_rt_llama.h"
#include "weft_rt_stage_file.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <unistd.h>

using namespace weft::rt;
using namespace weft::rt::test;

namespace {
std::string stageTempPath(const std::string &name) {
  return ::testing::TempDir() + "/weft_stage_" + std::to_string(getpid()) +
         "_" + name;
}

StageFileSpec specFor(const LlamaConfig &c, int stage, int numStages,
                      int first, int end, int bits, int ffnBits) {
  StageFileSpec s;
  s.model = "tiny";
  s.stage = stage;
  s.numStages = numStages;
  s.firstLayer = first;
  s.endLayer = end;
  s.hasEmbedding = stage == 0;
  s.hasHead = stage == numStages - 1;
  s.attnBits.assign(size_t(end - first), bits);
  s.ffnBits.assign(size_t(end - first), ffnBits);
  s.headBits = bits;
  (void)c;
  return s;
}

/// Each Linear read back equals makeLinear of the same weights.
void expectSameLinear(const Linear &a, const Linear &b) {
  EXPECT_EQ(a.rows, b.rows);
  EXPECT_EQ(a.cols, b.cols);
  EXPECT_EQ(a.bits, b.bits);
  EXPECT_EQ(a.f32, b.f32);
  EXPECT_EQ(a.f16, b.f16);
  EXPECT_EQ(a.quant.codes, b.quant.codes);
  EXPECT_EQ(a.quant.scales, b.quant.scales);
  EXPECT_EQ(a.quant.zeros, b.quant.zeros);
  EXPECT_EQ(a.quant.groupSize, b.quant.groupSize);
}

std::vector<char> readAll(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<char>(std::istreambuf_iterator<char>(in), {});
}
void writeAll(const std::string &path, const std::vector<char> &bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(bytes.data(), std::streamsize(bytes.size()));
}
} // namespace

class StageFileBits : public ::testing::TestWithParam<int> {};

TEST_P(StageFileBits, RoundTripMatchesBuildLlamaModel) {
  const int bits = GetParam();
  // Untied, GQA, dim not a multiple of the group size.
  LlamaWeights w = randomLlama(llamaConfig(40, 96, 3, 4, 2, 50, 32, false), 7);
  LlamaModel model;
  std::string error;
  ASSERT_TRUE(buildLlamaModel(w, {bits, bits, bits}, bits, kDefaultGroupSize,
                              model, &error))
      << error;
  // Two stages: layers [0, 2) with the embedding, [2, 3) with the head.
  for (int stage = 0; stage < 2; ++stage) {
    int first = stage ? 2 : 0, end = stage ? 3 : 2;
    StageFileSpec spec = specFor(w.config, stage, 2, first, end, bits, bits);
    std::string path = stageTempPath("rt" + std::to_string(bits));
    ASSERT_TRUE(writeStageFile(path, w, spec, &error)) << error;
    StageWeights got;
    ASSERT_TRUE(readStageFile(path, got, &error)) << error;
    std::remove(path.c_str());
    EXPECT_EQ(got.spec.model, "tiny");
    EXPECT_EQ(got.spec.stage, stage);
    EXPECT_EQ(got.spec.firstLayer, first);
    EXPECT_EQ(got.spec.endLayer, end);
    EXPECT_EQ(got.spec.attnBits, spec.attnBits);
    EXPECT_EQ(got.config.dim, 40);
    EXPECT_FALSE(got.config.tiedClassifier);
    ASSERT_EQ(int(got.layers.size()), end - first);
    for (int l = first; l < end; ++l) {
      const LlamaLayer &a = got.layers[l - first], &b = model.layers[l];
      EXPECT_EQ(a.rmsAtt, b.rmsAtt);
      EXPECT_EQ(a.rmsFfn, b.rmsFfn);
      for (auto [x, y] : {std::pair{&a.wq, &b.wq}, {&a.wk, &b.wk},
                          {&a.wv, &b.wv}, {&a.wo, &b.wo}, {&a.w1, &b.w1},
                          {&a.w2, &b.w2}, {&a.w3, &b.w3}})
        expectSameLinear(*x, *y);
    }
    if (stage == 0) {
      ASSERT_EQ(got.embeddingF16.size(), w.tokenEmbedding.size());
      for (size_t i = 0; i < w.tokenEmbedding.size(); i += 97)
        EXPECT_EQ(got.embeddingF16[i], floatToHalf(w.tokenEmbedding[i]));
      EXPECT_TRUE(got.rmsFinal.empty());
    } else {
      EXPECT_TRUE(got.embeddingF16.empty());
      EXPECT_EQ(got.rmsFinal, model.rmsFinal);
      expectSameLinear(got.classifier, model.classifier);
    }
    int64_t expected = int64_t(got.embeddingF16.size()) * 2 +
                       int64_t(got.rmsFinal.size()) * 4 +
                       got.classifier.storageBytes();
    for (const LlamaLayer &l : got.layers)
      expected += l.storageBytes();
    EXPECT_EQ(got.storageBytes(), expected);
  }
}

INSTANTIATE_TEST_SUITE_P(Widths, StageFileBits, ::testing::Values(16, 8, 4, 3));

TEST(StageFile, TiedClassifierIsTheQuantizedEmbedding) {
  LlamaWeights w = randomLlama(llamaConfig(32, 64, 1, 4, 4, 30, 16), 3);
  StageFileSpec spec = specFor(w.config, 0, 1, 0, 1, 8, 4);
  spec.headBits = 16;
  std::string path = stageTempPath("tied"), error;
  ASSERT_TRUE(writeStageFile(path, w, spec, &error)) << error;
  StageWeights got;
  ASSERT_TRUE(readStageFile(path, got, &error)) << error;
  std::remove(path.c_str());
  EXPECT_EQ(got.layers[0].wq.bits, 8);
  EXPECT_EQ(got.layers[0].w1.bits, 4);
  ASSERT_EQ(got.classifier.bits, 16);
  EXPECT_EQ(got.classifier.f16, got.embeddingF16);
}

TEST(StageFile, BadSpecsAreRejected) {
  LlamaWeights w = randomLlama(llamaConfig(32, 64, 2, 4, 4, 30, 16), 3);
  std::string path = stageTempPath("bad"), error;
  StageFileSpec spec = specFor(w.config, 0, 1, 0, 3, 8, 8);
  EXPECT_FALSE(writeStageFile(path, w, spec, &error));
  EXPECT_NE(error.find("layer range"), std::string::npos) << error;
  spec = specFor(w.config, 0, 1, 0, 2, 8, 8);
  spec.ffnBits.pop_back();
  EXPECT_FALSE(writeStageFile(path, w, spec, &error));
  EXPECT_NE(error.find("bit widths"), std::string::npos) << error;
  spec = specFor(w.config, 0, 1, 0, 2, 9, 8);
  EXPECT_FALSE(writeStageFile(path, w, spec, &error));
  EXPECT_NE(error.find("unsupported bit width 9"), std::string::npos) << error;
  spec = specFor(w.config, 2, 2, 0, 2, 8, 8);
  EXPECT_FALSE(writeStageFile(path, w, spec, &error));
  EXPECT_NE(error.find("stage 2"), std::string::npos) << error;
  // Nothing is left behind by a refused write.
  EXPECT_FALSE(std::ifstream(path).good());
  EXPECT_FALSE(std::ifstream(path + ".tmp").good());
}

// The writer asks for each tensor of its stage once, holds one at a time,
// and writes what the in-memory path writes; a tensor the reader refuses
// ends the write with the reader's error and leaves nothing behind.
TEST(StageFile, StreamsOneTensorAtATime) {
  LlamaWeights w = randomLlama(llamaConfig(32, 64, 4, 4, 2, 30, 16), 9);
  const LlamaConfig &c = w.config;
  std::string error;
  StageFileSpec spec = specFor(c, 1, 3, 1, 3, 4, 8);
  const std::string expected = stageTempPath("stream-expected");
  ASSERT_TRUE(writeStageFile(expected, w, spec, &error)) << error;

  std::vector<std::pair<Tensor, int>> asked;
  size_t largestHeld = 0;
  auto fromMemory = [&](Tensor t, int layer, std::vector<float> &out,
                        std::string *) {
    asked.push_back({t, layer});
    const std::vector<float> &all = stackedArray(w, t);
    const size_t n = size_t(tensorShape(c, t).elements());
    const size_t first = isPerLayer(t) ? size_t(layer) * n : 0;
    out.assign(all.begin() + first, all.begin() + first + n);
    largestHeld = std::max(largestHeld, out.size());
    return true;
  };
  const std::string path = stageTempPath("stream");
  ASSERT_TRUE(writeStageFile(path, c, fromMemory, spec, &error)) << error;
  EXPECT_EQ(readAll(path), readAll(expected));
  // A middle stage: layers 1 and 2 only, nine tensors each, in file order.
  const Tensor order[] = {Tensor::AttnNorm, Tensor::Wq, Tensor::Wk,
                          Tensor::Wv,       Tensor::Wo, Tensor::FfnNorm,
                          Tensor::W1,       Tensor::W2, Tensor::W3};
  ASSERT_EQ(asked.size(), 18u);
  for (size_t i = 0; i < asked.size(); ++i) {
    EXPECT_EQ(asked[i].first, order[i % 9]) << i;
    EXPECT_EQ(asked[i].second, 1 + int(i / 9)) << i;
  }
  EXPECT_EQ(largestHeld, size_t(c.hiddenDim * c.dim));

  // The last stage reads the tied classifier from the embedding.
  asked.clear();
  spec = specFor(c, 2, 3, 3, 4, 8, 8);
  ASSERT_TRUE(writeStageFile(path, c, fromMemory, spec, &error)) << error;
  EXPECT_EQ(asked.back().first, Tensor::TokenEmbedding);

  auto failsAtW2 = [&](Tensor t, int layer, std::vector<float> &out,
                       std::string *e) {
    if (t == Tensor::W2) {
      *e = "checkpoint.bin: w2 is not finite";
      return false;
    }
    return fromMemory(t, layer, out, e);
  };
  std::remove(path.c_str());
  EXPECT_FALSE(writeStageFile(path, c, failsAtW2, spec, &error));
  EXPECT_EQ(error, "checkpoint.bin: w2 is not finite");
  EXPECT_FALSE(std::ifstream(path).good());
  EXPECT_FALSE(std::ifstream(path + ".tmp").good());
  std::remove(expected.c_str());
}

TEST(StageFile, DamagedFilesAreErrorsNotCrashes) {
  LlamaWeights w = randomLlama(llamaConfig(32, 64, 2, 4, 2, 30, 16), 5);
  std::string path = stageTempPath("damaged"), error;
  StageFileSpec spec = specFor(w.config, 0, 1, 0, 2, 4, 4);
  ASSERT_TRUE(writeStageFile(path, w, spec, &error)) << error;
  const std::vector<char> good = readAll(path);
  StageWeights got;

  EXPECT_FALSE(readStageFile(path + ".missing", got, &error));
  EXPECT_NE(error.find("cannot open"), std::string::npos) << error;

  // Every truncation is refused (by the checksum, or the header checks).
  for (size_t n : {size_t(0), size_t(5), size_t(10), size_t(40), good.size() / 2,
                   good.size() - 1}) {
    writeAll(path, std::vector<char>(good.begin(), good.begin() + n));
    EXPECT_FALSE(readStageFile(path, got, &error)) << n;
    EXPECT_EQ(error.rfind(path + ": ", 0), 0u) << error;
  }
  std::vector<char> bad = good;
  bad[0] = 'X';
  writeAll(path, bad);
  EXPECT_FALSE(readStageFile(path, got, &error));
  EXPECT_NE(error.find("magic"), std::string::npos) << error;
  bad = good;
  bad[8] = 9;
  writeAll(path, bad);
  EXPECT_FALSE(readStageFile(path, got, &error));
  EXPECT_NE(error.find("version 9"), std::string::npos) << error;
  bad = good;
  bad[good.size() / 2] ^= 0x40;
  writeAll(path, bad);
  EXPECT_FALSE(readStageFile(path, got, &error));
  EXPECT_NE(error.find("checksum"), std::string::npos) << error;
  // Extra bytes after the trailer break the checksum too.
  bad = good;
  bad.push_back(0);
  writeAll(path, bad);
  EXPECT_FALSE(readStageFile(path, got, &error));
  std::remove(path.c_str());
}

TEST(BatchedDecoderLayer, EqualsTheLayerRunPerSequence) {
  const LlamaConfig c = llamaConfig(48, 128, 1, 6, 2, 20, 32);
  LlamaWeights w = randomLlama(c, 11);
  for (int bits : {32, 4}) {
    LlamaModel model;
    std::string error;
    ASSERT_TRUE(buildLlamaModel(w, {bits}, 16, kDefaultGroupSize, model,
                                &error))
        << error;
    const LlamaLayer &layer = model.layers[0];
    const size_t cache = size_t(c.seqLen) * c.kvDim();
    // Three sequences with different histories, then a mixed micro-batch:
    // seq 0 decodes one token, seq 1 prefills 5, seq 2 continues with 3.
    const int past[3] = {6, 0, 4}, rows[3] = {1, 5, 3};
    std::vector<std::vector<float>> kRef(3, std::vector<float>(cache)),
        vRef = kRef, kBat = kRef, vBat = kRef;
    LlamaScratch scratch(c, 16);
    for (int s = 0; s < 3; ++s)
      if (past[s] > 0) {
        std::vector<float> h = randomVector(size_t(past[s]) * c.dim, 100 + s);
        llamaDecoderLayer(c, layer, h.data(), past[s], 0, kRef[s].data(),
                          vRef[s].data(), scratch);
        kBat[s] = kRef[s];
        vBat[s] = vRef[s];
      }
    std::vector<float> x = randomVector(size_t(9) * c.dim, 200);
    std::vector<float> expected = x;
    std::vector<LlamaSeqSpan> spans;
    int row = 0;
    for (int s = 0; s < 3; ++s) {
      llamaDecoderLayer(c, layer, expected.data() + size_t(row) * c.dim,
                        rows[s], past[s], kRef[s].data(), vRef[s].data(),
                        scratch);
      spans.push_back({rows[s], past[s], kBat[s].data(), vBat[s].data()});
      row += rows[s];
    }
    llamaDecoderLayerBatched(c, layer, x.data(), spans.data(),
                             int(spans.size()), scratch);
    EXPECT_LT(maxRelError(x, expected), 1e-5) << bits << " bits";
    for (int s = 0; s < 3; ++s) {
      EXPECT_LT(maxRelError(kBat[s], kRef[s]), 1e-5) << s;
      EXPECT_LT(maxRelError(vBat[s], vRef[s]), 1e-5) << s;
    }
  }
}
