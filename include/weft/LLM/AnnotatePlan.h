//===- AnnotatePlan.h - Record a serving plan in llm IR ---------*- C++ -*-===//
#ifndef WEFT_LLM_ANNOTATEPLAN_H
#define WEFT_LLM_ANNOTATEPLAN_H

#include "dialects/LLM/IR/LLMOps.h"
#include "weft/Planner/Plan.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

namespace weft::llm {

/// Records `plan`, made for `p`, in `model`: every op of the forward
/// function gets the `llm.stage` of its decoder layer (the embedding the
/// first stage's, the final norm and head the last stage's), attention and
/// FFN ops the plan's bits, and the model a `#llm.plan`. Errors at the op
/// for a plan that does not fit the IR (layer indices outside the plan).
mlir::LogicalResult annotatePlan(ModelOp model, const plan::Problem &p,
                                 const plan::Plan &plan);

/// The llm IR of `p.model` (importModel) annotated with `plan`.
llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>>
importPlannedModel(mlir::MLIRContext &ctx, const plan::Problem &p,
                   const plan::Plan &plan);

/// Checks that `planned` (llm IR with a plan: annotatePlan's, or what
/// `weft plan --emit=mlir` writes) is `model` plus that plan: the same ops
/// with the same attributes, weights and types, once the plan's attributes
/// (`plan`, `llm.stage`, `bits`) and the model's name are set aside. Errors
/// at the first op of `planned` that differs, saying what `model` has.
mlir::LogicalResult checkPlannedModel(ModelOp planned, ModelOp model);

} // namespace weft::llm

#endif
