//===- IterationWork.cpp - What one iteration of a loop costs -------------===//
#include "IterationWork.h"
#include "weft/Support/SourceNames.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

using namespace mlir;
using namespace weft;

bool weft::workVariesWithIterator(affine::AffineForOp loop) {
  Value iv = loop.getInductionVar();
  bool varies = false;
  loop.getBody()->walk([&](affine::AffineForOp inner) {
    if (llvm::is_contained(inner->getOperands(), iv))
      varies = true;
  });
  return varies;
}

namespace {
/// Builds the work of a block whose enclosing iterators `subst` maps to
/// the values they take.
class WorkBuilder {
public:
  WorkBuilder(OpBuilder &b, Location loc,
              function_ref<bool(Value)> available)
      : b(b), loc(loc), available(available) {}

  FailureOr<Value> work(Block &body) {
    int64_t statements = 0;
    Value total;
    auto add = [&](Value v) {
      total = total ? b.create<arith::AddIOp>(loc, total, v).getResult() : v;
    };
    for (Operation &op : body) {
      if (auto inner = dyn_cast<affine::AffineForOp>(op)) {
        FailureOr<Value> w = loopWork(inner);
        if (failed(w))
          return failure();
        add(*w);
      } else if (isa<LoopLikeOpInterface>(op)) {
        return failure();
      } else if (op.getNumRegions() != 0) {
        // Every branch of an `if`: an upper bound, which is all a weight
        // needs.
        for (Region &region : op.getRegions())
          for (Block &block : region) {
            FailureOr<Value> w = work(block);
            if (failed(w))
              return failure();
            add(*w);
          }
      } else if (isa<affine::AffineStoreOp, memref::StoreOp>(op)) {
        ++statements;
      }
    }
    if (statements || !total)
      add(b.create<arith::ConstantIndexOp>(loc, statements));
    return total;
  }

private:
  FailureOr<Value> loopWork(affine::AffineForOp loop) {
    FailureOr<std::pair<Value, Value>> bounds =
        buildLoopBounds(b, loc, loop, subst, available);
    if (failed(bounds))
      return failure();
    auto [lb, ub] = *bounds;
    Value zero = b.create<arith::ConstantIndexOp>(loc, 0);
    Value span = b.create<arith::MaxSIOp>(
        loc, b.create<arith::SubIOp>(loc, ub, lb), zero);
    Value trips = span;
    if (int64_t step = loop.getStepAsInt(); step != 1)
      trips = b.create<arith::CeilDivSIOp>(
          loc, span, b.create<arith::ConstantIndexOp>(loc, step));
    // `k_trips` in the C, after the loop's iterator.
    if (StringRef name = sourceName(loop.getInductionVar()); !name.empty())
      trips.getDefiningOp()->setLoc(
          withSourceName(trips.getLoc(), (name + "_trips").str()));
    // The inner body's work must not depend on this loop's iterator, which
    // `subst` does not map: a bound that uses it fails above.
    FailureOr<Value> inner = work(*loop.getBody());
    if (failed(inner))
      return failure();
    return b.create<arith::MulIOp>(loc, trips, *inner).getResult();
  }

  OpBuilder &b;
  Location loc;
  function_ref<bool(Value)> available;

public:
  IRMapping subst;
};
} // namespace

FailureOr<std::pair<Value, Value>>
weft::buildLoopBounds(OpBuilder &b, Location loc, affine::AffineForOp loop,
                      const IRMapping &known,
                      function_ref<bool(Value)> available) {
  SmallVector<Value> operands;
  for (Value v : loop->getOperands()) {
    if (Value mapped = known.lookupOrNull(v))
      operands.push_back(mapped);
    else if (available(v))
      operands.push_back(v);
    else
      return failure();
  }
  // Built in statement order (as call arguments the order would be the
  // host compiler's, and so would the output).
  unsigned numLb = loop.getLowerBoundOperands().size();
  ValueRange all(operands);
  Value lb = buildBound(b, loc, loop.getLowerBoundMap(),
                        all.take_front(numLb), true);
  Value ub = buildBound(b, loc, loop.getUpperBoundMap(),
                        all.drop_front(numLb), false);
  return std::make_pair(lb, ub);
}

Value weft::buildBound(OpBuilder &b, Location loc, AffineMap map,
                       ValueRange operands, bool lower) {
  if (map.getNumResults() == 1)
    return b.create<affine::AffineApplyOp>(loc, map, operands);
  if (lower)
    return b.create<affine::AffineMaxOp>(loc, map, operands);
  return b.create<affine::AffineMinOp>(loc, map, operands);
}

FailureOr<Value>
weft::buildIterationWork(OpBuilder &b, Location loc, affine::AffineForOp loop,
                         Value x, function_ref<bool(Value)> available,
                         const IRMapping &known) {
  WorkBuilder builder(b, loc, available);
  builder.subst = known;
  builder.subst.map(loop.getInductionVar(), x);
  return builder.work(*loop.getBody());
}
