//===- FuzzPlanSupport.h - A fixed cluster for plan fuzz targets -*- C++
//-*-===//
#ifndef WEFT_FUZZ_FUZZPLANSUPPORT_H
#define WEFT_FUZZ_FUZZPLANSUPPORT_H

#include "weft/CostModel/ModelDesc.h"
#include "weft/CostModel/RuntimeProfile.h"
#include "weft/Planner/Cluster.h"
#include "weft/Planner/Plan.h"
#include "weft/Planner/Quality.h"
#include "weft/Support/JSONFile.h"

#include <cmath>
#include <cstdlib>

namespace weft::fuzz {

/// A LLaMA-style model description with the given shape.
inline cost::ModelDesc llamaModel(const char *name, int64_t hidden,
                                  int64_t intermediate, int64_t layers,
                                  int64_t heads, int64_t kvHeads, int64_t vocab,
                                  int64_t maxSeq) {
  cost::ModelDesc m;
  m.name = name;
  m.arch = "llama";
  m.hidden = hidden;
  m.intermediate = intermediate;
  m.layers = layers;
  m.heads = heads;
  m.kvHeads = kvHeads;
  m.vocab = vocab;
  m.maxSeq = maxSeq;
  return m;
}

/// Two nodes, three devices of different classes (GPU, GPU, CPU).
inline const plan::Cluster &fixedCluster() {
  static const plan::Cluster cluster = [] {
    const char *text = R"({ "nodes": [
      { "name": "n0", "gpus": [{ "type": "A100-40GB", "count": 1 },
                               { "type": "T4", "count": 1 }],
        "intra_link_GBps": 16 },
      { "name": "n1", "gpus": [{ "type": "cpu", "count": 1 }] } ],
      "inter_node_GBps": 12.5 })";
    auto v = parseJSONText(text, "fixed cluster");
    auto c = v ? plan::clusterFromJSON(*v, "fixed cluster")
               : llvm::Expected<plan::Cluster>(v.takeError());
    if (!c) {
      llvm::errs() << llvm::toString(c.takeError()) << "\n";
      std::abort();
    }
    return std::move(*c);
  }();
  return cluster;
}

/// Evaluates `p`, checks what every prediction must satisfy, returns it.
inline plan::Prediction checkPrediction(const plan::Problem &problem,
                                        const plan::Plan &p) {
  plan::Prediction pred = plan::evaluate(problem, p);
  if (pred.throughput < 0 || pred.prefillS < 0 || pred.decodeS < 0 ||
      pred.stages.size() != p.stages.size())
    __builtin_trap();
  return pred;
}

/// What every profile must do: read back as written, and keep a fixed
/// plan's predictions finite on the fixed cluster's A100, T4 and cpu (where
/// a measured profile's kernel curves apply).
inline void checkProfile(const cost::RuntimeProfile &profile) {
  auto again = cost::profileFromJSON(
      llvm::json::Value(cost::profileToJSON(profile)), "written");
  if (!again) {
    llvm::errs() << llvm::toString(again.takeError()) << "\n";
    __builtin_trap(); // a profile that does not read back
  }
  static const cost::ModelDesc model =
      llamaModel("fuzz-llama", 256, 688, 8, 8, 4, 2048, 512);
  static const plan::QualityModel quality = plan::qualityPrior(model);
  plan::Problem problem{model, fixedCluster(), quality,
                        plan::Workload{32, 16, 4}, &profile};
  plan::Plan p;
  p.stages = {{0, 0, 3, {16, 8, 8}}, {1, 3, 5, {4, 4}}, {2, 5, 8, {4, 3, 16}}};
  p.prefillMicrobatch = 2;
  p.decodeMicrobatch = 4;
  plan::Prediction pred = checkPrediction(problem, p);
  if (!std::isfinite(pred.throughput) || !std::isfinite(pred.prefillS) ||
      !std::isfinite(pred.decodeS))
    __builtin_trap(); // the profile's bounds should keep this finite
}

/// Reads the input both as JSON and as YAML (weft reads .yaml/.yml files
/// as YAML) and gives each parse to `read`; `name` names the file.
template <typename Read>
void readAsJSONAndYAML(const uint8_t *data, size_t size, llvm::StringRef name,
                       Read read) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  read(parseJSONText(text, name + ".json"));
  read(parseYAMLText(text, (name + ".yaml").str()));
}

} // namespace weft::fuzz

#endif
