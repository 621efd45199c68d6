//===- Plan.h - Serving plans and their predicted performance ---*- C++ -*-===//
#ifndef WEFT_PLANNER_PLAN_H
#define WEFT_PLANNER_PLAN_H

#include "weft/CostModel/LayerCost.h"
#include "weft/CostModel/RuntimeProfile.h"
#include "weft/Planner/Cluster.h"
#include "weft/Planner/Quality.h"

#include <map>
#include <vector>

namespace weft::plan {

struct Workload {
  int64_t promptLen = 512;
  int64_t genLen = 128;
  int64_t batch = 32; // sequences served together
};

/// One pipeline stage: a device and a contiguous, half-open layer range.
struct Stage {
  int device = 0; // index into Cluster::devices
  int64_t first = 0, end = 0;
  std::vector<int> bits; // one per layer of the stage
};

struct Plan {
  std::vector<Stage> stages; // pipeline order
  int64_t prefillMicrobatch = 1;
  int64_t decodeMicrobatch = 1;
};

struct StagePrediction {
  double prefillMs = 0; // one prefill micro-batch through this stage
  double decodeMs = 0;  // one decode step of one micro-batch
  int64_t memoryBytes = 0;
  int64_t capacityBytes = 0;
};

struct Prediction {
  double throughput = 0; // generated tokens per second
  double prefillS = 0, decodeS = 0;
  double qualityLoss = 0;
  std::vector<StagePrediction> stages;
  bool fitsMemory = true;
};

/// Everything a planner needs; the references must outlive it.
struct Problem {
  const cost::ModelDesc &model;
  const Cluster &cluster;
  const QualityModel &quality;
  Workload workload;
  /// The runtime that will execute the plan; null: the built-in profile of
  /// the cluster (runtimeProfile()).
  const cost::RuntimeProfile *profile = nullptr;
};

/// `p.profile`, or the built-in profile for the cluster's devices.
const cost::RuntimeProfile &runtimeProfile(const Problem &p);

/// Predicts a plan (the planners' objective and constraints).
Prediction evaluate(const Problem &p, const Plan &plan);

/// Decode steps are costed at the mean context length of generation.
int64_t decodePast(const Workload &w);

/// Memory of a stage (first/last decide embedding and LM head).
int64_t stageMemoryBytes(const Problem &p, const Plan &plan, const Stage &s);

/// Checks that `plan` covers every layer once, in order, with supported
/// bits, on distinct devices of the cluster. Errors name the field.
llvm::Error validatePlan(const Problem &p, const Plan &plan);

} // namespace weft::plan

#endif
