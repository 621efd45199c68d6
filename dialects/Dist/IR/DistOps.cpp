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

using namespace mlir;
using namespace weft::dist;

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
  if (!getWeights().empty() &&
      (getWeights().size() != 2 ||
       getDistribution().getKind() != DistKind::Block))
    return emitOpError("takes two weights (first and last index), and only "
                       "for a block distribution");
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
// Messages of exact element sets
//===----------------------------------------------------------------------===//

SmallVector<StringRef> weft::dist::getElementSetParams(StringRef set) {
  SmallVector<StringRef> names;
  set = set.ltrim();
  if (!set.starts_with("["))
    return names;
  StringRef list = set.drop_front().take_until([](char c) { return c == ']'; });
  SmallVector<StringRef> parts;
  list.split(parts, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef part : parts)
    if (!part.trim().empty())
      names.push_back(part.trim());
  return names;
}

/// The checks every message op shares; ISL itself reads the set when
/// convert-dist-to-emitc encodes it.
template <typename Op>
static LogicalResult verifyElements(Op op) {
  MemRefType type = op.getArray().getType();
  if (type.getRank() > kMaxElementSetDims)
    return op.emitOpError() << "carries elements of a rank-" << type.getRank()
                            << " array; the runtime takes "
                            << kMaxElementSetDims << " subscripts at most";
  StringRef set = op.getElements().trim();
  size_t open = set.find('{');
  if (open == StringRef::npos || !set.ends_with("}") ||
      (set.starts_with("[") && !set.take_front(open).contains("->")))
    return op.emitOpError() << "'elements' must be an ISL set, got \""
                            << op.getElements() << "\"";
  size_t names = getElementSetParams(set).size();
  if (names != op.getParams().size())
    return op.emitOpError() << "the set has " << names << " parameters, but "
                            << op.getParams().size() << " values are given";
  if (names > kMaxElementSetParams)
    return op.emitOpError()
           << "the set has " << names << " parameters; the runtime takes "
           << kMaxElementSetParams << " at most";
  if (!op.getOrigin().empty() &&
      (int64_t)op.getOrigin().size() != type.getRank())
    return op.emitOpError()
           << "needs one origin subscript per dimension (" << type.getRank()
           << "), got " << op.getOrigin().size();
  return success();
}

LogicalResult ISendOp::verify() {
  if (failed(verifyRank(*this, getPeer(), "peer")))
    return failure();
  return verifyElements(*this);
}

LogicalResult IRecvOp::verify() {
  if (failed(verifyRank(*this, getPeer(), "peer")))
    return failure();
  return verifyElements(*this);
}

LogicalResult BroadcastOp::verify() {
  if (failed(verifyRank(*this, getRoot(), "root")))
    return failure();
  return verifyElements(*this);
}

LogicalResult AllReduceOp::verify() { return verifyElements(*this); }

//===----------------------------------------------------------------------===//
// Generated definitions
//===----------------------------------------------------------------------===//

#define GET_OP_CLASSES
#include "dialects/Dist/IR/DistOps.cpp.inc"
