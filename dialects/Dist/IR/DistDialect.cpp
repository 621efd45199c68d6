//===- DistDialect.cpp - Dist dialect ---------------------------*- C++ -*-===//
//
// Part of the weft project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// This file registers the dist dialect's operations and attributes, and
// verifies `dist.layout` when it is used as a discardable attribute.
//
//===----------------------------------------------------------------------===//

#include "dialects/Dist/IR/DistDialect.h"
#include "dialects/Dist/IR/DistOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace weft::dist;

#include "dialects/Dist/IR/DistOpsDialect.cpp.inc"

void DistDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "dialects/Dist/IR/DistOps.cpp.inc"
      >();
  registerAttributes();
}

Operation *DistDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                            Type type, Location loc) {
  return arith::ConstantOp::materialize(builder, value, type, loc);
}

//===----------------------------------------------------------------------===//
// `dist.layout` as a discardable attribute
//===----------------------------------------------------------------------===//

/// Number of loops in the perfectly nested band rooted at `loop`: the loop
/// itself, then, as long as a loop body holds exactly one operation besides
/// its terminator and pure index arithmetic, and that operation is a loop,
/// that loop. Loops with several induction variables (affine.parallel) count
/// each of them.
static unsigned getBandDepth(LoopLikeOpInterface loop) {
  unsigned depth = 0;
  while (loop) {
    SmallVector<Region *> regions = loop.getLoopRegions();
    if (regions.size() != 1 || !regions.front()->hasOneBlock())
      break;
    // Loops that do not report their induction variables (affine.parallel in
    // MLIR 19): the body arguments that are not iteration arguments.
    std::optional<SmallVector<Value>> ivs = loop.getLoopInductionVars();
    unsigned numIvs = ivs ? ivs->size()
                          : regions.front()->getNumArguments() -
                                loop.getRegionIterArgs().size();
    if (numIvs == 0)
      break;
    depth += numIvs;
    Operation *only = nullptr;
    bool perfect = true;
    for (Operation &op : regions.front()->front()) {
      // Index arithmetic between two loops (a downward loop's iterator,
      // computed from its normalised one) does not break the band.
      if (op.hasTrait<OpTrait::IsTerminator>() ||
          (op.getNumRegions() == 0 && isPure(&op)))
        continue;
      if (only) {
        perfect = false;
        break;
      }
      only = &op;
    }
    if (!perfect || !only)
      break;
    loop = dyn_cast<LoopLikeOpInterface>(only);
  }
  return depth;
}

static LogicalResult
verifyLayoutOnType(Type type, LayoutAttr layout,
                   function_ref<InFlightDiagnostic()> emitError) {
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref)
    return emitError() << "'dist.layout' annotates a memref, not " << type;
  return layout.verifyMemRefType(memref, emitError);
}

static FailureOr<LayoutAttr> getLayout(Operation *op, NamedAttribute attr) {
  if (attr.getName() != DistDialect::getLayoutAttrName()) {
    op->emitOpError() << "has unknown dist attribute '"
                      << attr.getName().getValue() << "'";
    return failure();
  }
  auto layout = dyn_cast<LayoutAttr>(attr.getValue());
  if (!layout) {
    op->emitOpError() << "'dist.layout' must be a #dist.layout, got "
                      << attr.getValue();
    return failure();
  }
  return layout;
}

