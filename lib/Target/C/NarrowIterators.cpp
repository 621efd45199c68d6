//===- NarrowIterators.cpp - Keep the source's `int` iterators ------------===//
//
// C evaluates `i + 1` in `int` when `i` is an `int` and in `int64_t` when it
// is an `int64_t`; the IR computes it in `index` (64 bits). Declaring an
// iterator `int` is exact only if no value the iterator takes and no value
// computed from it in `int` overflows, so this pass asks integer range
// analysis (MLIR's dataflow IntegerRangeAnalysis) for every such value, and
// marks the loop only when all of them fit.
//
//===----------------------------------------------------------------------===//
#include "dialects/Weft/IR/WeftDialect.h"
#include "weft/Support/RuntimeCalls.h"
#include "weft/Support/SourceNames.h"
#include "weft/Target/C/Passes.h"

#include "mlir/Analysis/DataFlow/ConstantPropagationAnalysis.h"
#include "mlir/Analysis/DataFlow/DeadCodeAnalysis.h"
#include "mlir/Analysis/DataFlow/IntegerRangeAnalysis.h"
#include "mlir/Analysis/DataFlowFramework.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

namespace weft {
#define GEN_PASS_DEF_NARROWITERATORS
#include "weft/Target/C/Passes.h.inc"
} // namespace weft

using namespace mlir;

namespace {

/// Range facts of one function.
class Ranges {
public:
  explicit Ranges(func::FuncOp func)
      : solver(DataFlowConfig().setInterprocedural(false)) {
    // Dead-code analysis decides which blocks run; range analysis needs it.
    solver.load<dataflow::DeadCodeAnalysis>();
    solver.load<dataflow::SparseConstantPropagation>();
    solver.load<dataflow::IntegerRangeAnalysis>();
    // With the function itself as the top, its body is live and its
    // arguments take any value of their types.
    valid = succeeded(solver.initializeAndRun(func));
  }

  /// The smallest and largest value `v` may take, if known.
  std::optional<std::pair<int64_t, int64_t>> bounds(Value v) const {
    if (!valid || !v.getType().isIntOrIndex())
      return std::nullopt;
    auto *state = solver.lookupState<dataflow::IntegerValueRangeLattice>(v);
    if (!state || state->getValue().isUninitialized())
      return std::nullopt;
    const ConstantIntRanges &range = state->getValue().getValue();
    if (range.smin().getBitWidth() > 64)
      return std::nullopt;
    return std::make_pair(range.smin().getSExtValue(),
                          range.smax().getSExtValue());
  }

  /// Whether every value `v` may take is known and within C's `int`.
  bool fitsInt(Value v) const {
    auto b = bounds(v);
    return b && b->first >= INT32_MIN && b->second <= INT32_MAX;
  }

private:
  DataFlowSolver solver;
  bool valid = false;
};

} // namespace

/// Whether `user` only converts or compares an operand it reads (C gives the
/// same result for an `int` operand as for its `int64_t` value).
static bool endsChain(Operation *user) {
  return isa<memref::LoadOp, memref::StoreOp, arith::CmpIOp, scf::ForOp,
             scf::YieldOp, arith::SIToFPOp, arith::UIToFPOp, func::CallOp,
             emitc::CallOpaqueOp>(user);
}

/// Whether every integer op that reads `iv`, directly or through other
/// such ops, computes only values within `int`, and the chains end where
/// endsChain says.
static bool arithmeticFitsInt(Value iv, const Ranges &ranges) {
  SmallVector<Value> work{iv};
  DenseSet<Operation *> seen;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    for (Operation *user : v.getUsers()) {
      if (endsChain(user) || !seen.insert(user).second)
        continue;
      if (user->getNumResults() == 0 || user->getNumRegions() != 0)
        return false;
      for (Value result : user->getResults()) {
        if (!ranges.fitsInt(result))
          return false;
        work.push_back(result);
      }
    }
  }
  return true;
}

/// Whether `loop`'s iterator may be declared `int` in C.
static bool mayDeclareInt(scf::ForOp loop, const Ranges &ranges) {
  Type source = weft::sourceType(loop.getInductionVar().getLoc());
  if (!source || !source.isInteger(32))
    return false;
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  if (!step || *step < 1 || *step > INT32_MAX)
    return false;
  // The iterator runs from its lower bound to at most its upper bound +
  // step - 1, or stays at the lower bound.
  auto ub = ranges.bounds(loop.getUpperBound());
  return ranges.fitsInt(loop.getLowerBound()) && ub &&
         ub->second <= int64_t(INT32_MAX) - (*step - 1) &&
         arithmeticFitsInt(loop.getInductionVar(), ranges);
}

namespace {
struct NarrowIteratorsPass
    : weft::impl::NarrowIteratorsBase<NarrowIteratorsPass> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      // A distributed form's loops run over rank blocks the runtime
      // computes in `int64_t`; `int` iterators among them made gcc -O2
      // execute more instructions (PolyBench symm's busier rank at 2
      // ranks: 8 % more, trmm's 12 %), so they stay `int64_t`. The loops
      // as written (one rank, --target=seq) keep the source's type.
      if (func.isExternal() || weft::callsRuntime(func))
        continue;
      Ranges ranges(func);
      func.walk([&](scf::ForOp loop) {
        if (mayDeclareInt(loop, ranges))
          loop->setAttr(weft::WeftDialect::getCIntAttrName(),
                        UnitAttr::get(&getContext()));
      });
    }
  }
};
} // namespace
