//===- LLMTypes.cpp - llm dialect types -----------------------------------===//
#include "dialects/LLM/IR/LLMOps.h"

#include "mlir/IR/DialectImplementation.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace weft::llm;

#define GET_TYPEDEF_CLASSES
#include "dialects/LLM/IR/LLMOpsTypes.cpp.inc"

void LLMDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "dialects/LLM/IR/LLMOpsTypes.cpp.inc"
      >();
}

LogicalResult HiddenType::verify(function_ref<InFlightDiagnostic()> emitError,
                                 int64_t dim) {
  if (dim <= 0)
    return emitError() << "hidden state width must be positive, got " << dim;
  return success();
}

LogicalResult LogitsType::verify(function_ref<InFlightDiagnostic()> emitError,
                                 int64_t vocab) {
  if (vocab <= 0)
    return emitError() << "vocabulary size must be positive, got " << vocab;
  return success();
}
