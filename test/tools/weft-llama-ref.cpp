//===- weft-llama-ref.cpp - The tests' independent LLaMA reference --------===//
//
// Serving tests compare generated programs against this tool. It uses the
// fp32 reference forward pass written for the tests (ReferenceLlama), which
// shares no code with weft's runtime.
//
//   weft-llama-ref generate MODEL.bin "ID ID ..." K   greedy ids, one line
//   weft-llama-ref logits MODEL.bin "ID ID ..." OUT   float32 [prompt][vocab]
//   weft-llama-ref random MODEL.bin DIM,HIDDEN,LAYERS,HEADS,KV,VOCAB,SEQ
//                  tied|untied SEED                   random llama2.c model
//   weft-llama-ref to-hf MODEL.bin DIR                the same weights as a
//                  HuggingFace directory (config.json, two safetensors shards)
//   weft-llama-ref random-opt DIR DIM,FFN,LAYERS,HEADS,VOCAB,MAXPOS SEED
//                  [relu|gelu]                        random HF OPT directory
//   weft-llama-ref generate-opt DIR "ID ID ..." K     greedy ids of an OPT
//   weft-llama-ref logits-opt DIR "ID ID ..." OUT     (ReferenceOpt)
//
//===----------------------------------------------------------------------===//
#include "HfWriter.h"
#include "ReferenceLlama.h"
#include "ReferenceOpt.h"
#include "TinyLlama.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <sstream>

using namespace weft::rt;
using namespace weft::rt::test;

namespace {

int usage() {
  std::fprintf(stderr,
               "usage: weft-llama-ref generate|logits|random|to-hf|"
               "random-opt|generate-opt|logits-opt ...\n");
  return 2;
}

std::vector<int> parseIds(const char *text) {
  std::vector<int> ids;
  std::istringstream in(text);
  for (int id; in >> id;)
    ids.push_back(id);
  return ids;
}

int argmax(const std::vector<float> &v) {
  int best = 0;
  for (int i = 1; i < int(v.size()); ++i)
    if (v[i] > v[best])
      best = i;
  return best;
}

int randomModel(int argc, char **argv) {
  if (argc != 5)
    return usage();
  int s[7];
  if (std::sscanf(argv[2], "%d,%d,%d,%d,%d,%d,%d", &s[0], &s[1], &s[2], &s[3],
                  &s[4], &s[5], &s[6]) != 7)
    return usage();
  LlamaConfig c = llamaConfig(s[0], s[1], s[2], s[3], s[4], s[5], s[6],
                              !std::strcmp(argv[3], "tied"));
  std::string error;
  if (!writeLlama2c(argv[1], randomLlama(c, uint32_t(std::atoi(argv[4]))),
                    &error)) {
    std::fprintf(stderr, "weft-llama-ref: %s\n", error.c_str());
    return 1;
  }
  return 0;
}

int toHf(int argc, char **argv) {
  if (argc != 3)
    return usage();
  LlamaWeights w;
  std::string error;
  if (!readCheckpoint(argv[1], w, &error)) {
    std::fprintf(stderr, "weft-llama-ref: %s\n", error.c_str());
    return 1;
  }
  std::filesystem::create_directories(argv[2]);
  writeHfDirectory(w, argv[2]);
  return 0;
}

int randomOptModel(int argc, char **argv) {
  if (argc != 4 && argc != 5)
    return usage();
  int s[6];
  if (std::sscanf(argv[2], "%d,%d,%d,%d,%d,%d", &s[0], &s[1], &s[2], &s[3],
                  &s[4], &s[5]) != 6)
    return usage();
  bool gelu = argc == 5 && !std::strcmp(argv[4], "gelu");
  LlamaWeights w = randomOpt(s[0], s[1], s[2], s[3], s[4], s[5], gelu,
                             uint32_t(std::atoi(argv[3])));
  std::filesystem::create_directories(argv[1]);
  writeHfOptDirectory(w, argv[1]);
  return 0;
}

/// Greedy ids or prompt logits of a model with load() and step().
template <typename Model>
int run(Model &model, const std::string &mode, const char *path,
        const char *ids, const char *last) {
  std::string error;
  if (!model.load(path, error)) {
    std::fprintf(stderr, "weft-llama-ref: %s\n", error.c_str());
    return 1;
  }
  std::vector<int> prompt = parseIds(ids);
  if (prompt.empty())
    return usage();
  std::vector<std::vector<float>> logits;
  for (int id : prompt)
    logits.push_back(model.step(id));
  if (mode == "logits") {
    std::FILE *f = std::fopen(last, "wb");
    if (!f)
      return 1;
    for (const std::vector<float> &row : logits)
      std::fwrite(row.data(), sizeof(float), row.size(), f);
    return std::fclose(f) == 0 ? 0 : 1;
  }
  int k = std::atoi(last);
  std::vector<float> next = logits.back();
  for (int i = 0; i < k; ++i) {
    int id = argmax(next);
    std::printf(i ? " %d" : "%d", id);
    if (i + 1 < k)
      next = model.step(id);
  }
  std::printf("\n");
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 2)
    return usage();
  std::string mode = argv[1];
  if (mode == "random")
    return randomModel(argc - 1, argv + 1);
  if (mode == "to-hf")
    return toHf(argc - 1, argv + 1);
  if (mode == "random-opt")
    return randomOptModel(argc - 1, argv + 1);
  if (argc != 5)
    return usage();
  if (mode == "generate" || mode == "logits") {
    ReferenceLlama model;
    return run(model, mode, argv[2], argv[3], argv[4]);
  }
  if (mode == "generate-opt" || mode == "logits-opt") {
    ReferenceOpt model;
    return run(model, mode.substr(0, mode.size() - 4), argv[2], argv[3],
               argv[4]);
  }
  return usage();
}
