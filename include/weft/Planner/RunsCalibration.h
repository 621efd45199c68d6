//===- RunsCalibration.h - A profile against measured runs ------*- C++ -*-===//
//
// `weft cost calibrate --runs`: predicts every measured run with a base
// profile, fits a profile on all runs, and measures how well it transfers:
// leave-one-cluster-out (fit on the other clusters, predict the held-out
// one) and how often two plans measured on the same cluster, model and
// workload are ordered by predicted throughput as they were measured.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_PLANNER_RUNSCALIBRATION_H
#define WEFT_PLANNER_RUNSCALIBRATION_H

#include "weft/Planner/ProfileFit.h"

#include "llvm/Support/raw_ostream.h"

#include <map>

namespace weft::plan {

/// Seconds of one run: prefill, decode, total.
struct RunSeconds {
  double prefill = 0, decode = 0, total = 0;
};

/// Mean absolute percentage errors over a set of runs.
struct RunErrors {
  size_t runs = 0;
  double prefill = 0, decode = 0, total = 0;
};

/// Pairs of runs on the same cluster, model and workload whose measured
/// throughputs differ by more than kTiePercent: how many the prediction
/// orders as measured.
struct PairOrder {
  size_t pairs = 0, agree = 0;
  size_t ties = 0; // measured within kTiePercent: not counted
  double percent() const { return pairs ? 100.0 * agree / pairs : 0; }
};
constexpr double kTiePercent = 1.0;

struct RunOutcome {
  std::string id, cluster;
  RunSeconds measured, base, fitted;
  bool hasHeldOut = false;
  RunSeconds heldOut; // fitted without the run's cluster
};

struct RunsCalibrationReport {
  std::string runsPath;
  std::string baseName;
  bool baseEstimated = true;
  size_t clusters = 0, models = 0;
  std::vector<RunOutcome> runs;
  RunErrors base, fitted, heldOut;
  std::map<std::string, RunErrors> heldOutByCluster;
  PairOrder basePairs, fittedPairs, heldOutPairs;
  cost::RuntimeProfile profile; // fitted on every run
};

RunErrors runErrors(const std::vector<RunSeconds> &measured,
                    const std::vector<RunSeconds> &predicted);
PairOrder pairOrder(const MeasuredRuns &runs,
                    const std::vector<RunSeconds> &predicted);

RunsCalibrationReport calibrateOnRuns(const MeasuredRuns &runs,
                                      const cost::RuntimeProfile &base,
                                      const ProfileFitOptions &o = {});

void printRunsCalibrationReport(const RunsCalibrationReport &r,
                                llvm::raw_ostream &os);

} // namespace weft::plan

#endif
