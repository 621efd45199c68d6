//===- LlamaForwardTest.cpp - Runtime LLaMA vs the independent reference --===//
#include "ReferenceLlama.h"
#include "TinyLlama.h"
#include "weft_rt_llama.h"
#include "weft_rt_sample.h"

#include <gtest/gtest.h>

using namespace weft::rt;
using namespace weft::rt::test;

namespace {
struct Generation {
  std::vector<int> tokens;                ///< prompt + generated
  std::vector<std::vector<float>> logits; ///< one row per position
};

/// Reference: one token at a time; greedy continuation of `prompt`.
Generation referenceGreedy(ReferenceLlama &ref, const std::vector<int> &prompt,
                           int newTokens) {
  ref.reset();
  Generation run{prompt, {}};
  size_t total = prompt.size() + newTokens;
  for (size_t i = 0; i + 1 < total; ++i) { // the last token is never fed
    run.logits.push_back(ref.step(run.tokens[i]));
    if (i + 1 == run.tokens.size())
      run.tokens.push_back(argmax(run.logits.back().data(), ref.vocabSize()));
  }
  return run;
}

/// Runtime: the prompt in one prefill call, then one decode call per token.
Generation runtimeGreedy(const LlamaModel &model,
                         const std::vector<int> &prompt, int newTokens) {
  int vocab = model.config.vocabSize, n = int(prompt.size());
  LlamaSession session(model, n);
  std::vector<float> logits(size_t(n) * vocab);
  std::string error;
  EXPECT_TRUE(session.forward(prompt.data(), n, logits.data(), &error))
      << error;
  Generation run{prompt, {}};
  for (int t = 0; t < n; ++t)
    run.logits.emplace_back(logits.begin() + size_t(t) * vocab,
                            logits.begin() + size_t(t + 1) * vocab);
  for (int i = 0; i < newTokens; ++i) {
    int next = argmax(run.logits.back().data(), vocab);
    run.tokens.push_back(next);
    if (i + 1 == newTokens)
      break;
    EXPECT_TRUE(session.forward(&next, 1, logits.data(), &error)) << error;
    run.logits.emplace_back(logits.begin(), logits.begin() + vocab);
  }
  return run;
}

double worstRelError(const Generation &a, const Generation &b) {
  double worst = 0;
  for (size_t i = 0; i < a.logits.size() && i < b.logits.size(); ++i)
    worst = std::fmax(worst, maxRelError(a.logits[i], b.logits[i]));
  return a.logits.size() == b.logits.size() ? worst : INFINITY;
}

/// Mean over positions of KL(softmax(p) || softmax(q)).
double meanKL(const Generation &ref, const std::vector<float> &logits,
              int vocab) {
  double total = 0;
  for (size_t t = 0; t < ref.logits.size(); ++t) {
    auto logSoftmax = [&](const float *z) {
      double maxZ = z[0], sum = 0;
      for (int i = 1; i < vocab; ++i)
        maxZ = std::fmax(maxZ, z[i]);
      for (int i = 0; i < vocab; ++i)
        sum += std::exp(z[i] - maxZ);
      std::vector<double> out(vocab);
      for (int i = 0; i < vocab; ++i)
        out[i] = z[i] - maxZ - std::log(sum);
      return out;
    };
    auto lp = logSoftmax(ref.logits[t].data());
    auto lq = logSoftmax(&logits[t * vocab]);
    for (int i = 0; i < vocab; ++i)
      total += std::exp(lp[i]) * (lp[i] - lq[i]);
  }
  return total / ref.logits.size();
}

LlamaModel buildUniform(const LlamaWeights &w, int bits) {
  LlamaModel model;
  std::string error;
  EXPECT_TRUE(buildLlamaModel(w, std::vector<int>(w.config.layers, bits), 32,
                              32, model, &error))
      << error;
  return model;
}
} // namespace

