//===- ProfileFit.h - Fit a runtime profile to measured runs ----*- C++ -*-===//
//
// A plan's predicted prefill and decode times are, for fixed pipeline
// bottlenecks, linear in the profile's parameters: kernel factors scale the
// analytical kernel times of each bit-width, overheads add per layer, stage
// and step, transfers add per message and per byte. The fit alternates
// between updating the bottlenecks and solving a regularised, bounded linear
// least-squares problem (Eigen) on relative errors, prefill and decode rows
// with their own parameters (docs/cost-model.md, "Runtime profiles").
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_PLANNER_PROFILEFIT_H
#define WEFT_PLANNER_PROFILEFIT_H

#include "weft/Planner/MeasuredRuns.h"

#include <array>
#include <string>
#include <vector>

namespace weft::plan {

/// The parts of one stage's time (one pass of a micro-batch) that a profile
/// scales or adds to, from the analytical model.
struct StageTerms {
  std::string device;               // device type (canonical name)
  std::array<double, 4> kernelMs{}; // per kBitMenu index; embedding and LM
                                    // head count as 16-bit kernels
  double layers = 0;
  double sends = 0;     // messages this stage sends per pass
  double sendBytes = 0; // their bytes
  double linkMs = 0;    // their time on the cluster's links
};

/// Everything needed to predict one measured run under any profile.
struct RunTerms {
  std::array<std::vector<StageTerms>, 2> stages; // [phase index]
  int64_t prefillPasses = 1;                     // ceil(batch / mp)
  int64_t decodeMicrobatches = 1;                // ceil(batch / md)
  int64_t decodeSteps = 0;                       // gen_len - 1
  std::array<double, 2> measuredS{};             // prefill, decode
  int cluster = 0; // runs with the same value were measured on one cluster
};

/// The terms of `run` on the GEMM units of `base` (its factors and
/// overheads do not matter): predictFromTerms then equals evaluate() for
/// every profile with those units.
RunTerms runTerms(const MeasuredRun &run, const cost::RuntimeProfile &base);

/// Predicted {prefill, decode} seconds; equal to evaluate() with `p`.
std::array<double, 2> predictFromTerms(const RunTerms &t,
                                       const cost::RuntimeProfile &p);

struct ProfileFitOptions {
  /// Ridge weight towards the base profile, on columns scaled to unit norm:
  /// parameters the runs do not determine keep their base values.
  double ridge = 1e-2;
  /// Lower bound of kernel and device factors (overheads are >= 0).
  double minFactor = 0.05;
  /// A device type may get its own factor when at least this many runs use
  /// it...
  int minRunsPerDevice = 3;
  /// ...and, with runs from 3 or more clusters, only when that predicts
  /// held-out clusters of the training runs better than without.
  bool crossValidateDeviceFactors = true;
  int maxIterations = 60;
};

/// Fits kernel factors, overheads and transfer costs of `base` to the runs'
/// measured prefill and decode seconds. Memory and provenance are copied
/// from `base` (callers set the provenance).
cost::RuntimeProfile fitRuntimeProfile(const std::vector<RunTerms> &runs,
                                       const cost::RuntimeProfile &base,
                                       const ProfileFitOptions &o = {});

} // namespace weft::plan

#endif
