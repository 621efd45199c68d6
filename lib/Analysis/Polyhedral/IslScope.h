//===- IslScope.h - Run ISL code with errors as diagnostics -----*- C++ -*-===//
//
// Private to WeftPolyhedral (built with exceptions): every ISL computation
// runs through runIsl, which turns ISL's exceptions (a blown operations quota
// included) and internal AST errors into an error on the function, never an
// abort.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_LIB_ANALYSIS_POLYHEDRAL_ISLSCOPE_H
#define WEFT_LIB_ANALYSIS_POLYHEDRAL_ISLSCOPE_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <isl/cpp.h>
#include <isl/ctx.h>
#include <isl/options.h>

#include <stdexcept>

namespace weft::detail {

/// Runs `body(ctx)` in `ctx` with a quota of `maxOperations` (0: none). On
/// an ISL error, emits "<what> exceeded its quota of N ISL operations" or
/// "<what> failed: ..." on `at` (the region function, or the op whose set
/// it is) and fails; `ctx` stays usable.
template <typename Body>
mlir::LogicalResult runIsl(isl_ctx *ctx, mlir::Operation *at,
                           llvm::StringRef what, unsigned long maxOperations,
                           Body body) {
  isl_ctx_set_max_operations(ctx, maxOperations);
  isl_ctx_reset_operations(ctx);
  mlir::LogicalResult status = mlir::success();
  try {
    body(isl::ctx(ctx));
  } catch (const isl::exception_quota &) {
    at->emitError() << what << " exceeded its quota of " << maxOperations
                    << " ISL operations";
    status = mlir::failure();
  } catch (const isl::exception &e) {
    at->emitError() << what << " failed: " << e.what();
    status = mlir::failure();
  } catch (const std::runtime_error &e) {
    at->emitError() << what << " failed: " << e.what();
    status = mlir::failure();
  }
  isl_ctx_reset_error(ctx);
  isl_ctx_set_max_operations(ctx, 0);
  return status;
}

} // namespace weft::detail

#endif // WEFT_LIB_ANALYSIS_POLYHEDRAL_ISLSCOPE_H
