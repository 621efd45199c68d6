//===- PlanIO.h - plan.json (DESIGN.md schema) ------------------*- C++ -*-===//
#ifndef WEFT_PLANNER_PLANIO_H
#define WEFT_PLANNER_PLANIO_H

#include "weft/Planner/Plan.h"

#include "llvm/Support/JSON.h"

namespace weft::plan {

/// The `predicted` object: throughput, phase times, memory per device,
/// quality loss, and per-stage details.
llvm::json::Object predictionToJSON(const Problem &p, const Plan &plan,
                                    const Prediction &pred);

/// The whole plan file; `extra` fields (workload, baselines, ...) are merged
/// in at the top level.
llvm::json::Object planToJSON(const Problem &p, const Plan &plan,
                              const Prediction &pred,
                              llvm::json::Object extra = {});

/// Reads a plan file against a cluster; errors name the file and field.
llvm::Expected<Plan> planFromJSON(const llvm::json::Value &v,
                                  llvm::StringRef file, const Problem &p);
llvm::Expected<Plan> loadPlan(llvm::StringRef path, const Problem &p);

/// The devices a plan file names, as a cluster (each stage's `device` and
/// `type`; no links): what a plan needs to be read without a cluster file.
llvm::Expected<Cluster> clusterOfPlan(const llvm::json::Value &v,
                                      llvm::StringRef file);
/// The workload a plan file records (`workload`), `fallback` for the
/// fields it lacks.
Workload workloadOfPlan(const llvm::json::Value &v, Workload fallback = {});

/// Writes `text` to `path` through a temporary file and a rename, so a
/// failed run never leaves a partial file.
llvm::Error writeFileAtomically(llvm::StringRef path, llvm::StringRef text);

} // namespace weft::plan

#endif
