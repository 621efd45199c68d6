//===- LLMOps.h - llm dialect operations ------------------------*- C++ -*-===//
#ifndef WEFT_DIALECTS_LLM_IR_LLMOPS_H
#define WEFT_DIALECTS_LLM_IR_LLMOPS_H

#include "dialects/LLM/IR/LLMDialect.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"

#define GET_OP_CLASSES
#include "dialects/LLM/IR/LLMOps.h.inc"

#endif // WEFT_DIALECTS_LLM_IR_LLMOPS_H
