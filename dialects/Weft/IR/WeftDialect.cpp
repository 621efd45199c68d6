//===- WeftDialect.cpp - The weft dialect -----------------------*- C++ -*-===//
//
// Part of the weft project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Verifies the `weft.*` attributes where they appear: a misplaced or
// malformed one is an error at the op, so that no pass reads a fact the
// front end did not state.
//
//===----------------------------------------------------------------------===//
#include "dialects/Weft/IR/WeftDialect.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/EmitC/IR/EmitC.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

using namespace mlir;
using namespace weft;

#include "dialects/Weft/IR/WeftDialect.cpp.inc"

void WeftDialect::initialize() {}

/// Whether `name` is one of the attributes that annotate a memref argument
/// with a unit value.
static bool isUnitArrayAttr(StringRef name) {
  return name == WeftDialect::getMayAliasAttrName() ||
         name == WeftDialect::getNoAliasAttrName() ||
         name == WeftDialect::getRegionOnlyAttrName() ||
         name == WeftDialect::getLocalAttrName();
}

LogicalResult WeftDialect::verifyOperationAttribute(Operation *op,
                                                    NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  if (name == getParallelAttrName()) {
    if (!isa<UnitAttr>(attr.getValue()) || !isa<LoopLikeOpInterface>(op))
      return op->emitOpError()
             << "'" << name << "' must be a unit attribute on a loop";
    return success();
  }
  if (name == getGpuInterchangedAttrName()) {
    if (!isa<UnitAttr>(attr.getValue()) || !isa<affine::AffineForOp>(op))
      return op->emitOpError()
             << "'" << name << "' must be a unit attribute on affine.for";
    return success();
  }
  if (name == getCIntAttrName() || name == getUnrollAttrName()) {
    if (!isa<UnitAttr>(attr.getValue()) || !isa<scf::ForOp, emitc::ForOp>(op))
      return op->emitOpError() << "'" << name
                               << "' must be a unit attribute on scf.for or "
                                  "emitc.for";
    return success();
  }
  if (name == getNoDistAttrName()) {
    if (!isa<UnitAttr>(attr.getValue()) || !isa<FunctionOpInterface>(op))
      return op->emitOpError()
             << "'" << name << "' must be a unit attribute on a function";
    return success();
  }
  if (name == getGpuBandAttrName() || name == getGpuCoalescedAttrName() ||
      name == getGpuTileAttrName() || name == getGpuPartsAttrName() ||
      name == getGpuGridBlocksAttrName()) {
    auto value = dyn_cast<IntegerAttr>(attr.getValue());
    if (!value || !isa<LoopLikeOpInterface>(op) || value.getInt() < 0)
      return op->emitOpError()
             << "'" << name << "' must be a non-negative integer on a loop";
    return success();
  }
  if (name == getGpuBlockAttrName()) {
    auto value = dyn_cast<DenseI64ArrayAttr>(attr.getValue());
    if (!value || !isa<LoopLikeOpInterface>(op) || value.empty() ||
        value.size() > 3 ||
        llvm::any_of(value.asArrayRef(), [](int64_t t) { return t < 1; }))
      return op->emitOpError() << "'" << name
                               << "' must be 1 to 3 positive thread counts "
                                  "on a loop";
    return success();
  }
  if (name == getGpuCoarsenAttrName()) {
    auto value = dyn_cast<DenseI64ArrayAttr>(attr.getValue());
    if (!value || !isa<LoopLikeOpInterface>(op) || value.size() != 2 ||
        llvm::any_of(value.asArrayRef(), [](int64_t t) { return t < 1; }))
      return op->emitOpError() << "'" << name
                               << "' must be 2 positive element counts on a "
                                  "loop";
    return success();
  }
  if (name == getGpuPlaceAttrName()) {
    auto value = dyn_cast<StringAttr>(attr.getValue());
    if (!value || !isa<LoopLikeOpInterface>(op) ||
        (value.getValue() != "device" && value.getValue() != "host"))
      return op->emitOpError()
             << "'" << name << "' must be \"device\" or \"host\" on a loop";
    return success();
  }
  if (name == getGpuReduceAttrName()) {
    auto value = dyn_cast<StringAttr>(attr.getValue());
    if (!value || !isa<affine::AffineStoreOp, memref::AtomicRMWOp>(op) ||
        !llvm::is_contained({"add", "mul", "max", "min"}, value.getValue()))
      return op->emitOpError() << "'" << name
                               << "' must be \"add\", \"mul\", \"max\" or "
                                  "\"min\" on affine.store or "
                                  "memref.atomic_rmw";
    return success();
  }
  if (name == getGpuResidentAttrName()) {
    if (!isa<UnitAttr>(attr.getValue()) ||
        !isa<gpu::AllocOp, gpu::MemcpyOp, gpu::DeallocOp>(op))
      return op->emitOpError() << "'" << name
                               << "' must be a unit attribute on gpu.alloc, "
                                  "gpu.memcpy or gpu.dealloc";
    return success();
  }
  if (name == getCSpecifiersAttrName()) {
    auto specifiers = dyn_cast<ArrayAttr>(attr.getValue());
    if (!specifiers || !isa<FunctionOpInterface, memref::AllocaOp>(op) ||
        !llvm::all_of(specifiers,
                      [](Attribute a) { return isa<StringAttr>(a); }))
      return op->emitOpError() << "'" << name
                               << "' must be an array of strings on a "
                                  "function or a memref.alloca";
    return success();
  }
  if (name == getCArgAttrName() || name == getCTypeAttrName() ||
      name == getDimArgsAttrName() ||
      isUnitArrayAttr(name))
    return op->emitOpError()
           << "'" << name << "' annotates a function argument, not an op";
  return op->emitOpError() << "has unknown weft attribute '" << name << "'";
}

