//===- LLMDialect.h - llm dialect -------------------------------*- C++ -*-===//
#ifndef WEFT_DIALECTS_LLM_IR_LLMDIALECT_H
#define WEFT_DIALECTS_LLM_IR_LLMDIALECT_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Quant/QuantOps.h"
#include "mlir/IR/Dialect.h"

#include "dialects/LLM/IR/LLMOpsDialect.h.inc"

#endif // WEFT_DIALECTS_LLM_IR_LLMDIALECT_H
