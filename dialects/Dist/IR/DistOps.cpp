//===- DistOps.cpp - Dist dialect operations --------------------*- C++ -*-===//
//
// Part of the weft project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// This file implements the operations of the dist dialect: custom assembly
// pieces, type inference, verifiers and folders.
//
//===----------------------------------------------------------------------===//

#include "dialects/Dist/IR/DistOps.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;
using namespace weft::dist;

//===----------------------------------------------------------------------===//
// Custom assembly pieces
//===----------------------------------------------------------------------===//

/// slice ::= (`[` offsets `]` `[` sizes `]`)?
/// Each list mixes integers and index values, as in memref.subview.
static ParseResult
parseSlice(OpAsmParser &parser,
           SmallVectorImpl<OpAsmParser::UnresolvedOperand> &offsets,
           DenseI64ArrayAttr &staticOffsets,
           SmallVectorImpl<OpAsmParser::UnresolvedOperand> &sizes,
           DenseI64ArrayAttr &staticSizes) {
  DenseI64ArrayAttr parsedOffsets;
  if (parseDynamicIndexList(parser, offsets, parsedOffsets,
                            /*valueTypes=*/nullptr,
                            AsmParser::Delimiter::OptionalSquare))
    return failure();
  if (parsedOffsets.empty())
    return success(); // No slice: the whole buffer.
  staticOffsets = parsedOffsets;
  return parseDynamicIndexList(parser, sizes, staticSizes);
}

static void printSlice(OpAsmPrinter &printer, Operation *op,
                       OperandRange offsets, DenseI64ArrayAttr staticOffsets,
                       OperandRange sizes, DenseI64ArrayAttr staticSizes) {
  if (!staticOffsets || !staticSizes)
    return;
  printDynamicIndexList(printer, op, offsets, staticOffsets);
  printer << ' ';
  printDynamicIndexList(printer, op, sizes, staticSizes);
}

/// The result type of ops that take a scalar or a memref: a scalar operand
/// yields a result of its own type, a memref is updated in place.
static ParseResult parseScalarResult(OpAsmParser &parser, Type valueType,
                                     Type &resultType) {
  if (!isa<MemRefType>(valueType))
    resultType = valueType;
  return success();
}

static void printScalarResult(OpAsmPrinter &, Operation *, Type, Type) {}

//===----------------------------------------------------------------------===//
// Verification helpers
//===----------------------------------------------------------------------===//

static std::optional<int64_t> getConstant(Value value) {
  if (!value)
    return std::nullopt;
  return getConstantIntValue(value);
}

/// A linear rank given as a constant must be non-negative and, when the
/// number of processes is known, below it.
static LogicalResult verifyRank(Operation *op, Value rank, StringRef what,
                                std::optional<int64_t> numProcesses = {}) {
  std::optional<int64_t> value = getConstant(rank);
  if (!value)
    return success();
  if (*value < 0)
    return op->emitOpError()
           << what << " rank must be non-negative, got " << *value;
  if (numProcesses && *value >= *numProcesses)
    return op->emitOpError()
           << what << " rank " << *value << " is out of range for a grid of "
           << *numProcesses << " processes";
  return success();
}

/// Checks the optional slice `[offsets] [sizes]` of a buffer.
static LogicalResult verifySlice(Operation *op, Type type, ValueRange offsets,
                                 DenseI64ArrayAttr staticOffsets,
                                 ValueRange sizes,
                                 DenseI64ArrayAttr staticSizes) {
  if (!staticOffsets && !staticSizes) {
    if (!offsets.empty() || !sizes.empty())
      return op->emitOpError("has slice operands but no slice");
    return success();
  }
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref)
    return op->emitOpError("can only slice a memref operand");
  if (!staticOffsets || !staticSizes)
    return op->emitOpError("needs both slice offsets and slice sizes");
  int64_t rank = memref.getRank();
  if (static_cast<int64_t>(staticOffsets.size()) != rank ||
      static_cast<int64_t>(staticSizes.size()) != rank)
    return op->emitOpError()
           << "slice of a rank-" << rank << " memref needs " << rank
           << " offsets and sizes, got " << staticOffsets.size() << " and "
           << staticSizes.size();
  if (failed(verifyListOfOperandsOrIntegers(
          op, "offset", rank, staticOffsets.asArrayRef(), offsets)) ||
      failed(verifyListOfOperandsOrIntegers(op, "size", rank,
                                            staticSizes.asArrayRef(), sizes)))
    return failure();
  for (int64_t d = 0; d < rank; ++d) {
    int64_t offset = staticOffsets[d], size = staticSizes[d];
    if (!ShapedType::isDynamic(offset) && offset < 0)
      return op->emitOpError() << "slice offset along dimension " << d
                               << " must be non-negative, got " << offset;
    if (!ShapedType::isDynamic(size) && size < 0)
      return op->emitOpError() << "slice size along dimension " << d
                               << " must be non-negative, got " << size;
    if (ShapedType::isDynamic(offset) || ShapedType::isDynamic(size) ||
        memref.isDynamicDim(d))
      continue;
    if (offset + size > memref.getDimSize(d))
      return op->emitOpError() << "slice [" << offset << ", " << offset + size
                               << ") exceeds dimension " << d << " of extent "
                               << memref.getDimSize(d);
  }
  return success();
}

