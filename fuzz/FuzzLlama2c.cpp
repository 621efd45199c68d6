//===- FuzzLlama2c.cpp - llama2.c checkpoints -----------------------------===//
//
// The one llama2.c reader, as the planner calls it (the header, then the
// weight-variance quality indicator) and as the runtime does (the whole
// checkpoint, what build-model and the reference use).
//
//===----------------------------------------------------------------------===//
#include "FuzzSupport.h"

#include "weft/Planner/ModelImport.h"
#include "weft/Planner/Quality.h"

#include "weft_rt_checkpoint.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string path = weft::fuzz::writeScratch("model.bin", data, size);
  if (auto m = weft::plan::modelFromLlama2c(path)) {
    if (auto q = weft::plan::qualityFromWeights(*m, path)) {
      if (q->sensitivity.size() != size_t(m->layers))
        __builtin_trap();
    } else {
      llvm::consumeError(q.takeError());
    }
  } else {
    llvm::consumeError(m.takeError());
  }
  weft::rt::LlamaWeights weights;
  std::string error;
  weft::rt::readCheckpoint(path, weights, &error);
  return 0;
}
