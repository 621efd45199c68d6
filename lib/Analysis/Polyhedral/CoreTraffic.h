//===- CoreTraffic.h - What one CPU core does for a loop nest ---*- C++ -*-===//
//
// Private to WeftPolyhedral (built with exceptions): what one CPU core does
// when it runs some statements of the model, at sizes fixed: the bytes each
// level of its caches fetches, the bytes its loads and stores move, its
// flops, the operations it cannot vectorise and the chains its innermost
// loops carry. Both the CUDA targets' host side and the MPI partitioner's
// work term predict one core's time from it (cost::predictCoreSeconds).
//
// The estimate walks the loop tree: an iteration of a loop whose data fits
// half a cache (the rest for what else runs) finds, at the next iteration,
// what the previous one brought in, so the whole loop fetches its footprint
// once; an iteration that does not fit starts cold, and the loop fetches its
// trip count times what its body fetches. Footprints are the bounding boxes
// of what each access touches, merged where that loses nothing, their runs
// of consecutive elements rounded up to whole cache lines (a column walk
// fetches a line an element). Loops are taken at a typical iteration (the
// middle of their range); trips are counted exactly.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_LIB_ANALYSIS_POLYHEDRAL_CORETRAFFIC_H
#define WEFT_LIB_ANALYSIS_POLYHEDRAL_CORETRAFFIC_H

#include "ModelBuilder.h"

#include "weft/CostModel/LoopNestCost.h"
#include "weft/CostModel/NominalSizes.h"

#include <isl/cpp.h>

namespace weft::detail {

/// Floating-point operations per load or store in `op` (the arithmetic and
/// math ops on floats, constants aside), and whether any is on doubles.
std::pair<double, bool> flopsPerAccess(mlir::Operation *op);

/// What one core of `cpu` does running the statements `statements`
/// (indices into the model's) of the op `root` over all their executions:
/// the bytes it moves, and its flops (the statement instances, counted
/// along the walk's typical iterations, times `root`'s flops per access).
/// `accesses` maps statement instances to the elements they read or write.
/// Symbols are fixed to `known` values, constants, else `sizes`.
cost::CoreWork coreWork(const ModelBuilder &model, isl::ctx ctx,
                        const isl::union_map &accesses,
                        llvm::ArrayRef<unsigned> statements,
                        mlir::Operation *root, const cost::NominalSizes &sizes,
                        const llvm::DenseMap<mlir::Value, int64_t> &known,
                        const cost::DeviceSpec &cpu);

} // namespace weft::detail

#endif // WEFT_LIB_ANALYSIS_POLYHEDRAL_CORETRAFFIC_H
