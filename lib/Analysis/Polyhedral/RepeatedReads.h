//===- RepeatedReads.h - Reads that repeat an earlier read ------*- C++ -*-===//
//
// Private to WeftPolyhedral. C's `?:` evaluates the chosen operand again in
// its branch (an scf.if); such a read sees what the read before it saw.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_LIB_ANALYSIS_POLYHEDRAL_REPEATEDREADS_H
#define WEFT_LIB_ANALYSIS_POLYHEDRAL_REPEATEDREADS_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"

namespace weft::detail {

/// Whether `a` and `b` read the same element with the same operands.
bool sameRead(mlir::affine::AffineLoadOp a, mlir::affine::AffineLoadOp b);

/// Whether an earlier read of the same element, with no write between, is
/// in `load`'s block or, through the `?:` around it, in the enclosing ones.
bool repeatsEarlierRead(mlir::affine::AffineLoadOp load);

} // namespace weft::detail

#endif // WEFT_LIB_ANALYSIS_POLYHEDRAL_REPEATEDREADS_H