// Generated models: GQA and plain MHA, tied and untied heads, hidden sizes
// that no block size divides.
TEST(LlamaForward, GeneratedModelsMatchReference) {
  struct Shape {
    int dim, hidden, layers, heads, kvHeads, vocab;
    bool tied;
  };
  for (Shape s :
       {Shape{16, 23, 2, 4, 2, 37, true}, Shape{24, 40, 3, 3, 3, 50, false},
        Shape{32, 72, 1, 8, 1, 64, true}}) {
    LlamaConfig c = llamaConfig(s.dim, s.hidden, s.layers, s.heads, s.kvHeads,
                                s.vocab, 32, s.tied);
    LlamaWeights w = randomLlama(c, 60 + s.dim);
    std::string path = tempPath("forward.bin"), error;
    ASSERT_TRUE(writeLlama2c(path, w, &error)) << error;
    ReferenceLlama ref;
    ASSERT_TRUE(ref.load(path, error)) << error;
    std::remove(path.c_str());
    std::vector<int> prompt = {1, 5, 9, 2, 7};
    Generation expected = referenceGreedy(ref, prompt, 8);
    Generation got = runtimeGreedy(buildUniform(w, 32), prompt, 8);
    EXPECT_EQ(got.tokens, expected.tokens) << "dim " << s.dim;
    EXPECT_LT(worstRelError(got, expected), 1e-4) << "dim " << s.dim;
  }
}

TEST(LlamaForward, SessionRejectsBadInput) {
  LlamaConfig c = llamaConfig(8, 8, 1, 2, 1, 10, 4);
  LlamaModel model = buildUniform(randomLlama(c, 70), 32);
  LlamaSession session(model, 2);
  std::vector<float> logits(3 * 10);
  std::string error;
  int bad = 10, toks[3] = {1, 2, 3};
  EXPECT_FALSE(session.forward(&bad, 1, logits.data(), &error));
  EXPECT_NE(error.find("token id 10 is outside"), std::string::npos) << error;
  EXPECT_FALSE(session.forward(toks, 3, logits.data(), &error));
  EXPECT_TRUE(session.forward(toks, 2, logits.data(), &error));
  EXPECT_TRUE(session.forward(toks, 2, logits.data(), &error));
  EXPECT_FALSE(session.forward(toks, 1, logits.data(), &error));
  EXPECT_NE(error.find("context full"), std::string::npos) << error;
  EXPECT_EQ(session.kvCacheBytes(), 2 * 1 * 4 * 4 * 4); // K+V, 4 pos, kvDim 4
  LlamaSession shorter(model, 1, 3);
  EXPECT_EQ(shorter.contextLength(), 3);
  for (int t = 0; t < 3; ++t)
    EXPECT_TRUE(shorter.forward(toks, 1, logits.data(), &error)) << error;
  EXPECT_FALSE(shorter.forward(toks, 1, logits.data(), &error));
  EXPECT_NE(error.find("exceed the context of 3"), std::string::npos) << error;
  LlamaModel other;
  EXPECT_FALSE(
      buildLlamaModel(randomLlama(c, 71), {32, 32}, 32, 32, other, &error));
  EXPECT_NE(error.find("2 layer bit widths for a model with 1"),
            std::string::npos);
}

class Stories260K : public ::testing::Test {
protected:
  void SetUp() override {
    path = storiesPath();
    if (path.empty())
      GTEST_SKIP() << "stories260K.bin not found under ../shared/data/models "
                      "(set WEFT_SHARED_DATA)";
    std::string error;
    ASSERT_TRUE(readCheckpoint(path, weights, &error)) << error;
    ASSERT_TRUE(ref.load(path, error)) << error;
  }
  std::string path;
  LlamaWeights weights;
  ReferenceLlama ref;
  const std::vector<int> prompt = {1, 403, 407, 261};
};