LogicalResult DistDialect::verifyOperationAttribute(Operation *op,
                                                    NamedAttribute attr) {
  if (attr.getName() == getGridAttrName()) {
    if (!isa<GridAttr>(attr.getValue()))
      return op->emitOpError() << "'dist.grid' must be a #dist.grid, got "
                               << attr.getValue();
    if (!isa<FunctionOpInterface>(op))
      return op->emitOpError() << "cannot carry 'dist.grid': expected a "
                                  "function";
    return success();
  }
  // dist-alias-check's forms of a region: the region as written, the
  // dispatcher that chooses, and the distributed form, which runs only on
  // arguments that do not overlap.
  if (attr.getName() == getSequentialAttrName() ||
      attr.getName() == getAliasCheckAttrName() ||
      attr.getName() == getArgsDisjointAttrName()) {
    if (!isa<UnitAttr>(attr.getValue()) || !isa<FunctionOpInterface>(op))
      return op->emitOpError()
             << "'" << attr.getName().getValue()
             << "' must be a unit attribute on a function";
    return success();
  }
  // The partitioner's decisions, between dist-partition and
  // dist-materialize: a unit of work, and how a loop unit is split.
  if (attr.getName() == getUnitAttrName()) {
    if (!isa<UnitAttr>(attr.getValue()))
      return op->emitOpError() << "'dist.unit' must be a unit attribute";
    return success();
  }
  if (attr.getName() == getInterchangeAttrName()) {
    if (!isa<UnitAttr>(attr.getValue()) || !isa<LoopLikeOpInterface>(op))
      return op->emitOpError() << "'dist.interchange' must be a unit "
                                  "attribute on a loop";
    return success();
  }
  if (attr.getName() == getReduceAttrName()) {
    auto kind = dyn_cast<StringAttr>(attr.getValue());
    if (!kind ||
        !llvm::is_contained({"add", "mul", "max", "min"}, kind.getValue()))
      return op->emitOpError() << "'dist.reduce' must be \"add\", \"mul\", "
                                  "\"max\" or \"min\", got "
                               << attr.getValue();
    return success();
  }
  // The pieces of a loop split at its pivot (dist-split-pivots), which
  // share one block distribution.
  if (attr.getName() == getPivotSplitAttrName()) {
    if (!isa<IntegerAttr>(attr.getValue()) || !isa<LoopLikeOpInterface>(op))
      return op->emitOpError() << "'dist.pivot_split' must be an integer on "
                                  "a loop";
    return success();
  }
  if (attr.getName() == getDistributeAttrName()) {
    // One loop over all ranks, or the loop and the one inside it over the
    // two axes of a 2-D grid.
    auto dim = dyn_cast<DimDistAttr>(attr.getValue());
    auto grid = dyn_cast<LayoutAttr>(attr.getValue());
    bool gridOk = grid && grid.getRank() == 2 && grid.getGrid().getRank() == 2;
    if ((!dim && !gridOk) || !isa<LoopLikeOpInterface>(op) ||
        !op->hasAttr(getUnitAttrName()))
      return op->emitOpError()
             << "'dist.distribute' must be a #dist.dim, or a #dist.layout of "
                "two loops over a 2-D grid, on a loop that is a 'dist.unit'";
    return success();
  }
  FailureOr<LayoutAttr> layout = getLayout(op, attr);
  if (failed(layout))
    return failure();
  auto emitError = [&] { return op->emitOpError(); };

  if (auto loop = dyn_cast<LoopLikeOpInterface>(op)) {
    unsigned depth = getBandDepth(loop);
    if (layout->getRank() > depth)
      return emitError() << "has a 'dist.layout' of rank " << layout->getRank()
                         << " but roots a perfectly nested band of only "
                         << depth << " loop(s)";
    return success();
  }
  if (auto global = dyn_cast<memref::GlobalOp>(op))
    return verifyLayoutOnType(global.getType(), *layout, emitError);
  if (op->getNumResults() == 1 && isa<MemRefType>(op->getResult(0).getType()))
    return verifyLayoutOnType(op->getResult(0).getType(), *layout, emitError);
  return emitError() << "cannot carry 'dist.layout': expected a loop, a "
                        "memref.global or an op with one memref result";
}

LogicalResult DistDialect::verifyRegionArgAttribute(Operation *op,
                                                    unsigned regionIndex,
                                                    unsigned argIndex,
                                                    NamedAttribute attr) {
  FailureOr<LayoutAttr> layout = getLayout(op, attr);
  if (failed(layout))
    return failure();
  Type type;
  if (auto func = dyn_cast<FunctionOpInterface>(op))
    type = func.getArgumentTypes()[argIndex];
  else
    type = op->getRegion(regionIndex).getArgument(argIndex).getType();
  return verifyLayoutOnType(type, *layout, [&] {
    return op->emitOpError() << "argument " << argIndex << ": ";
  });
}

LogicalResult DistDialect::verifyRegionResultAttribute(Operation *op,
                                                       unsigned regionIndex,
                                                       unsigned resultIndex,
                                                       NamedAttribute attr) {
  FailureOr<LayoutAttr> layout = getLayout(op, attr);
  if (failed(layout))
    return failure();
  auto func = dyn_cast<FunctionOpInterface>(op);
  if (!func)
    return op->emitOpError() << "'dist.layout' on a result needs a function";
  return verifyLayoutOnType(func.getResultTypes()[resultIndex], *layout, [&] {
    return op->emitOpError() << "result " << resultIndex << ": ";
  });
}
