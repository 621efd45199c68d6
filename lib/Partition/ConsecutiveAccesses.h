//===- ConsecutiveAccesses.h - Accesses that walk rows ----------*- C++ -*-===//
//
// Private to WeftPartition: which loop of a pair walks consecutive elements
// in more of its accesses, the question dist-interchange-inner and
// dist-interchange-local ask (and report) before swapping them.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_LIB_PARTITION_CONSECUTIVEACCESSES_H
#define WEFT_LIB_PARTITION_CONSECUTIVEACCESSES_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"

namespace weft {

/// How many of the distinct accesses in `loop` (an accumulator's load and
/// store count once) walk consecutive elements along `iv`: one step of
/// `iv` moves their last subscript by 1 or -1 and no other subscript.
unsigned consecutiveAccesses(mlir::affine::AffineForOp loop, mlir::Value iv);

/// Whether `inner`, an innermost loop in `outer`, may move around it and
/// gains by it, the questions the ops answer: neither has results,
/// `inner`'s bounds use nothing defined in `outer`, and along `outer` fewer
/// of its accesses jump (move, but not to the next element), or as many
/// and more walk consecutive elements, than along `inner`. (Whether the
/// dependences allow it is ISL's question: LoopReordering.h.)
bool worthMoving(mlir::affine::AffineForOp outer,
                 mlir::affine::AffineForOp inner);

} // namespace weft

#endif // WEFT_LIB_PARTITION_CONSECUTIVEACCESSES_H
