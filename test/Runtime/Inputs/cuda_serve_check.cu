//===- cuda_serve_check.cu - The CUDA stage backend against the CPU model --===//
//
// Builds a small random LLaMA (GQA, every layer at another width: fp32,
// fp16, 8, 4 and 3 bits; a 4-bit classifier), splits it into two pipeline
// stages run by two CudaBackends (hidden states handed over through host
// memory, as the serving library does), and compares the logits of a
// prefill micro-batch of two sequences (cuBLAS paths) and of decode
// micro-batches (GEMV paths) with LlamaSession on the CPU. Also checks the
// byte accounting and that bad input is reported, not fatal. Prints
// "all N CUDA serve checks passed"; exits non-zero on a mismatch.
//
//===----------------------------------------------------------------------===//
#include "weft_rt_cpu.h"
#include "weft_rt_serve_backend.h"
#include "weft_rt_stage_file.h"

#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

namespace rt = weft::rt;
namespace serve = weft::rt::serve;

static int failures = 0, checks = 0;

static void expect(bool ok, const std::string &what) {
  ++checks;
  std::printf("%s %s\n", ok ? "ok" : "FAIL", what.c_str());
  if (!ok)
    ++failures;
}

static void compare(const std::string &name, const float *got,
                    const float *want, size_t n, double tolerance) {
  double err = 0, scale = 1e-30;
  for (size_t i = 0; i < n; ++i) {
    double d = std::fabs(double(got[i]) - want[i]);
    err = std::isnan(d) ? INFINITY : std::fmax(err, d);
    scale = std::fmax(scale, std::fabs(double(want[i])));
  }
  expect(err <= tolerance * scale,
         name + ": max error " + std::to_string(err) + " (scale " +
             std::to_string(scale) + ")");
}

static void fill(std::vector<float> &v, size_t n, float stddev,
                 std::mt19937 &gen) {
  std::normal_distribution<float> dist(0.0f, stddev);
  v.resize(n);
  for (float &x : v)
    x = dist(gen);
}

static rt::LlamaWeights randomWeights(const rt::LlamaConfig &c) {
  std::mt19937 gen(7);
  rt::LlamaWeights w;
  w.config = c;
  const size_t D = c.dim, KV = c.kvDim(), H = c.hiddenDim, L = c.layers;
  fill(w.tokenEmbedding, c.vocabSize * D, 1.0f, gen);
  // The backend stores the embedding as fp16: round the reference's too.
  for (float &x : w.tokenEmbedding)
    x = rt::halfToFloat(rt::floatToHalf(x));
  fill(w.rmsAtt, L * D, 0.2f, gen);
  fill(w.rmsFfn, L * D, 0.2f, gen);
  for (float &x : w.rmsAtt)
    x += 1.0f;
  for (float &x : w.rmsFfn)
    x += 1.0f;
  float s = 1.0f / std::sqrt(float(D));
  fill(w.wq, L * D * D, s, gen);
  fill(w.wk, L * KV * D, s, gen);
  fill(w.wv, L * KV * D, s, gen);
  fill(w.wo, L * D * D, s, gen);
  fill(w.w1, L * H * D, s, gen);
  fill(w.w3, L * H * D, s, gen);
  fill(w.w2, L * D * H, 1.0f / std::sqrt(float(H)), gen);
  fill(w.rmsFinal, D, 0.2f, gen);
  for (float &x : w.rmsFinal)
    x += 1.0f;
  fill(w.wcls, c.vocabSize * D, s, gen);
  return w;
}

/// Stage weights of layers [first, end) of an already converted model.
static rt::StageWeights stageOf(const rt::LlamaModel &model, int first,
                                int end) {
  const rt::LlamaConfig &c = model.config;
  rt::StageWeights s;
  s.config = c;
  s.spec.stage = first == 0 ? 0 : 1;
  s.spec.numStages = 2;
  s.spec.firstLayer = first;
  s.spec.endLayer = end;
  s.spec.hasEmbedding = first == 0;
  s.spec.hasHead = end == c.layers;
  if (s.spec.hasEmbedding) {
    s.embeddingF16.resize(model.tokenEmbedding.size());
    rt::floatToHalfArray(model.tokenEmbedding.data(), s.embeddingF16.data(),
                         model.tokenEmbedding.size());
  }
  s.layers.assign(model.layers.begin() + first, model.layers.begin() + end);
  if (s.spec.hasHead) {
    s.rmsFinal = model.rmsFinal;
    s.classifier = model.classifier;
  }
  return s;
}

