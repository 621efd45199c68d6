//===- RuntimeCalls.h - Functions that call the MPI runtime -----*- C++ -*-===//
#ifndef WEFT_SUPPORT_RUNTIMECALLS_H
#define WEFT_SUPPORT_RUNTIMECALLS_H

#include "mlir/Dialect/EmitC/IR/EmitC.h"

namespace weft {

/// Whether `op` holds a call of weft's runtime (`weft_rt_*`, the lowered
/// dist ops of convert-dist-to-emitc): a distributed form, once its dist
/// ops are lowered (a dispatcher's overlap check calls it too).
inline bool callsRuntime(mlir::Operation *op) {
  return op
      ->walk([](mlir::emitc::CallOpaqueOp call) {
        return call.getCallee().starts_with("weft_rt_")
                   ? mlir::WalkResult::interrupt()
                   : mlir::WalkResult::advance();
      })
      .wasInterrupted();
}

} // namespace weft

#endif // WEFT_SUPPORT_RUNTIMECALLS_H
