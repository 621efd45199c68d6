//===- FoldLaunchSizes.cpp - Launch sizes as the host computes them -------===//
//
// Implements gpu-fold-launch-sizes: convert-parallel-loops-to-gpu sizes a
// launch as `(ub - lb) ceildiv step` of each mapped scf.parallel loop, an
// affine.apply whose lower bound (0) and step (1) are symbols. Folding the
// constants into the map leaves the block counts gpu-map-loops computed,
// instead of a rounding-up division by 1 in the host code of every launch.
//
//===----------------------------------------------------------------------===//
#include "weft/GPU/Passes.h"

#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace weft {
#define GEN_PASS_DEF_GPUFOLDLAUNCHSIZES
#include "weft/GPU/Passes.h.inc"
} // namespace weft

using namespace mlir;
using namespace weft;

namespace {
struct GpuFoldLaunchSizes
    : weft::impl::GpuFoldLaunchSizesBase<GpuFoldLaunchSizes> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<Operation *> sizes;
    getOperation().walk([&](gpu::LaunchOp launch) {
      for (Value size : {launch.getGridSizeX(), launch.getGridSizeY(),
                         launch.getGridSizeZ(), launch.getBlockSizeX(),
                         launch.getBlockSizeY(), launch.getBlockSizeZ()})
        if (auto apply = size.getDefiningOp<affine::AffineApplyOp>())
          sizes.push_back(apply);
    });
    RewritePatternSet patterns(&getContext());
    affine::AffineApplyOp::getCanonicalizationPatterns(patterns, &getContext());
    GreedyRewriteConfig config;
    config.strictMode = GreedyRewriteStrictness::ExistingAndNewOps;
    if (failed(applyOpPatternsAndFold(sizes, std::move(patterns), config)))
      return signalPassFailure();
  }
};
} // end anonymous namespace
