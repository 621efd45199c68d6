//===- LLMDialect.cpp - llm dialect ---------------------------------------===//
#include "dialects/LLM/IR/LLMDialect.h"
#include "dialects/LLM/IR/LLMOps.h"

using namespace mlir;
using namespace weft::llm;

#include "dialects/LLM/IR/LLMOpsDialect.cpp.inc"

void LLMDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "dialects/LLM/IR/LLMOps.cpp.inc"
      >();
}
