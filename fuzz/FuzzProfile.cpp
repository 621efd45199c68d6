//===- FuzzProfile.cpp - Runtime profiles, JSON and YAML ------------------===//
//
// `--profile FILE`: a profile read, written back and read again (what
// `weft cost calibrate` writes must read back), then a fixed plan evaluated
// with it (its bounds must keep every prediction finite).
//
//===----------------------------------------------------------------------===//
#include "FuzzPlanSupport.h"

#include "weft/CostModel/RuntimeProfile.h"
#include "weft/Planner/Quality.h"

#include <cmath>

using namespace weft::plan;

namespace {

void readProfile(llvm::Expected<llvm::json::Value> v) {
  if (!v)
    return llvm::consumeError(v.takeError());
  auto profile = weft::cost::profileFromJSON(*v, "profile");
  if (!profile)
    return llvm::consumeError(profile.takeError());
  auto again = weft::cost::profileFromJSON(
      llvm::json::Value(weft::cost::profileToJSON(*profile)), "written");
  if (!again) {
    llvm::errs() << llvm::toString(again.takeError()) << "\n";
    __builtin_trap(); // a profile that does not read back
  }
  static const weft::cost::ModelDesc model =
      weft::fuzz::llamaModel("fuzz-llama", 256, 688, 8, 8, 4, 2048, 512);
  static const QualityModel quality = qualityPrior(model);
  Problem problem{model, weft::fuzz::fixedCluster(), quality,
                  Workload{32, 16, 4}, &*profile};
  Plan p;
  p.stages = {{0, 0, 5, {16, 8, 8, 4, 4}}, {1, 5, 8, {4, 3, 16}}};
  p.prefillMicrobatch = 2;
  p.decodeMicrobatch = 4;
  Prediction pred = weft::fuzz::checkPrediction(problem, p);
  if (!std::isfinite(pred.throughput) || !std::isfinite(pred.prefillS) ||
      !std::isfinite(pred.decodeS))
    __builtin_trap(); // the profile's bounds should keep this finite
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  weft::fuzz::readAsJSONAndYAML(data, size, "profile", readProfile);
  return 0;
}
