//===- OptForwardTest.cpp - OPT layers, stage files and HF reading --------===//
//
// The runtime's OPT composition (weft_rt_opt.h, through the stage file and
// the batched layer the CPU serving backend runs) against the independent
// fp32 reference (ReferenceOpt), on a random OPT with odd sizes.
//
//===----------------------------------------------------------------------===//
#include "HfWriter.h"
#include "ReferenceOpt.h"
#include "TinyLlama.h"
#include "weft_rt_checkpoint.h"
#include "weft_rt_half.h"
#include "weft_rt_norm.h"
#include "weft_rt_opt.h"
#include "weft_rt_stage_file.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

using namespace weft::rt;
using namespace weft::rt::test;

namespace {
std::string tempDir(const std::string &name) {
  std::string dir = ::testing::TempDir() + "/weft_opt_" +
                    std::to_string(getpid()) + "_" + name;
  std::filesystem::create_directories(dir);
  return dir;
}

StageFileSpec wholeModel(const LlamaConfig &c, int bits) {
  StageFileSpec s;
  s.model = "opt";
  s.endLayer = c.layers;
  s.hasEmbedding = s.hasHead = true;
  s.attnBits.assign(size_t(c.layers), bits);
  s.ffnBits = s.attnBits;
  s.headBits = bits;
  return s;
}

/// Runs one micro-batch of sequences through a whole-model stage as the CPU
/// backend does: embedding + positions, batched layers, final LayerNorm,
/// classifier on every row. caches[seq] holds [layer][2][context][dim].
std::vector<float> runBatch(const StageWeights &w,
                            const std::vector<std::vector<int>> &tokens,
                            const std::vector<int> &positions,
                            std::vector<std::vector<float>> &caches,
                            int context) {
  const LlamaConfig &c = w.config;
  const int D = c.dim;
  int rows = 0;
  for (const auto &t : tokens)
    rows += int(t.size());
  std::vector<float> x(size_t(rows) * D);
  int row = 0;
  for (size_t s = 0; s < tokens.size(); ++s) {
    for (size_t i = 0; i < tokens[s].size(); ++i)
      halfToFloatArray(w.embeddingF16.data() + int64_t(tokens[s][i]) * D,
                       x.data() + int64_t(row + i) * D, size_t(D));
    optAddPositions(c, w.positionEmbeddingF16.data(), positions[s],
                    int(tokens[s].size()), x.data() + int64_t(row) * D);
    row += int(tokens[s].size());
  }
  LlamaScratch scratch(c, rows);
  for (int l = 0; l < c.layers; ++l) {
    std::vector<LlamaSeqSpan> spans;
    for (size_t s = 0; s < tokens.size(); ++s) {
      float *base = caches[s].data() + size_t(l) * 2 * context * D;
      spans.push_back({int(tokens[s].size()), positions[s], base,
                       base + size_t(context) * D});
    }
    llamaDecoderLayerBatched(c, w.layers[l], x.data(), spans.data(),
                             int(spans.size()), scratch);
  }
  layerNorm(x.data(), w.rmsFinal.data(), w.normFinalBias.data(), x.data(),
            rows, D, c.rmsEps);
  std::vector<float> logits(size_t(rows) * c.vocabSize);
  w.classifier.apply(x.data(), logits.data(), rows);
  return logits;
}

float maxAbs(const std::vector<float> &v) {
  float m = 0;
  for (float x : v)
    m = std::fmax(m, std::fabs(x));
  return m;
}

std::string readText(const std::string &path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}
} // namespace

// Two sequences of different lengths share the prefill micro-batch, then
// decode together; every row's logits match the reference's.
TEST(OptForward, BatchedLayersMatchReference) {
  for (bool gelu : {false, true}) {
    LlamaWeights w = randomOpt(40, 72, 3, 5, 61, 64, gelu, 7);
    std::string dir = tempDir(gelu ? "ref_gelu" : "ref_relu");
    writeHfOptDirectory(w, dir);
    LlamaWeights read;
    std::string error;
    ASSERT_TRUE(readCheckpoint(dir, read, &error)) << error;
    EXPECT_EQ(read.config.geluFfn, gelu);
    std::string path = dir + "/stage0.weft";
    ASSERT_TRUE(writeStageFile(path, read, wholeModel(read.config, 32),
                               &error))
        << error;
    StageWeights sw;
    ASSERT_TRUE(readStageFile(path, sw, &error)) << error;

    const std::vector<std::vector<int>> prompts = {{3, 17, 60, 2, 9},
                                                   {44, 1, 5}};
    const int context = 12, D = 40, V = 61;
    std::vector<std::vector<float>> caches(
        2, std::vector<float>(size_t(3) * 2 * context * D));
    std::vector<float> prefill = runBatch(sw, prompts, {0, 0}, caches, context);
    std::vector<float> decode =
        runBatch(sw, {{7}, {30}}, {5, 3}, caches, context);

    int row = 0;
    for (size_t s = 0; s < prompts.size(); ++s) {
      ReferenceOpt ref;
      ASSERT_TRUE(ref.load(dir, error)) << error;
      std::vector<int> seq = prompts[s];
      seq.push_back(s == 0 ? 7 : 30);
      for (size_t i = 0; i < seq.size(); ++i) {
        std::vector<float> want = ref.step(seq[i]);
        const float *got = i + 1 < seq.size()
                               ? prefill.data() + int64_t(row + i) * V
                               : decode.data() + int64_t(s) * V;
        // fp16 embeddings are the only rounding: 1% of the largest logit.
        const float tol = 0.01f * maxAbs(want);
        for (int v = 0; v < V; ++v)
          ASSERT_NEAR(got[v], want[v], tol)
              << "gelu " << gelu << " seq " << s << " token " << i
              << " logit " << v;
      }
      row += int(prompts[s].size());
    }
  }
}

