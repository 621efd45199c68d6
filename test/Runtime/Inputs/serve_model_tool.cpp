//===- serve_model_tool.cpp - Models and references for the serve test ----===//
//
//   gen OUT.bin                     random 5-layer llama2.c model (GQA)
//   stages MODEL.bin DIR NAME       DIR/s<N>/weights/stage<k>.weft, N = 1..3
//   reference MODEL.bin K P...      K greedy tokens per prompt P ("ID ID")
//                                   from LlamaSession, one line each
//   logits MODEL.bin P FILE         compares FILE (float32 [len][vocab])
//                                   with LlamaSession's prompt logits
//
// Stage files store the embedding as fp16, so the reference model rounds
// the embedding to fp16 too; everything else is the plan's widths.
//
//===----------------------------------------------------------------------===//
#include "serve_plan.h"
#include "weft_rt_checkpoint.h"
#include "weft_rt_half.h"
#include "weft_rt_llama.h"
#include "weft_rt_stage_file.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <sstream>
#include <sys/stat.h>

using namespace weft::rt;

static int die(const std::string &what) {
  std::fprintf(stderr, "serve_model_tool: %s\n", what.c_str());
  return 1;
}

static LlamaWeights randomModel() {
  LlamaConfig c;
  c.dim = 48;
  c.hiddenDim = 128;
  c.layers = kPlanLayers;
  c.heads = 6;
  c.kvHeads = 2;
  c.vocabSize = 97;
  c.seqLen = 40;
  c.tiedClassifier = false; // tied, tokens echo the prompt's last one
  LlamaWeights w;
  w.config = c;
  std::mt19937 gen(1234);
  auto fill = [&](std::vector<float> &v, size_t n, float scale, float mean) {
    std::normal_distribution<float> d(mean, scale);
    v.resize(n);
    for (float &x : v)
      x = d(gen);
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
  fill(w.wcls, c.vocabSize * D, 1.0f, 0.0f);
  return w;
}

static bool load(const char *path, LlamaModel &model, std::string *error) {
  LlamaWeights w;
  if (!readCheckpoint(path, w, error))
    return false;
  for (float &x : w.tokenEmbedding)
    x = halfToFloat(floatToHalf(x));
  if (w.config.tiedClassifier)
    w.wcls = w.tokenEmbedding;
  std::vector<int> bits(kPlanBits, kPlanBits + kPlanLayers);
  return buildLlamaModel(w, bits, kPlanHeadBits, kDefaultGroupSize, model,
                         error);
}

static std::vector<int> ids(const char *text) {
  std::istringstream in(text);
  std::vector<int> v;
  int id;
  while (in >> id)
    v.push_back(id);
  return v;
}

int main(int argc, char **argv) {
  std::string mode = argc > 1 ? argv[1] : "", error;
  if (mode == "gen" && argc == 3)
    return writeLlama2c(argv[2], randomModel(), &error) ? 0 : die(error);
  if (mode == "stages" && argc == 5) {
    LlamaWeights w;
    if (!readCheckpoint(argv[2], w, &error))
      return die(error);
    if (w.config.layers != kPlanLayers)
      return die("the test plan needs a 5-layer model");
    for (int n = 1; n <= 3; ++n) {
      std::string dir = std::string(argv[3]) + "/s" + std::to_string(n);
      mkdir(dir.c_str(), 0755);
      mkdir((dir + "/weights").c_str(), 0755);
      for (int k = 0; k < n; ++k) {
        StageFileSpec spec;
        spec.model = argv[4];
        spec.stage = k;
        spec.numStages = n;
        spec.firstLayer = kPlanSplit[n - 1][k];
        spec.endLayer = kPlanSplit[n - 1][k + 1];
        spec.hasEmbedding = k == 0;
        spec.hasHead = k == n - 1;
        for (int l = spec.firstLayer; l < spec.endLayer; ++l) {
          spec.attnBits.push_back(kPlanBits[l]);
          spec.ffnBits.push_back(kPlanBits[l]);
        }
        spec.headBits = kPlanHeadBits;
        std::string path =
            dir + "/weights/stage" + std::to_string(k) + ".weft";
        if (!writeStageFile(path, w, spec, &error))
          return die(error);
      }
    }
    return 0;
  }
  if (mode == "reference" && argc >= 5) {
    LlamaModel model;
    if (!load(argv[2], model, &error))
      return die(error);
    int k = std::atoi(argv[3]);
    std::vector<float> logits(size_t(model.config.seqLen) *
                              model.config.vocabSize);
    for (int p = 4; p < argc; ++p) {
      std::vector<int> prompt = ids(argv[p]);
      LlamaSession session(model, model.config.seqLen);
      int m = int(prompt.size());
      const int *in = prompt.data();
      std::string line;
      int next = 0;
      for (int t = 0; t < k; ++t) {
        if (!session.forward(in, m, logits.data(), &error))
          return die(error);
        const float *last =
            logits.data() + size_t(m - 1) * model.config.vocabSize;
        next = int(std::max_element(last, last + model.config.vocabSize) -
                   last);
        line += (t ? " " : "") + std::to_string(next);
        in = &next;
        m = 1;
      }
      std::printf("%s\n", line.c_str());
    }
    return 0;
  }
  if (mode == "logits" && argc == 5) {
    LlamaModel model;
    if (!load(argv[2], model, &error))
      return die(error);
    std::vector<int> prompt = ids(argv[3]);
    const size_t n = prompt.size() * size_t(model.config.vocabSize);
    std::vector<float> want(n), got(n + 1);
    LlamaSession session(model, int(prompt.size()));
    if (!session.forward(prompt.data(), int(prompt.size()), want.data(),
                         &error))
      return die(error);
    std::FILE *f = std::fopen(argv[4], "rb");
    if (!f)
      return die(std::string(argv[4]) + ": cannot open");
    size_t read = std::fread(got.data(), sizeof(float), n + 1, f);
    std::fclose(f);
    if (read != n)
      return die("logits file holds " + std::to_string(read) +
                 " floats, expected " + std::to_string(n));
    double err = 0, scale = 1e-30;
    for (size_t i = 0; i < n; ++i) {
      err = std::fmax(err, std::fabs(double(got[i]) - want[i]));
      scale = std::fmax(scale, std::fabs(double(want[i])));
    }
    if (err / scale > 1e-4)
      return die("logits differ: max error " + std::to_string(err) +
                 " at scale " + std::to_string(scale));
    std::printf("logits match (%zu values)\n", n);
    return 0;
  }
  return die("usage: gen OUT | stages MODEL DIR NAME | reference MODEL K "
             "PROMPT... | logits MODEL PROMPT FILE");
}
