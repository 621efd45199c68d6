//===- LLMAttrs.cpp - llm dialect attributes ------------------------------===//
#include "dialects/LLM/IR/LLMOps.h"

#include "mlir/IR/DialectImplementation.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace weft::llm;

#include "dialects/LLM/IR/LLMEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "dialects/LLM/IR/LLMAttrs.cpp.inc"

void LLMDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "dialects/LLM/IR/LLMAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// #llm.group_quant
//===----------------------------------------------------------------------===//

LogicalResult
GroupQuantAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                       QuantFormat, int64_t groupSize) {
  // Groups start on a block of 8 codes, which kernels decode at once.
  if (groupSize <= 0 || groupSize % 8)
    return emitError() << "group_size must be a positive multiple of 8, got "
                       << groupSize;
  return success();
}

LogicalResult GroupQuantAttr::verifyEncoding(
    ArrayRef<int64_t> shape, Type elementType,
    function_ref<InFlightDiagnostic()> emitError) const {
  if (shape.size() != 2)
    return emitError() << "group-wise quantisation needs a matrix, got rank "
                       << shape.size();
  auto quant = llvm::dyn_cast<quant::AnyQuantizedType>(elementType);
  if (!quant)
    return emitError() << "group-wise quantised elements must be "
                          "!quant.any<uB:f32>, got "
                       << elementType;
  unsigned bits = quant.getStorageTypeIntegralWidth();
  if (quant.isSigned() || bits < 2 || bits > 8)
    return emitError() << "group-wise codes must be unsigned and 2 to 8 bits "
                          "wide, got "
                       << elementType;
  if (!quant.getExpressedType() || !quant.getExpressedType().isF32())
    return emitError() << "group-wise codes must express f32, got "
                       << elementType;
  return success();
}

//===----------------------------------------------------------------------===//
// #llm.stage and #llm.plan
//===----------------------------------------------------------------------===//

LogicalResult StageAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                StringRef device, StringRef deviceType,
                                int64_t memoryBytes) {
  if (device.empty() || deviceType.empty())
    return emitError() << "a stage needs a device and a device type";
  if (memoryBytes < 0)
    return emitError() << "memory_bytes must be non-negative, got "
                       << memoryBytes;
  return success();
}

LogicalResult PlanAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                               int64_t prefillMicrobatch,
                               int64_t decodeMicrobatch, int64_t batch,
                               int64_t promptLen, int64_t genLen,
                               StringRef profile, BoolAttr profileEstimated,
                               ArrayAttr stages) {
  std::pair<const char *, int64_t> sizes[] = {
      {"prefill_microbatch", prefillMicrobatch},
      {"decode_microbatch", decodeMicrobatch},
      {"batch", batch},
      {"prompt_len", promptLen},
      {"gen_len", genLen}};
  for (auto [name, value] : sizes)
    if (value < 1)
      return emitError() << name << " must be at least 1, got " << value;
  if (!profileEstimated)
    return emitError() << "profile_estimated must be true or false";
  if (!stages || stages.empty())
    return emitError() << "a plan needs at least one stage";
  for (Attribute s : stages)
    if (!llvm::isa<StageAttr>(s))
      return emitError() << "stages must be #llm.stage attributes, got " << s;
  return success();
}

SmallVector<StageAttr> PlanAttr::getStageList() const {
  return llvm::to_vector(llvm::map_range(
      getStages(), [](Attribute a) { return llvm::cast<StageAttr>(a); }));
}
