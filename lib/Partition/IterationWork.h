//===- IterationWork.h - What one iteration of a loop costs -----*- C++ -*-===//
//
// Private to WeftPartition. dist-materialize weights the blocks of a loop
// whose iterations do unequal work (a triangular nest) by the work of its
// first and last iteration, so that each rank gets an equal share of the
// work rather than of the iterations (dist.local_bounds ... weighted).
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_LIB_PARTITION_ITERATIONWORK_H
#define WEFT_LIB_PARTITION_ITERATIONWORK_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

namespace weft {

/// Whether the work of one iteration of `loop` depends on its iterator:
/// some loop nested in it has bounds that use it.
bool workVariesWithIterator(mlir::affine::AffineForOp loop);

/// Builds, with `b`, the work of the iteration `x` of `loop`: the stores its
/// body executes, inner loops counted by their trip counts. Bounds of inner
/// loops may use `loop`'s iterator (taken as `x`) and values `available`
/// says `b` may use. Fails on anything else (bounds that use an inner
/// loop's iterator or a value computed in the nest, loops other than
/// affine.for): then the work is not a product of trip counts known before
/// the loop runs. Every branch of an `if` counts.
/// `known` maps the iterators of loops around `loop` to the values they
/// take where `b` builds.
mlir::FailureOr<mlir::Value>
buildIterationWork(mlir::OpBuilder &b, mlir::Location loc,
                   mlir::affine::AffineForOp loop, mlir::Value x,
                   llvm::function_ref<bool(mlir::Value)> available,
                   const mlir::IRMapping &known = {});

/// `loop`'s lower and upper bound built with `b`, its operands taken from
/// `known` where it maps them and otherwise used where `available` says
/// `b` may; fails on any other operand.
mlir::FailureOr<std::pair<mlir::Value, mlir::Value>>
buildLoopBounds(mlir::OpBuilder &b, mlir::Location loc,
                mlir::affine::AffineForOp loop, const mlir::IRMapping &known,
                llvm::function_ref<bool(mlir::Value)> available);

/// The bound of `map` (the largest of its results for a lower bound, the
/// smallest for an upper one) at `operands`.
mlir::Value buildBound(mlir::OpBuilder &b, mlir::Location loc,
                       mlir::AffineMap map, mlir::ValueRange operands,
                       bool lower);

} // namespace weft

#endif // WEFT_LIB_PARTITION_ITERATIONWORK_H
