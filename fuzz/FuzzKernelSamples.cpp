//===- FuzzKernelSamples.cpp - weft-kernel-bench samples ------------------===//
//
// `weft cost profile --samples FILE`: samples read and fitted; the fit
// errors must be finite, the fitted profile must read back as written and
// keep a fixed plan's predictions finite.
//
//===----------------------------------------------------------------------===//
#include "FuzzPlanSupport.h"

#include "weft/Planner/KernelProfileFit.h"

#include <cmath>

using namespace weft::plan;

namespace {

void fitSamples(llvm::Expected<llvm::json::Value> v) {
  if (!v)
    return llvm::consumeError(v.takeError());
  auto samples = kernelSamplesFromJSON(*v, "samples");
  if (!samples)
    return llvm::consumeError(samples.takeError());
  auto report = fitKernelProfile(*samples, "fuzz", "cpu", "cpu");
  if (!report)
    return llvm::consumeError(report.takeError());
  for (double e : {report->layerError[0], report->layerError[1],
                   report->heldOutShapeError[0], report->heldOutShapeError[1],
                   report->headError})
    if (!std::isfinite(e))
      __builtin_trap(); // a fit error that is not a number
  weft::fuzz::checkProfile(report->profile);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  weft::fuzz::readAsJSONAndYAML(data, size, "samples", fitSamples);
  return 0;
}