/// A scalar operand yields one result of the same type; a memref none.
static LogicalResult verifyScalarResult(Operation *op, Type valueType,
                                        Value result) {
  if (isa<MemRefType>(valueType)) {
    if (result)
      return op->emitOpError("updates a memref in place and has no result");
    return success();
  }
  if (!result || result.getType() != valueType)
    return op->emitOpError()
           << "on a scalar must yield one result of type " << valueType;
  return success();
}

//===----------------------------------------------------------------------===//
// Process queries
//===----------------------------------------------------------------------===//

/// Result types of the ops that return one index per grid axis.
static LogicalResult inferIndexPerGridAxis(MLIRContext *context, GridAttr grid,
                                           SmallVectorImpl<Type> &types) {
  if (!grid)
    return failure();
  types.assign(grid.getRank(), IndexType::get(context));
  return success();
}

LogicalResult GridShapeOp::inferReturnTypes(
    MLIRContext *context, std::optional<Location> location, ValueRange operands,
    DictionaryAttr attributes, OpaqueProperties properties, RegionRange regions,
    SmallVectorImpl<Type> &inferredReturnTypes) {
  Adaptor adaptor(operands, attributes, properties, regions);
  return inferIndexPerGridAxis(context, adaptor.getGrid(), inferredReturnTypes);
}

LogicalResult GridShapeOp::verify() {
  std::optional<ArrayRef<int64_t>> preferred = getPreferred();
  if (!preferred)
    return success();
  GridAttr grid = getGrid();
  if (preferred->size() != grid.getRank())
    return emitOpError() << "prefers " << preferred->size()
                         << " extents for a grid of rank " << grid.getRank();
  for (unsigned axis = 0; axis < grid.getRank(); ++axis)
    if (!grid.isDynamicAxis(axis))
      return emitOpError("prefers extents for a grid with a static extent");
  if (llvm::any_of(*preferred, [](int64_t e) { return e < 0; }))
    return emitOpError("prefers a negative extent");
  return success();
}

LogicalResult GridShapeOp::fold(FoldAdaptor adaptor,
                                SmallVectorImpl<OpFoldResult> &results) {
  GridAttr grid = getGrid();
  if (!grid.hasStaticShape())
    return failure();
  Builder builder(getContext());
  for (int64_t extent : grid.getShape())
    results.push_back(builder.getIndexAttr(extent));
  return success();
}

//===----------------------------------------------------------------------===//
// Index arithmetic of a distributed dimension
//===----------------------------------------------------------------------===//

/// Checks the number of processes of the grid axis and, when given, the
/// coordinate on it.
static LogicalResult verifyDimQuery(Operation *op, Value extent, Value coord) {
  std::optional<int64_t> numProcs = getConstant(extent);
  if (numProcs && *numProcs <= 0)
    return op->emitOpError() << "number of processes along the grid axis "
                                "must be positive, got "
                             << *numProcs;
  std::optional<int64_t> c = getConstant(coord);
  if (c && (*c < 0 || (numProcs && *c >= *numProcs)))
    return op->emitOpError()
           << "coordinate " << *c << " is outside [0, "
           << (numProcs ? std::to_string(*numProcs) : std::string("extent"))
           << ")";
  return success();
}

LogicalResult LocalBoundsOp::verify() {
  return verifyDimQuery(*this, getExtent(), getCoord());
}

LogicalResult LocalBoundsOp::fold(FoldAdaptor adaptor,
                                  SmallVectorImpl<OpFoldResult> &results) {
  // A replicated dimension, or a block or cyclic one over a single process,
  // is owned entirely: [lb, ub) with step 1.
  DistKind kind = getDistribution().getKind();
  bool whole = kind == DistKind::Replicated;
  if (kind == DistKind::Block || kind == DistKind::Cyclic)
    whole = getConstant(getExtent()) == 1;
  if (!whole)
    return failure();
  results.push_back(getLowerBound());
  results.push_back(getUpperBound());
  results.push_back(Builder(getContext()).getIndexAttr(1));
  return success();
}

//===----------------------------------------------------------------------===//
// Collectives
//===----------------------------------------------------------------------===//

LogicalResult BroadcastOp::verify() {
  if (failed(verifyRank(*this, getRoot(), "root")) ||
      failed(verifyScalarResult(*this, getValue().getType(), getResult())))
    return failure();
  return verifySlice(*this, getValue().getType(), getOffsets(),
                     getStaticOffsetsAttr(), getSizes(), getStaticSizesAttr());
}

LogicalResult AllReduceOp::verify() {
  return verifyScalarResult(*this, getValue().getType(), getResult());
}

//===----------------------------------------------------------------------===//
// Generated definitions
//===----------------------------------------------------------------------===//

#define GET_OP_CLASSES
#include "dialects/Dist/IR/DistOps.cpp.inc"
