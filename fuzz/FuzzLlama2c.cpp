//===- FuzzLlama2c.cpp - llama2.c checkpoints, both readers ---------------===//
//
// The planner's header reader and weight-variance quality indicator, and
// the CPU runtime's full reader (what build-model and the reference use).
//
//===----------------------------------------------------------------------===//
#include "FuzzSupport.h"

#include "weft/Planner/ModelImport.h"
#include "weft/Planner/Quality.h"

#include "weft_rt_llama2c.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string path = weft::fuzz::writeScratch("model.bin", data, size);
  if (auto m = weft::plan::modelFromLlama2c(path)) {
    if (auto q = weft::plan::qualityFromLlama2c(*m, path)) {
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
  weft::rt::readLlama2c(path, weights, &error);
  return 0;
}