// A split, quantized model: biases, LayerNorm biases and the position table
// come back exactly; what the stage holds is counted in storageBytes.
TEST(OptForward, StageFileRoundTrip) {
  LlamaWeights w = randomOpt(40, 72, 4, 5, 61, 64, false, 3);
  std::string dir = tempDir("round");
  std::string error;
  StageFileSpec first = wholeModel(w.config, 16), last = first;
  first.numStages = last.numStages = 2;
  first.endLayer = last.firstLayer = 1;
  first.hasHead = last.hasEmbedding = false;
  first.attnBits = first.ffnBits = {8};
  last.stage = 1;
  last.attnBits = {4, 16, 3};
  last.ffnBits = {8, 4, 16};
  ASSERT_TRUE(writeStageFile(dir + "/s0", w, first, &error)) << error;
  ASSERT_TRUE(writeStageFile(dir + "/s1", w, last, &error)) << error;
  StageWeights s0, s1;
  ASSERT_TRUE(readStageFile(dir + "/s0", s0, &error)) << error;
  ASSERT_TRUE(readStageFile(dir + "/s1", s1, &error)) << error;
  EXPECT_TRUE(s0.config.isOpt());
  EXPECT_FALSE(s0.config.geluFfn);
  std::vector<uint16_t> pos(w.positionEmbedding.size());
  floatToHalfArray(w.positionEmbedding.data(), pos.data(), pos.size());
  EXPECT_EQ(s0.positionEmbeddingF16, pos);
  EXPECT_TRUE(s1.positionEmbeddingF16.empty());
  EXPECT_EQ(s1.normFinalBias, w.normFinalBias);
  EXPECT_TRUE(s0.normFinalBias.empty());
  const int D = 40, H = 72;
  auto slice = [](const std::vector<float> &v, int l, int n) {
    return std::vector<float>(v.begin() + l * n, v.begin() + (l + 1) * n);
  };
  for (int l = 0; l < 4; ++l) {
    const LlamaLayer &layer = l == 0 ? s0.layers[0] : s1.layers[size_t(l - 1)];
    EXPECT_EQ(layer.normAttBias, slice(w.normAttBias, l, D));
    EXPECT_EQ(layer.normFfnBias, slice(w.normFfnBias, l, D));
    EXPECT_EQ(layer.bq, slice(w.bq, l, D));
    EXPECT_EQ(layer.bk, slice(w.bk, l, D));
    EXPECT_EQ(layer.bv, slice(w.bv, l, D));
    EXPECT_EQ(layer.bo, slice(w.bo, l, D));
    EXPECT_EQ(layer.b1, slice(w.b1, l, H));
    EXPECT_EQ(layer.b2, slice(w.b2, l, D));
    EXPECT_EQ(layer.w3.rows, 0); // OPT has no up projection
  }
  EXPECT_EQ(s1.layers[0].wq.bits, 4);
  EXPECT_EQ(s1.layers[0].w1.bits, 8);
  const LlamaLayer &l0 = s0.layers[0];
  int64_t linears = 0;
  for (const Linear *lin : {&l0.wq, &l0.wk, &l0.wv, &l0.wo, &l0.w1, &l0.w2})
    linears += lin->storageBytes();
  // Norm weights and biases (4 x dim), q/k/v/out/fc2 biases, fc1 bias.
  EXPECT_EQ(l0.storageBytes(), linears + int64_t(4 * D + 5 * D + H) * 4);
  EXPECT_EQ(s0.storageBytes(),
            int64_t(pos.size() + s0.embeddingF16.size()) * 2 +
                l0.storageBytes());

  // Missing OPT arrays are refused by name.
  LlamaWeights broken = w;
  broken.b1.pop_back();
  EXPECT_FALSE(writeStageFile(dir + "/bad", broken, first, &error));
  EXPECT_NE(error.find("fc1 bias"), std::string::npos) << error;
}

// What the runtime does not compose is refused, naming the field.
TEST(OptForward, ReaderRefusals) {
  LlamaWeights w = randomOpt(40, 72, 1, 5, 61, 64, false, 5);
  std::string dir = tempDir("refuse");
  writeHfOptDirectory(w, dir);
  const std::string good = readText(dir + "/config.json");
  const struct {
    std::string from, to, field;
  } cases[] = {
      {"\"do_layer_norm_before\": true", "\"do_layer_norm_before\": false",
       "do_layer_norm_before"},
      {"\"word_embed_proj_dim\": 40", "\"word_embed_proj_dim\": 24",
       "word_embed_proj_dim"},
      {"\"activation_function\": \"relu\"",
       "\"activation_function\": \"silu\"", "activation_function"},
      {"\"enable_bias\": true", "\"enable_bias\": false", "enable_bias"}};
  for (const auto &c : cases) {
    std::string text = good;
    size_t at = text.find(c.from);
    ASSERT_NE(at, std::string::npos) << c.from;
    text.replace(at, c.from.size(), c.to);
    std::ofstream(dir + "/config.json") << text;
    LlamaWeights out;
    std::string error;
    EXPECT_FALSE(readCheckpoint(dir, out, &error)) << c.field;
    EXPECT_NE(error.find(c.field), std::string::npos) << error;
  }
  std::ofstream(dir + "/config.json") << good;
  std::filesystem::remove(dir + "/model-00002-of-00002.safetensors");
  LlamaWeights out;
  std::string error;
  EXPECT_FALSE(readCheckpoint(dir, out, &error));
  EXPECT_NE(error.find("layers.0.self_attn_layer_norm.weight"),
            std::string::npos)
      << error;
}
