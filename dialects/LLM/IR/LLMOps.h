//===- LLMOps.h - llm dialect types, attributes and operations --*- C++ -*-===//
#ifndef WEFT_DIALECTS_LLM_IR_LLMOPS_H
#define WEFT_DIALECTS_LLM_IR_LLMOPS_H

#include "dialects/LLM/IR/LLMDialect.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Quant/QuantTypes.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/TensorEncoding.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/STLFunctionalExtras.h"

namespace weft::llm {
/// The KV caches that attention reads and appends to.
struct KVCacheResource
    : public mlir::SideEffects::Resource::Base<KVCacheResource> {
  llvm::StringRef getName() final { return "KVCache"; }
};
} // namespace weft::llm

#include "dialects/LLM/IR/LLMEnums.h.inc"

#define GET_TYPEDEF_CLASSES
#include "dialects/LLM/IR/LLMOpsTypes.h.inc"

#define GET_ATTRDEF_CLASSES
#include "dialects/LLM/IR/LLMAttrs.h.inc"

#define GET_OP_CLASSES
#include "dialects/LLM/IR/LLMOps.h.inc"

namespace weft::llm {

/// Calls `fn(name, symbol)` for every weight `op` reads, `name` being the
/// attribute that names it ("q", "up_bias", "table", ...).
void forEachWeightRef(
    mlir::Operation *op,
    llvm::function_ref<void(llvm::StringRef, mlir::FlatSymbolRefAttr)> fn);

/// The `llm.stage` of an op or function, if it has one.
std::optional<int64_t> getStage(mlir::Operation *op);
void setStage(mlir::Operation *op, int64_t stage);

} // namespace weft::llm

#endif // WEFT_DIALECTS_LLM_IR_LLMOPS_H
