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

} // namespace weft::llm

#endif
