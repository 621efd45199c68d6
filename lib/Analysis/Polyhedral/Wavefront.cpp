//===- Wavefront.cpp - Legality of a wavefront schedule -------------------===//
//
// This file is compiled with exceptions.
//
//===----------------------------------------------------------------------===//
#include "weft/Analysis/Polyhedral/Wavefront.h"

#include "RegionState.h"

#include <isl/map.h>
#include <isl/space.h>

using namespace mlir;
using weft::detail::ModelBuilder;
using weft::detail::ScheduleEntry;
using weft::detail::Statement;

/// The wavefront schedule of the statements inside the loop at `depth`, as
/// vectors of `length` entries: the statement's schedule vector (positions
/// and iterators) with the loop's iterator t replaced by the stage and the
/// tile, skew * t + floor(i / tile) and floor(i / tile).
static std::string wavefrontSchedule(const ModelBuilder &model,
                                     affine::AffineForOp timeLoop,
                                     unsigned depth, int64_t skew, int64_t tile,
                                     size_t &length) {
  std::vector<std::pair<unsigned, std::vector<std::string>>> vectors;
  length = 0;
  for (auto [n, st] : llvm::enumerate(model.getStatements())) {
    if (st.loops.size() <= depth + 1 || st.loops[depth] != timeLoop)
      continue;
    std::vector<std::string> v;
    for (const ScheduleEntry &e : st.schedule) {
      if (!e.isIterator) {
        v.push_back(std::to_string(e.position));
        continue;
      }
      std::string iv = "i" + std::to_string(e.loopDepth);
      if (e.loopDepth != depth) {
        v.push_back(iv);
        continue;
      }
      std::string block = "floor(i" + std::to_string(depth + 1) + " / " +
                          std::to_string(tile) + ")";
      v.push_back(std::to_string(skew) + " * " + iv + " + " + block);
      v.push_back(block);
    }
    length = std::max(length, v.size());
    vectors.push_back({(unsigned)n, std::move(v)});
  }
  std::string text = model.params() + "{ ";
  for (auto [k, entry] : llvm::enumerate(vectors)) {
    auto &[n, v] = entry;
    v.resize(length, "0");
    const Statement &st = model.getStatements()[n];
    text += (k ? "; " : "") + weft::detail::statementTuple(n, st.loops.size()) +
            " -> [" + llvm::join(v, ", ") + "]";
  }
  return text + " }";
}

FailureOr<bool> weft::wavefrontKeepsDependences(PolyhedralRegion &region,
                                                affine::AffineForOp timeLoop,
                                                int64_t skew, int64_t tile,
                                                unsigned long maxOperations) {
  weft::detail::PolyhedralRegionState &state = region.getState();
  FailureOr<const ModelBuilder *> built = state.getModel();
  if (failed(built))
    return failure();
  const ModelBuilder &model = **built;
  unsigned depth = 0;
  for (Operation *op = timeLoop->getParentOp(); op; op = op->getParentOp())
    depth += isa<affine::AffineForOp>(op);
  bool keeps = false;
  LogicalResult status = state.run(
      "checking a wavefront schedule", maxOperations, [&](isl::ctx ctx) {
        size_t length = 0;
        isl::union_map schedule(
            ctx, wavefrontSchedule(model, timeLoop, depth, skew, tile, length));
        // Dependences between two instances inside the loop, both sides
        // mapped to their new schedule vectors.
        isl::union_map ordered = state.getDependences(maxOperations)
                                     .all.intersect_domain(schedule.domain())
                                     .intersect_range(schedule.domain())
                                     .apply_domain(schedule)
                                     .apply_range(schedule);
        isl::map before = isl::manage(
            isl_map_lex_lt(isl_space_set_alloc(ctx.get(), 0, length)));
        keeps = ordered.is_subset(isl::union_map(before));
      });
  if (failed(status))
    return failure();
  return keeps;
}
