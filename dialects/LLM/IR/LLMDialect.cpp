//===- LLMDialect.cpp - llm dialect ---------------------------------------===//
//
// Registers the dialect's types, attributes and operations, and verifies
// `llm.stage` wherever it is used as a discardable attribute.
//
//===----------------------------------------------------------------------===//
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
  registerTypes();
  registerAttributes();
}

LogicalResult LLMDialect::verifyOperationAttribute(Operation *op,
                                                   NamedAttribute attr) {
  if (attr.getName() != getStageAttrName())
    return op->emitError() << "unknown llm attribute '"
                           << attr.getName().getValue() << "'";
  auto stage = dyn_cast<IntegerAttr>(attr.getValue());
  if (!stage || !stage.getType().isInteger(64))
    return op->emitError() << "'" << getStageAttrName()
                           << "' must be an i64 stage index";
  if (stage.getInt() < 0)
    return op->emitError() << "'" << getStageAttrName()
                           << "' must be non-negative, got " << stage.getInt();
  return success();
}

namespace weft::llm {

std::optional<int64_t> getStage(Operation *op) {
  if (auto stage =
          op->getAttrOfType<IntegerAttr>(LLMDialect::getStageAttrName()))
    return stage.getInt();
  return std::nullopt;
}

void setStage(Operation *op, int64_t stage) {
  op->setAttr(LLMDialect::getStageAttrName(),
              IntegerAttr::get(IntegerType::get(op->getContext(), 64), stage));
}

} // namespace weft::llm
