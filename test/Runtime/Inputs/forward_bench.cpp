//===- forward_bench.cpp - Tokens/s of the runtime LLaMA vs the reference -===//
//
// Used by bench/runtime-cpu.sh. Decodes N tokens greedily from BOS (best
// of 3 runs) with the independent reference (fp32,
// test/unittests/Runtime/ReferenceLlama.cpp) and with the runtime at fp32,
// fp16, int8, int4 and int3 (all decoder layers; classifier fp32), and times a
// prefill of P tokens in one call.
//
//   forward_bench MODEL.bin [DECODE_TOKENS [PREFILL_TOKENS]]
//   forward_bench --random DIM,HIDDEN,LAYERS,HEADS,KV_HEADS,VOCAB,SEQ [...]
//
//===----------------------------------------------------------------------===//
#include "ReferenceLlama.h"
#include "weft_rt_cpu.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <unistd.h>

using namespace weft::rt;
using Clock = std::chrono::steady_clock;

constexpr int kRepeats = 3;

static double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

static bool randomModel(const char *spec, const std::string &path) {
  LlamaConfig c;
  if (std::sscanf(spec, "%d,%d,%d,%d,%d,%d,%d", &c.dim, &c.hiddenDim, &c.layers,
                  &c.heads, &c.kvHeads, &c.vocabSize, &c.seqLen) != 7) {
    std::fprintf(stderr, "bad --random spec '%s'\n", spec);
    return false;
  }
  LlamaWeights w;
  w.config = c;
  std::mt19937 gen(1);
  auto fill = [&](std::vector<float> &v, size_t n, float scale, float bias) {
    std::normal_distribution<float> dist(bias, scale);
    v.resize(n);
    for (float &x : v)
      x = dist(gen);
  };
  size_t L = c.layers, D = c.dim, H = c.hiddenDim, KV = c.kvDim();
  float s = 1.0f / std::sqrt(float(D));
  fill(w.tokenEmbedding, c.vocabSize * D, 1.0f, 0.0f);
  fill(w.rmsAtt, L * D, 0.1f, 1.0f);
  fill(w.rmsFfn, L * D, 0.1f, 1.0f);
  fill(w.rmsFinal, D, 0.1f, 1.0f);
  fill(w.wq, L * D * D, s, 0.0f);
  fill(w.wk, L * KV * D, s, 0.0f);
  fill(w.wv, L * KV * D, s, 0.0f);
  fill(w.wo, L * D * D, s, 0.0f);
  fill(w.w1, L * H * D, s, 0.0f);
  fill(w.w2, L * D * H, 1.0f / std::sqrt(float(H)), 0.0f);
  fill(w.w3, L * H * D, s, 0.0f);
  w.wcls = w.tokenEmbedding;
  std::string error;
  if (!writeLlama2c(path, w, &error)) {
    std::fprintf(stderr, "%s\n", error.c_str());
    return false;
  }
  return true;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr,
                 "usage: %s MODEL.bin|--random SPEC [DECODE [PREFILL]]\n",
                 argv[0]);
    return 2;
  }
  std::string path = argv[1];
  int arg = 2;
  if (path == "--random") {
    if (argc < 3)
      return 2;
    path = "/tmp/weft-forward-bench-" + std::to_string(getpid()) + ".bin";
    if (!randomModel(argv[2], path))
      return 1;
    arg = 3;
  }
  int decode = argc > arg ? std::atoi(argv[arg]) : 128;
  int prefill = argc > arg + 1 ? std::atoi(argv[arg + 1]) : 64;
  LlamaWeights weights;
  std::string error;
  if (!readCheckpoint(path, weights, &error)) {
    std::fprintf(stderr, "%s\n", error.c_str());
    return 1;
  }
  const LlamaConfig &c = weights.config;
  decode = std::min(decode, c.seqLen - 1);
  prefill = std::min(prefill, c.seqLen);
  std::printf("model dim %d hidden %d layers %d heads %d/%d vocab %d; "
              "%d threads; decode %d tokens, prefill %d tokens\n",
              c.dim, c.hiddenDim, c.layers, c.heads, c.kvHeads, c.vocabSize,
              maxThreads(), decode, prefill);

  weft::rt::test::ReferenceLlama ref;
  if (!ref.load(path, error)) {
    std::fprintf(stderr, "%s\n", error.c_str());
    return 1;
  }
  if (argv[1] == std::string("--random"))
    std::remove(path.c_str());
  // Best of kRepeats runs: the machine is shared, the minimum is the least
  // disturbed measurement.
  auto bestRate = [&](int tokens, auto &&run) {
    double best = 0;
    for (int rep = 0; rep < kRepeats; ++rep) {
      auto start = Clock::now();
      run();
      best = std::max(best, tokens / secondsSince(start));
    }
    return best;
  };
  double refRate = bestRate(decode, [&] {
    ref.reset();
    int token = 1;
    for (int i = 0; i < decode; ++i) {
      std::vector<float> logits = ref.step(token);
      token = argmax(logits.data(), c.vocabSize);
    }
  });
  std::printf("%-22s %10s %12s %14s\n", "forward", "weights MB", "decode tok/s",
              "prefill tok/s");
  std::printf("%-22s %10.2f %12.1f %14s\n", "reference fp32",
              llama2cFileBytes(c) / 1e6, refRate, "-");

  std::vector<int> prompt(prefill);
  for (int i = 0; i < prefill; ++i)
    prompt[i] = (i * 7919 + 1) % c.vocabSize;
  for (int bits : {32, 16, 8, 4, 3}) {
    LlamaModel model;
    if (!buildLlamaModel(weights, std::vector<int>(c.layers, bits), 32, 32,
                         model, &error)) {
      std::fprintf(stderr, "%s\n", error.c_str());
      return 1;
    }
    std::vector<float> logits(size_t(prefill) * c.vocabSize);
    double decodeRate = bestRate(decode, [&] {
      LlamaSession session(model, 1);
      int token = 1;
      for (int i = 0; i < decode; ++i) {
        session.forward(&token, 1, logits.data(), nullptr);
        token = argmax(logits.data(), c.vocabSize);
      }
    });
    double prefillRate = bestRate(prefill, [&] {
      LlamaSession session(model, prefill);
      session.forward(prompt.data(), prefill, logits.data(), nullptr);
    });
    char name[32];
    std::snprintf(name, sizeof name, "runtime %s",
                  bits == 32   ? "fp32"
                  : bits == 16 ? "fp16"
                  : bits == 8  ? "int8"
                  : bits == 4  ? "int4"
                               : "int3");
    std::printf("%-22s %10.2f %12.1f %14.1f\n", name,
                model.storageBytes() / 1e6, decodeRate, prefillRate);
  }
  return 0;
}
