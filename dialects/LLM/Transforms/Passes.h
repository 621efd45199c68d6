//===- Passes.h - llm dialect passes ----------------------------*- C++ -*-===//
#ifndef WEFT_DIALECTS_LLM_TRANSFORMS_PASSES_H
#define WEFT_DIALECTS_LLM_TRANSFORMS_PASSES_H

#include "dialects/LLM/IR/LLMOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace weft::llm {

#define GEN_PASS_DECL
#include "dialects/LLM/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "dialects/LLM/Transforms/Passes.h.inc"

} // namespace weft::llm

#endif // WEFT_DIALECTS_LLM_TRANSFORMS_PASSES_H
