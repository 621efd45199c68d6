//===- FuzzSafetensors.cpp - safetensors files, both readers --------------===//
//
// The planner's reader (every tensor converted, and the quality indicator
// of a fixed one-layer LLaMA whose tensor names the seeds carry) and the
// CPU runtime's reader (every float tensor converted).
//
//===----------------------------------------------------------------------===//
#include "FuzzPlanSupport.h"
#include "FuzzSupport.h"

#include "weft/Planner/Quality.h"
#include "weft/Planner/Safetensors.h"

#include "weft_rt_safetensors.h"

namespace {

/// The model of fuzz/corpus/safetensors/tiny-llama.safetensors.
const weft::cost::ModelDesc &tinyLlama() {
  static const weft::cost::ModelDesc model =
      weft::fuzz::llamaModel("tiny", 8, 16, 1, 2, 1, 16, 32);
  return model;
}

void plannerReader(const std::string &path) {
  auto set = weft::plan::SafetensorsSet::open({path});
  if (!set)
    return llvm::consumeError(set.takeError());
  if (auto q = weft::plan::qualityFromSafetensors(tinyLlama(), *set))
    (void)q;
  else
    llvm::consumeError(q.takeError());
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
  std::string path = weft::fuzz::writeScratch("model.safetensors", data, size);
  plannerReader(path);
  runtimeReader(path);
  return 0;
}
