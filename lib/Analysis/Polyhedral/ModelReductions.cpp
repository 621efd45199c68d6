//===- ModelReductions.cpp - Reduction updates of the model ---------------===//
//
// Part of ModelBuilder: finds the reduction updates `X[e] = X[e] op v`,
// including maxima and minima written with C's `?:`, whose dependences a
// split loop may reorder.
//
//===----------------------------------------------------------------------===//
#include "ModelBuilder.h"
#include "RepeatedReads.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <optional>

using namespace mlir;
using namespace weft::detail;

/// The associative operation that combines a value into an accumulator.
static StringRef reductionKind(Operation *op) {
  if (isa<arith::AddFOp, arith::AddIOp>(op))
    return "add";
  if (isa<arith::MulFOp, arith::MulIOp>(op))
    return "mul";
  if (isa<arith::MaxNumFOp, arith::MaximumFOp, arith::MaxSIOp>(op))
    return "max";
  if (isa<arith::MinNumFOp, arith::MinimumFOp, arith::MinSIOp>(op))
    return "min";
  return "";
}

/// Whether `y` is `v` or computes it again: the same pure operations on the
/// same values, and reads that repeat v's reads (C's `?:` evaluates the
/// chosen operand again in its branch).
static bool recomputes(Value y, Value v, unsigned depth = 0) {
  if (y == v)
    return true;
  Operation *a = y.getDefiningOp(), *b = v.getDefiningOp();
  if (!a || !b || depth > 8 || a->getName() != b->getName() ||
      a->getAttrDictionary() != b->getAttrDictionary() ||
      a->getNumOperands() != b->getNumOperands() || a->getNumRegions() ||
      a->getNumResults() != 1)
    return false;
  if (auto load = dyn_cast<affine::AffineLoadOp>(a))
    return sameRead(load, cast<affine::AffineLoadOp>(b)) &&
           repeatsEarlierRead(load);
  if (!isPure(a))
    return false;
  for (auto [x, w] : llvm::zip(a->getOperands(), b->getOperands()))
    if (!recomputes(x, w, depth + 1))
      return false;
  return true;
}

/// `x > acc ? x : acc` as C's `?:` gives it (an scf.if on a comparison of
/// x and acc whose branches compute one of them again): "max" or
/// "min", and the comparison's operand that `isAccumulator` accepts.
/// Unsigned comparisons are not reductions (their extremes differ).
static std::pair<StringRef, Value>
selectReduction(Value stored, function_ref<bool(Value)> isAccumulator) {
  auto ifOp = stored.getDefiningOp<scf::IfOp>();
  if (!ifOp || ifOp.getNumResults() != 1 || ifOp.getElseRegion().empty())
    return {};
  Value lhs, rhs;
  std::optional<bool> greater;
  if (auto c = ifOp.getCondition().getDefiningOp<arith::CmpFOp>()) {
    using P = arith::CmpFPredicate;
    P p = c.getPredicate();
    if (p == P::OGT || p == P::OGE)
      greater = true;
    else if (p == P::OLT || p == P::OLE)
      greater = false;
    lhs = c.getLhs(), rhs = c.getRhs();
  } else if (auto c = ifOp.getCondition().getDefiningOp<arith::CmpIOp>()) {
    using P = arith::CmpIPredicate;
    P p = c.getPredicate();
    if (p == P::sgt || p == P::sge)
      greater = true;
    else if (p == P::slt || p == P::sle)
      greater = false;
    lhs = c.getLhs(), rhs = c.getRhs();
  }
  if (!greater)
    return {};
  Value acc = isAccumulator(lhs) ? lhs : isAccumulator(rhs) ? rhs : Value();
  if (!acc)
    return {};
  auto yields = [&](Region &branch, Value v) {
    return recomputes(
        cast<scf::YieldOp>(branch.front().getTerminator()).getOperand(0), v);
  };
  bool keepsOrder =
      yields(ifOp.getThenRegion(), lhs) && yields(ifOp.getElseRegion(), rhs);
  bool swaps =
      yields(ifOp.getThenRegion(), rhs) && yields(ifOp.getElseRegion(), lhs);
  if (keepsOrder == swaps)
    return {};
  // lhs > rhs ? lhs : rhs is the max; with the branches swapped, the min.
  return {*greater == keepsOrder ? "max" : "min", acc};
}

void ModelBuilder::findReductions() {
  for (auto [si, store] : llvm::enumerate(statements)) {
    auto storeOp = dyn_cast<affine::AffineStoreOp>(store.access);
    if (!storeOp)
      continue;
    // The accumulator: the same element, read in the same block before the
    // update.
    auto readsAccumulator = [&](const Statement &load) {
      auto loadOp = dyn_cast<affine::AffineLoadOp>(load.access);
      return loadOp && loadOp.getMemRef() == storeOp.getMemRef() &&
             load.target == store.target &&
             loadOp->getBlock() == storeOp->getBlock();
    };
    // The updated value goes to the accumulator only: `p[i] = (s += a[i])`
    // also stores a partial result, which a split loop would get wrong.
    if (!storeOp.getValueToStore().hasOneUse())
      continue;
    auto [selectKind, selectAcc] =
        selectReduction(storeOp.getValueToStore(), [&](Value v) {
          auto load = v.getDefiningOp<affine::AffineLoadOp>();
          return load && llvm::any_of(statements, [&](const Statement &st) {
                   return st.access == load && readsAccumulator(st);
                 });
        });
    if (!selectKind.empty()) {
      // Used by the comparison and at most the yield of its own value.
      Operation *accLoad = selectAcc.getDefiningOp();
      bool usedOnlyThere = llvm::all_of(accLoad->getUsers(), [&](Operation *u) {
        return isa<arith::CmpFOp, arith::CmpIOp, scf::YieldOp>(u);
      });
      for (auto [li, load] : llvm::enumerate(statements))
        if (load.access == accLoad && usedOnlyThere)
          reductions.push_back({(unsigned)li, (unsigned)si, selectKind});
      continue;
    }
    Operation *combine = storeOp.getValueToStore().getDefiningOp();
    if (!combine || combine->getNumOperands() != 2 ||
        reductionKind(combine).empty())
      continue;
    for (auto [li, load] : llvm::enumerate(statements)) {
      // Used once, by the update.
      if (!readsAccumulator(load) || !load.access->hasOneUse() ||
          !llvm::is_contained(combine->getOperands(),
                              load.access->getResult(0)))
        continue;
      reductions.push_back(
          {(unsigned)li, (unsigned)si, reductionKind(combine)});
    }
  }
}

std::string ModelBuilder::reductionPairs(const Reduction *only) const {
  std::string s = params() + "{ ";
  bool first = true;
  for (const Reduction &r : reductions)
    if (!only || (only->load == r.load && only->store == r.store))
      for (unsigned from : {r.load, r.store})
        for (unsigned to : {r.load, r.store}) {
          s += (first ? "" : "; ") +
               statementTuple(from, statements[from].loops.size(), "a") +
               " -> " + statementTuple(to, statements[to].loops.size(), "b");
          first = false;
        }
  return s + " }";
}
