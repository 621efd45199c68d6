//===- MeasuredRuns.h - Measured end-to-end serving runs --------*- C++ -*-===//
//
// The measured-runs file (DESIGN.md, runs.json): every run names a model, a
// cluster and the plan that ran (paths relative to the file), its workload
// and the measured prefill, decode and total seconds. Loading checks every
// field and that each plan matches its model and cluster.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_PLANNER_MEASUREDRUNS_H
#define WEFT_PLANNER_MEASUREDRUNS_H

#include "weft/Planner/Plan.h"

#include <deque>
#include <string>
#include <vector>

namespace weft::plan {

struct MeasuredRun {
  std::string id;
  std::string clusterName; // the cluster path as the file gives it
  std::string modelName;   // the model path as the file gives it
  const cost::ModelDesc *model = nullptr;
  const Cluster *cluster = nullptr;
  const QualityModel *quality = nullptr;
  Workload workload;
  Plan plan;
  double prefillS = 0, decodeS = 0, totalS = 0; // measured

  Problem problem(const cost::RuntimeProfile *profile) const {
    return Problem{*model, *cluster, *quality, workload, profile};
  }
  /// Generated tokens per second, measured.
  double throughput() const {
    return double(workload.batch * workload.genLen) / totalS;
  }
};

struct MeasuredRuns {
  MeasuredRuns() = default;
  // Runs point into the deques: moving keeps their elements in place,
  // copying would not.
  MeasuredRuns(MeasuredRuns &&) = default;
  MeasuredRuns &operator=(MeasuredRuns &&) = default;
  MeasuredRuns(const MeasuredRuns &) = delete;
  MeasuredRuns &operator=(const MeasuredRuns &) = delete;

  std::string path;
  std::string engine; // runtime.engine of the file, when given
  std::vector<MeasuredRun> runs;
  // Inputs shared by runs; deques keep the runs' pointers valid.
  std::deque<cost::ModelDesc> models;
  std::deque<Cluster> clusters;
  std::deque<QualityModel> qualities;
};

/// Reads a runs file. Errors name the file and field
/// ("runs.json: runs[2].measured.decode_s: expected a positive number",
/// "runs.json: runs[0].plan: plans/x.json: stages[0].device: ...").
llvm::Expected<MeasuredRuns> loadMeasuredRuns(llvm::StringRef path);

} // namespace weft::plan

#endif
