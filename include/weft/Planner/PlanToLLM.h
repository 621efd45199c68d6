//===- PlanToLLM.h - Build the annotated llm IR of a plan -------*- C++ -*-===//
#ifndef WEFT_PLANNER_PLANTOLLM_H
#define WEFT_PLANNER_PLANTOLLM_H

#include "weft/Planner/Plan.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

namespace weft::plan {

/// An `llm.model` for the problem's model; with a plan, every part carries
/// its stage, device and bits, and the model its micro-batch sizes and
/// workload. Loads the llm dialect into `ctx`.
mlir::OwningOpRef<mlir::ModuleOp>
buildLLMModule(mlir::MLIRContext &ctx, const Problem &p, const Plan *plan);

} // namespace weft::plan

#endif