static int64_t expectedWeightBytes(const rt::StageWeights &s) {
  int64_t bytes = int64_t(s.embeddingF16.size()) * 2 +
                  int64_t(s.rmsFinal.size()) * 4 +
                  s.classifier.storageBytes();
  for (const rt::LlamaLayer &l : s.layers)
    bytes += l.storageBytes();
  return bytes;
}

int main() {
  rt::LlamaConfig c;
  c.dim = 64;
  c.hiddenDim = 160;
  c.layers = 5;
  c.heads = 4;
  c.kvHeads = 2; // GQA
  c.vocabSize = 96;
  c.seqLen = 64;
  const std::vector<int> bits = {32, 16, 8, 4, 3};
  const int classifierBits = 4, group = 32, maxSeqs = 2, context = 32,
            maxRows = 12, V = c.vocabSize;

  rt::LlamaWeights weights = randomWeights(c);
  rt::LlamaModel model;
  std::string error;
  if (!rt::buildLlamaModel(weights, bits, classifierBits, group, model,
                           &error)) {
    std::printf("FAIL buildLlamaModel: %s\n", error.c_str());
    return 1;
  }

  // Two stages: layers [0, 2) with the embedding, [2, 5) with the head.
  rt::StageWeights w0 = stageOf(model, 0, 2), w1 = stageOf(model, 2, 5);
  const int64_t bytes0 = expectedWeightBytes(w0),
                bytes1 = expectedWeightBytes(w1);
  std::unique_ptr<serve::Backend> s0 = serve::makeBackend(),
                                  s1 = serve::makeBackend();
  expect(std::string(s0->name()) == "cuda", "name() is cuda");
  bool ok0 = s0->init(w0, maxSeqs, context, maxRows, &error);
  expect(ok0, "stage 0 init " + error);
  bool ok1 = s1->init(w1, maxSeqs, context, maxRows, &error);
  expect(ok1, "stage 1 init " + error);
  if (!ok0 || !ok1)
    return 1;
  expect(s0->weightBytes() == bytes0 && s1->weightBytes() == bytes1,
         "weight bytes " + std::to_string(s0->weightBytes()) + " and " +
             std::to_string(s1->weightBytes()) + " match the stored " +
             std::to_string(bytes0) + " and " + std::to_string(bytes1));
  const int64_t kv = [&](int layers) {
    return 2 * int64_t(maxSeqs) * layers * context * c.kvDim() * 4;
  }(2);
  expect(s0->kvCacheBytes() == kv &&
             s1->kvCacheBytes() == kv / 2 * 3,
         "KV cache bytes");
  expect(s0->activationBytes() > 0 && s1->activationBytes() > 0,
         "activation bytes counted");

  // CPU reference: one session per sequence.
  rt::LlamaSession ref0(model, maxRows, context), ref1(model, maxRows, context);
  const std::vector<int> prompt0 = {3, 17, 42, 5, 88, 60},
                         prompt1 = {9, 71, 30};
  std::vector<float> want0(prompt0.size() * V), want1(prompt1.size() * V);
  if (!ref0.forward(prompt0.data(), int(prompt0.size()), want0.data(),
                    &error) ||
      !ref1.forward(prompt1.data(), int(prompt1.size()), want1.data(),
                    &error)) {
    std::printf("FAIL reference: %s\n", error.c_str());
    return 1;
  }

  // Runs one micro-batch through both stages; logits of every row.
  auto step = [&](const std::vector<serve::SeqRows> &spans,
                  const std::vector<int> &tokens) {
    int rows = int(tokens.size());
    std::vector<float> hidden(size_t(rows) * c.dim), logits(size_t(rows) * V);
    s0->begin(spans.data(), int(spans.size()));
    s0->embed(tokens.data());
    for (int l = 0; l < 2; ++l)
      s0->decoderLayer(l);
    s0->getHidden(hidden.data());
    s1->begin(spans.data(), int(spans.size()));
    s1->setHidden(hidden.data());
    for (int l = 2; l < 5; ++l)
      s1->decoderLayer(l);
    s1->finalNorm();
    std::vector<int> all(rows);
    for (int r = 0; r < rows; ++r)
      all[r] = r;
    s1->lmHead(all.data(), rows, logits.data());
    return logits;
  };
  auto noErrors = [&](const char *when) {
    expect(s0->error().empty() && s1->error().empty(),
           std::string("no CUDA errors ") + when + " " + s0->error() +
               s1->error());
  };

  // Prefill: 9 rows, two sequences (dequantize + cuBLAS paths).
  std::vector<int> tokens = prompt0;
  tokens.insert(tokens.end(), prompt1.begin(), prompt1.end());
  std::vector<float> got = step({{0, 0, 6}, {1, 0, 3}}, tokens);
  noErrors("after prefill");
  const double tol = 3e-2; // fp16 activations in the cuBLAS paths
  compare("prefill sequence 0 logits", got.data(), want0.data(), want0.size(),
          tol);
  compare("prefill sequence 1 logits", got.data() + want0.size(),
          want1.data(), want1.size(), tol);

  // lmHead on a subset of rows, in another order.
  {
    std::vector<float> two(2 * V);
    const int rows[2] = {8, 5};
    s1->lmHead(rows, 2, two.data());
    compare("lmHead rows {8, 5}", two.data(), got.data() + 8 * V, V, 1e-5);
    compare("lmHead rows {8, 5} (second)", two.data() + V, got.data() + 5 * V,
            V, 1e-5);
  }

  // Decode: both sequences (2 rows, GEMV paths), then sequence 1 alone.
  // Same tolerance: the caches hold keys and values of the fp16 prefill.
  std::vector<float> wantA(V), wantB(V);
  int next0 = 11, next1 = 23;
  ref0.forward(&next0, 1, wantA.data(), &error);
  ref1.forward(&next1, 1, wantB.data(), &error);
  got = step({{0, 6, 1}, {1, 3, 1}}, {next0, next1});
  noErrors("after decode");
  compare("decode sequence 0 logits", got.data(), wantA.data(), V, tol);
  compare("decode sequence 1 logits", got.data() + V, wantB.data(), V, tol);
  int next2 = 54;
  ref1.forward(&next2, 1, wantB.data(), &error);
  got = step({{1, 4, 1}}, {next2});
  compare("decode sequence 1 alone", got.data(), wantB.data(), V, tol);
  noErrors("after the second decode");

  // Bad input is reported, not fatal.
  {
    std::unique_ptr<serve::Backend> b = serve::makeBackend();
    rt::LlamaModel two;
    std::vector<int> twoBits(c.layers, 2);
    bool built = rt::buildLlamaModel(weights, twoBits, 16, group, two, &error);
    std::string why;
    bool ok = built && b->init(stageOf(two, 0, 5), 1, context, 4, &why);
    expect(built && !ok && why.find("2-bit") != std::string::npos,
           "2-bit weights rejected: " + why);
  }
  {
    std::unique_ptr<serve::Backend> b = serve::makeBackend();
    std::string why;
    bool ok = b->init(stageOf(model, 0, 5), 1, 1 << 20, 4, &why);
    expect(!ok && why.find("attention") != std::string::npos,
           "overlong context rejected: " + why);
  }
  {
    std::unique_ptr<serve::Backend> b = serve::makeBackend();
    std::string why;
    bool ok = b->init(stageOf(model, 0, 5), 1, context, 4, &why);
    const serve::SeqRows span = {0, 0, 1};
    const int bad = V + 5;
    b->begin(&span, 1);
    b->embed(&bad);
    expect(ok && b->error().find("outside the vocabulary") != std::string::npos,
           "bad token id reported: " + b->error());
  }

  if (failures) {
    std::printf("%d of %d CUDA serve checks failed\n", failures, checks);
    return 1;
  }
  std::printf("all %d CUDA serve checks passed\n", checks);
  return 0;
}