TEST_F(Stories260K, Fp32RuntimeMatchesReference) {
  Generation expected = referenceGreedy(ref, prompt, 16);
  Generation got = runtimeGreedy(buildUniform(weights, 32), prompt, 16);
  ASSERT_EQ(got.tokens.size(), prompt.size() + 16);
  EXPECT_EQ(got.tokens, expected.tokens);
  double err = worstRelError(got, expected);
  std::printf("stories260K fp32: tokens");
  for (int t : got.tokens)
    std::printf(" %d", t);
  std::printf("\nmax relative logit error vs reference: %.3g\n", err);
  EXPECT_LT(err, 1e-4);
}

// Quantized decoder layers (classifier kept fp32) lose quality in the order
// 8 < 4 < 3 bits, measured as KL divergence from the reference on the
// reference's own greedy continuation.
TEST_F(Stories260K, QuantizedKLGrowsAsBitsShrink) {
  Generation expected = referenceGreedy(ref, prompt, 16);
  int vocab = weights.config.vocabSize, n = int(expected.tokens.size()) - 1;
  std::vector<double> kl;
  for (int bits : {16, 8, 4, 3}) {
    LlamaModel model = buildUniform(weights, bits);
    LlamaSession session(model, n);
    std::vector<float> logits(size_t(n) * vocab);
    std::string error;
    ASSERT_TRUE(
        session.forward(expected.tokens.data(), n, logits.data(), &error))
        << error;
    kl.push_back(meanKL(expected, logits, vocab));
    std::printf("stories260K %s (group 32): mean KL from fp32 reference "
                "= %.6f nats, weights %lld bytes\n",
                bits == 16 ? "fp16" : ("int" + std::to_string(bits)).c_str(),
                kl.back(), (long long)model.storageBytes());
  }
  EXPECT_LT(kl[0], kl[1]);
  EXPECT_LT(kl[1], kl[2]);
  EXPECT_LT(kl[2], kl[3]);
  EXPECT_LT(kl[1], 0.1); // 8 bits is close to lossless
}

namespace {
/// The same weights after a quantize -> dequantize round trip, as fp32.
LlamaWeights dequantizedCopy(const LlamaWeights &w, int bits, int group) {
  LlamaWeights out = w;
  const LlamaConfig &c = w.config;
  int D = c.dim, KV = c.kvDim(), H = c.hiddenDim;
  const struct {
    std::vector<float> *data;
    int rows, cols;
  } matrices[] = {{&out.wq, D, D}, {&out.wk, KV, D}, {&out.wv, KV, D},
                  {&out.wo, D, D}, {&out.w1, H, D},  {&out.w2, D, H},
                  {&out.w3, H, D}};
  for (const auto &m : matrices)
    for (int l = 0; l < c.layers; ++l) {
      float *slice = m.data->data() + size_t(l) * m.rows * m.cols;
      QuantMatrix q;
      EXPECT_TRUE(quantizeRTN(slice, m.rows, m.cols, bits, group, q, nullptr));
      dequantizeRows(q.view(), 0, m.rows, slice);
    }
  return out;
}
} // namespace

// The quantized kernels compute exactly what fp32 math on the dequantized
// weights computes: the independent reference run on a dequantized copy.
TEST(LlamaForward, QuantizedModelMatchesReferenceOnDequantizedWeights) {
  LlamaConfig c = llamaConfig(48, 100, 2, 6, 2, 40, 16);
  LlamaWeights w = randomLlama(c, 80);
  for (int bits : {8, 4, 3}) {
    std::string path = tempPath("dequantized.bin"), error;
    ASSERT_TRUE(writeLlama2c(path, dequantizedCopy(w, bits, 32), &error))
        << error;
    ReferenceLlama ref;
    ASSERT_TRUE(ref.load(path, error)) << error;
    std::remove(path.c_str());
    std::vector<int> prompt = {3, 1, 4, 1, 5, 9};
    Generation expected = referenceGreedy(ref, prompt, 6);
    Generation got = runtimeGreedy(buildUniform(w, bits), prompt, 6);
    EXPECT_EQ(got.tokens, expected.tokens) << "bits " << bits;
    EXPECT_LT(worstRelError(got, expected), 1e-4) << "bits " << bits;
  }
}
