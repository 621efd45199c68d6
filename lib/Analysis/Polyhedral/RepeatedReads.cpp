//===- RepeatedReads.cpp - Reads that repeat an earlier read --------------===//
//
// Part of the polyhedral model (ModelBuilder): see RepeatedReads.h.
//
//===----------------------------------------------------------------------===//
#include "RepeatedReads.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;

bool weft::detail::sameRead(affine::AffineLoadOp a, affine::AffineLoadOp b) {
  return a && b && a.getMemRef() == b.getMemRef() &&
         a.getAffineMap() == b.getAffineMap() &&
         a.getMapOperands() == b.getMapOperands();
}

/// Whether `op` may write memory.
static bool mayWrite(Operation *op) {
  return op
      ->walk([](Operation *inner) {
        return isa<affine::AffineStoreOp, memref::StoreOp, func::CallOp>(inner)
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

bool weft::detail::repeatsEarlierRead(affine::AffineLoadOp load) {
  for (Operation *at = load;; at = at->getParentOp()) {
    for (Operation *prev = at->getPrevNode(); prev;
         prev = prev->getPrevNode()) {
      if (sameRead(dyn_cast<affine::AffineLoadOp>(prev), load))
        return true;
      if (mayWrite(prev))
        return false;
    }
    // Then the ops before the `?:` around this one, in its block.
    if (!isa<scf::IfOp>(at->getParentOp()))
      return false;
  }
}
