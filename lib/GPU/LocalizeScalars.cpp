//===- LocalizeScalars.cpp - Private scalar arguments as locals -----------===//
//
// Implements gpu-localize-scalars: a scalar the region writes through a
// rank-0 argument but that is private to the region (symm's `temp2`,
// declared in the kernel's function and used only as a temporary inside
// the region) becomes a local of the region function, as if the region had
// declared it; the loops that write it before reading it in each iteration
// may then run as GPU threads, each with its own copy.
//
//===----------------------------------------------------------------------===//
#include "weft/GPU/Passes.h"

#include "weft/Analysis/Polyhedral/DeviceMapping.h"
#include "weft/Partition/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace weft {
#define GEN_PASS_DEF_GPULOCALIZESCALARS
#include "weft/GPU/Passes.h.inc"
} // namespace weft

using namespace mlir;
using namespace weft;

namespace {
struct GpuLocalizeScalars
    : weft::impl::GpuLocalizeScalarsBase<GpuLocalizeScalars> {
  using Base::Base;
  void runOnOperation() override {
    for (func::FuncOp func : getOperation().getOps<func::FuncOp>()) {
      if (func.isExternal() || !isDistributable(func))
        continue;
      FailureOr<SmallVector<Value>> scalars = failure();
      {
        // Without a model (or past the quota) nothing is localised; the
        // selection of device nests says why.
        ScopedDiagnosticHandler quiet(&getContext(),
                                      [](Diagnostic &) { return success(); });
        PolyhedralRegion region(func);
        scalars = computePrivateScalarArguments(region, maxIslOperations);
      }
      if (failed(scalars))
        continue;
      OpBuilder b(func.getBody());
      for (Value scalar : *scalars) {
        // The argument stays (the call passes it); its name goes to the
        // local.
        auto local = b.create<memref::AllocaOp>(
            scalar.getLoc(), cast<MemRefType>(scalar.getType()));
        scalar.replaceAllUsesWith(local.getResult());
      }
    }
  }
};
} // end anonymous namespace
