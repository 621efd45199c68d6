//===- FuzzSafetensors.cpp - safetensors files ----------------------------===//
//
// The one safetensors reader, as the runtime calls it (every float tensor
// converted) and as the planner does (the quality indicator of a fixed
// one-layer LLaMA checkpoint whose tensor names the seeds carry: a
// directory with its config.json and the input as model.safetensors).
//
//===----------------------------------------------------------------------===//
#include "FuzzPlanSupport.h"
#include "FuzzSupport.h"

#include "weft/Planner/Quality.h"

#include "weft_rt_safetensors.h"

#include <fstream>

namespace {

/// The model of fuzz/corpus/safetensors/tiny-llama.safetensors.
const weft::cost::ModelDesc &tinyLlama() {
  static const weft::cost::ModelDesc model =
      weft::fuzz::llamaModel("tiny", 8, 16, 1, 2, 1, 16, 32);
  return model;
}

/// The checkpoint directory, its config.json written once.
const std::string &checkpointDir() {
  static const std::string dir = [] {
    std::string d = weft::fuzz::scratchSubdir("tiny-llama");
    std::ofstream(d + "/config.json")
        << R"({"model_type": "llama", "hidden_size": 8,
               "intermediate_size": 16, "num_hidden_layers": 1,
               "num_attention_heads": 2, "num_key_value_heads": 1,
               "vocab_size": 16, "max_position_embeddings": 32})";
    return d;
  }();
  return dir;
}

void plannerReader(const uint8_t *data, size_t size) {
  weft::fuzz::writeScratch("tiny-llama/model.safetensors", data, size);
  if (auto q = weft::plan::qualityFromWeights(tinyLlama(), checkpointDir())) {
    if (q->sensitivity.size() != 1)
      __builtin_trap();
  } else {
    llvm::consumeError(q.takeError());
  }
}

void runtimeReader(const std::string &path) {
  weft::rt::SafetensorsFile file;
  std::string error;
  if (!file.open(path, &error))
    return;
  std::vector<float> values;
  for (const weft::rt::SafetensorsTensor &t : file.tensors())
    if (file.readFloats(t.name, values, &error) &&
        int64_t(values.size()) != t.elements())
      __builtin_trap();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  checkpointDir();
  plannerReader(data, size);
  runtimeReader(weft::fuzz::writeScratch("model.safetensors", data, size));
  return 0;
}
