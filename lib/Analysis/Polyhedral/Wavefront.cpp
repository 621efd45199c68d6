//===- Wavefront.cpp - Legality of a wavefront schedule -------------------===//
//
// This file is compiled with exceptions.
//
//===----------------------------------------------------------------------===//
#include "weft/Analysis/Polyhedral/Wavefront.h"

#include "RegionState.h"

#include <isl/map.h>
#include <isl/space.h>

#include <limits>

using namespace mlir;
using weft::detail::ModelBuilder;
using weft::detail::ScheduleEntry;
using weft::detail::Statement;

/// The schedule of the region with the statements inside the loop at
/// `depth` run as the wavefront, as vectors of one length: each statement's
/// schedule vector (positions and iterators), in which the loop's iterator
/// t becomes the stage and the tile, skew * t + floor(i / tile) and
/// floor(i / tile), and END[] after everything.
static std::string wavefrontSchedule(const ModelBuilder &model,
                                     affine::AffineForOp timeLoop,
                                     unsigned depth, int64_t skew,
                                     int64_t tile) {
  std::vector<std::vector<std::string>> vectors;
  size_t length = 1;
  for (const Statement &st : model.getStatements()) {
    bool inside = st.loops.size() > depth + 1 && st.loops[depth] == timeLoop;
    std::vector<std::string> v;
    for (const ScheduleEntry &e : st.schedule) {
      if (!e.isIterator) {
        v.push_back(std::to_string(e.position));
        continue;
      }
      std::string iv = "i" + std::to_string(e.loopDepth);
      if (!inside || e.loopDepth != depth) {
        v.push_back(iv);
        continue;
      }
      std::string block = "floor(i" + std::to_string(depth + 1) + " / " +
                          std::to_string(tile) + ")";
      v.push_back(std::to_string(skew) + " * " + iv + " + " + block);
      v.push_back(block);
    }
    length = std::max(length, v.size());
    vectors.push_back(std::move(v));
  }
  std::string text = model.params() + "{ ";
  for (auto [n, v] : llvm::enumerate(vectors)) {
    v.resize(length, "0");
    text += weft::detail::statementTuple(n, model.getStatements()[n].loops.size()) +
            " -> [" + llvm::join(v, ", ") + "]; ";
  }
  // Positions in the function's body are small; END[] comes after them.
  std::vector<std::string> end(length, "0");
  end[0] = std::to_string(std::numeric_limits<int32_t>::max());
  return text + "END[] -> [" + llvm::join(end, ", ") + "] }";
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
        // The new order computes the same values if every read, and every
        // value live after the region, comes from the same write as
        // before. Reordering what only reuses memory (a scalar temporary
        // rewritten by every iteration) is then allowed.
        const weft::detail::RegionFlow &flow = state.getFlow(maxOperations);
        isl::union_map schedule(
            ctx, wavefrontSchedule(model, timeLoop, depth, skew, tile));
        isl::union_flow reordered =
            isl::union_access_info(flow.reads.unite(flow.endReads))
                .set_must_source(flow.writes)
                .set_schedule_map(schedule)
                .compute_flow();
        keeps = reordered.must_dependence().is_equal(
                    flow.flow.must_dependence()) &&
                reordered.must_no_source().is_equal(
                    flow.flow.must_no_source());
      });
  if (failed(status))
    return failure();
  return keeps;
}
