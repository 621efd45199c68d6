//===- FuzzModelConfig.cpp - HuggingFace config.json, both readers --------===//
//
// The one config reader (runtime/format/weft_rt_hf_config.h), as the
// planner calls it (JSON and YAML through LLVM's parsers, then the cost
// model and a one-stage plan of the model on a fixed cluster) and as the
// runtime does (the format library's JSON parser, the tensor layout and
// the serving checks).
//
//===----------------------------------------------------------------------===//
#include "FuzzPlanSupport.h"
#include "FuzzSupport.h"

#include "weft/Planner/ModelImport.h"
#include "weft/Planner/Quality.h"

#include "weft_rt_hf_config.h"

using namespace weft::plan;

namespace {

/// The largest model whose one-stage plan the target evaluates (the
/// planner holds a few values per layer; the file may declare millions).
constexpr int64_t kMaxEvaluatedLayers = 4096;

void readModel(llvm::Expected<llvm::json::Value> v) {
  if (!v)
    return llvm::consumeError(v.takeError());
  llvm::Expected<weft::cost::ModelDesc> m = modelFromHFConfig(*v, "config");
  if (!m)
    return llvm::consumeError(m.takeError());
  if (m->layers > kMaxEvaluatedLayers)
    return;
  QualityModel quality = qualityPrior(*m);
  Problem problem{*m, weft::fuzz::fixedCluster(), quality, Workload{64, 16, 2}};
  for (int device = 0; device < int(problem.cluster.devices.size());
       ++device) {
    Plan p;
    p.stages.push_back({device, 0, m->layers,
                        std::vector<int>(size_t(m->layers), 4)});
    if (llvm::Error e = validatePlan(problem, p)) {
      llvm::consumeError(std::move(e));
      continue;
    }
    weft::fuzz::checkPrediction(problem, p);
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  weft::fuzz::readAsJSONAndYAML(data, size, "config", readModel);

  std::string path = weft::fuzz::writeScratch("config.json", data, size);
  weft::rt::HfConfig hf;
  weft::rt::LlamaConfig config;
  std::string error;
  if (weft::rt::readHfConfig(path, hf, &error) &&
      weft::rt::hfTensorLayout(hf, config, &error) &&
      weft::rt::hfServingProblem(hf).empty() &&
      !weft::rt::checkLlamaConfig(config).empty())
    __builtin_trap(); // the layout checked the config
  return 0;
}