LogicalResult WeftDialect::verifyRegionArgAttribute(Operation *op,
                                                    unsigned regionIndex,
                                                    unsigned argIndex,
                                                    NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  auto func = dyn_cast<FunctionOpInterface>(op);
  if (!func)
    return op->emitOpError()
           << "'" << name << "' annotates function arguments only";
  Type type = func.getArgumentTypes()[argIndex];
  auto error = [&]() {
    return op->emitOpError()
           << "argument " << argIndex << ": '" << name << "' ";
  };
  if (name == getCArgAttrName()) {
    if (!isa<StringAttr>(attr.getValue()))
      return error() << "must be a string (the C expression of the call)";
    return success();
  }
  auto memref = dyn_cast<MemRefType>(type);
  if (name == getCTypeAttrName()) {
    if (!isa<StringAttr>(attr.getValue()) ||
        !isa<MemRefType, emitc::OpaqueType, emitc::PointerType>(type))
      return error() << "must be a string (the C element type) on a memref "
                        "argument";
    return success();
  }
  if (isUnitArrayAttr(name)) {
    if (!isa<UnitAttr>(attr.getValue()) || !memref)
      return error() << "must be a unit attribute on a memref argument";
    return success();
  }
  if (name == getDimArgsAttrName()) {
    // A memref, or its C form (convert-loops-to-emitc): a pointer to rows
    // spelled `T (*)[E1]...`, with `i64` extents.
    int64_t rank = memref ? memref.getRank() : -1;
    if (auto opaque = dyn_cast<emitc::OpaqueType>(type);
        opaque && opaque.getValue().contains("(*"))
      rank = 1 + opaque.getValue().count('[');
    auto dims = dyn_cast<DenseI64ArrayAttr>(attr.getValue());
    if (!dims || rank < 0 || (int64_t)dims.size() != rank)
      return error() << "must be an array<i64> with one entry per dimension "
                        "of a memref argument";
    ArrayRef<Type> argTypes = func.getArgumentTypes();
    for (int64_t arg : dims.asArrayRef()) {
      if (arg == -1)
        continue;
      if (arg < 0 || arg >= (int64_t)argTypes.size() ||
          !(memref ? argTypes[arg].isIndex() : argTypes[arg].isInteger(64)))
        return error() << "entry " << arg
                       << " is neither -1 nor an index argument";
    }
    return success();
  }
  return error() << "is not a weft argument attribute";
}
