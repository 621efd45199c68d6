//===- FuzzKernelSamples.cpp - weft-kernel-bench samples ------------------===//
//
// `weft cost profile --samples FILE`: samples read and fitted; the fit
// errors must be finite, the fitted profile must read back as written and
// keep a fixed plan's predictions finite.
//
//===----------------------------------------------------------------------===//
#include "FuzzPlanSupport.h"

#include "weft/Planner/KernelProfileFit.h"
#include "weft/Planner/Quality.h"

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
  auto again = weft::cost::profileFromJSON(
      llvm::json::Value(weft::cost::profileToJSON(report->profile)), "written");
  if (!again) {
    llvm::errs() << llvm::toString(again.takeError()) << "\n";
    __builtin_trap(); // a fitted profile that does not read back
  }
  static const weft::cost::ModelDesc model =
      weft::fuzz::llamaModel("fuzz-llama", 256, 688, 8, 8, 4, 2048, 512);
  static const QualityModel quality = qualityPrior(model);
  Problem problem{model, weft::fuzz::fixedCluster(), quality,
                  Workload{8, 16, 4}, &*again};
  Plan p;
  // The second stage runs on the cluster's cpu, where the curves apply.
  p.stages = {{0, 0, 5, {16, 8, 8, 4, 4}}, {2, 5, 8, {4, 3, 16}}};
  p.prefillMicrobatch = 2;
  p.decodeMicrobatch = 4;
  Prediction pred = weft::fuzz::checkPrediction(problem, p);
  if (!std::isfinite(pred.throughput))
    __builtin_trap();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  weft::fuzz::readAsJSONAndYAML(data, size, "samples", fitSamples);
  return 0;
}
