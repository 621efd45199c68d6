//===- ModelIR.h - A model description as llm IR, and back ------*- C++ -*-===//
//
// importModel writes the llm IR of a model read from a config (HF
// config.json or a llama2.c header, lib/Planner/ModelImport): an llm.model
// with one llm.weight per checkpoint tensor, named as the checkpoint names
// it, and @forward, the dataflow of one micro-batch from tokens to logits.
// describeModel reads the shape the cost model needs back from that IR, so
// that planning works on the IR, whoever wrote it.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_LLM_MODELIR_H
#define WEFT_LLM_MODELIR_H

#include "dialects/LLM/IR/LLMOps.h"
#include "weft/CostModel/ModelDesc.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include "llvm/Support/Error.h"

namespace weft::llm {

/// The name of the forward function of an imported model.
constexpr llvm::StringLiteral kForwardFunction = "forward";

/// The llm IR of `m` (loads the llm dialect). Fails for architectures the
/// dialect has no form for (mixture-of-experts FFNs, biased gated FFNs).
llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>>
importModel(mlir::MLIRContext &ctx, const cost::ModelDesc &m);

/// The llm IR of the model at `path` (a config.json, a directory holding
/// one, or a llama2.c checkpoint: lib/Planner/ModelImport). Errors name the
/// file and field.
llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>>
importModelFile(mlir::MLIRContext &ctx, llvm::StringRef path);

/// `name` as a bare symbol name: characters other than letters, digits and
/// '_' become '_' ("model" when nothing is left).
std::string modelSymbolName(llvm::StringRef name);

/// The one llm.model of `module`, or an error at the module.
mlir::FailureOr<ModelOp> getOnlyModel(mlir::ModuleOp module);

/// The shape of `model` as the cost model sees it, read from its forward
/// function (or, once split, from its stage functions). Errors, at the op,
/// for models the planner cannot cost: layers of different shapes, no
/// embedding or head.
mlir::FailureOr<cost::ModelDesc> describeModel(ModelOp model);

/// The decoder layer an op of a forward or stage function belongs to: the
/// layer of an attention or FFN op, of a norm that feeds one, or of a
/// residual add of one's result. Other ops (embedding, final norm, head)
/// belong to none.
std::optional<int64_t> layerOf(mlir::Operation *op);

} // namespace weft::llm

#endif
