//===- AliasCheck.cpp - Run-time check of overlapping arguments -*- C++ -*-===//
//
// Implements dist-alias-check. The partitioner's model treats every array
// argument as its own array; pointer arguments may overlap, and then a
// loop without a carried dependence in the model carries one through
// memory. Like Polly's run-time alias checks, the region is guarded: the
// bounding box of each argument's accesses (ISL, over the whole region) is
// compared at entry, and the region runs as written when boxes overlap.
//
//===----------------------------------------------------------------------===//
#include "dialects/Weft/IR/WeftDialect.h"
#include "weft/Partition/Passes.h"

#include "Dispatcher.h"

#include "weft/Partition/AstToLoops.h"
#include "weft/Partition/NestComments.h"

#include "dialects/Dist/IR/DistOps.h"
#include "weft/Analysis/Polyhedral/Communication.h"
#include "weft/Analysis/Polyhedral/PolyhedralRegion.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace weft {
#define GEN_PASS_DEF_DISTALIASCHECK
#define GEN_PASS_DEF_DISTFOLDALIASCHECKS
#include "weft/Partition/Passes.h.inc"
} // namespace weft

using namespace mlir;
using namespace weft;

namespace {
/// Two arguments whose accesses must not overlap for the distributed
/// function to be correct.
struct ArgumentPair {
  unsigned lhs, rhs; // indices into ArgumentFootprints::arrays
};

struct DistAliasCheck : weft::impl::DistAliasCheckBase<DistAliasCheck> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<func::FuncOp> funcs(getOperation().getOps<func::FuncOp>());
    for (func::FuncOp func : funcs)
      if (isDistributable(func) && failed(guard(func)))
        return signalPassFailure();
  }
  LogicalResult guard(func::FuncOp func);
};
} // end anonymous namespace

static bool hasArgAttr(Value memref, StringRef name) {
  auto arg = cast<BlockArgument>(memref);
  auto func = cast<func::FuncOp>(arg.getOwner()->getParentOp());
  return bool(func.getArgAttr(arg.getArgNumber(), name));
}

/// The pairs of accessed arguments that may share memory (one of them
/// reached through a pointer, neither asserted distinct) and that the
/// region writes one of.
static SmallVector<ArgumentPair>
pairsToCheck(const ArgumentFootprints &footprints) {
  SmallVector<ArgumentPair> pairs;
  auto mayAlias = [](Value m) {
    return hasArgAttr(m, weft::WeftDialect::getMayAliasAttrName());
  };
  auto asserted = [](Value m) {
    return hasArgAttr(m, weft::WeftDialect::getNoAliasAttrName());
  };
  const std::vector<ArgumentFootprint> &arrays = footprints.arrays;
  for (unsigned i = 0; i < arrays.size(); ++i)
    for (unsigned j = i + 1; j < arrays.size(); ++j) {
      Value x = arrays[i].memref, y = arrays[j].memref;
      if ((mayAlias(x) || mayAlias(y)) && !asserted(x) && !asserted(y) &&
          (arrays[i].written || arrays[j].written))
        pairs.push_back({i, j});
    }
  return pairs;
}

/// `v` (a value of the original function's entry block, computed from its
/// arguments by pure ops) rebuilt in the dispatcher; null when it reads
/// memory or is defined elsewhere.
static Value rebuild(OpBuilder &b, Value v, IRMapping &map) {
  if (Value known = map.lookupOrNull(v))
    return known;
  Operation *def = v.getDefiningOp();
  if (!def || def->getNumRegions() != 0 || !isPure(def))
    return {};
  for (Value operand : def->getOperands())
    if (!rebuild(b, operand, map))
      return {};
  return b.clone(*def, map)->getResult(cast<OpResult>(v).getResultNumber());
}

/// The bounds [begin, end) of `f`'s accesses as offsets of its row-major
/// layout, built by `b` in the dispatcher.
static FailureOr<std::pair<Value, Value>>
linearRange(OpBuilder &b, Location loc, const ArgumentFootprint &f,
            const llvm::StringMap<Value> &ids, func::FuncOp dispatcher) {
  auto type = cast<MemRefType>(f.memref.getType());
  unsigned argNumber = cast<BlockArgument>(f.memref).getArgNumber();
  auto dimArgs = dispatcher.getArgAttrOfType<DenseI64ArrayAttr>(
      argNumber, weft::WeftDialect::getDimArgsAttrName());
  auto cst = [&](int64_t v) {
    return b.create<arith::ConstantIndexOp>(loc, v).getResult();
  };
  // offset(x) = ((x0 * E1 + x1) * E2 + x2) ...: increasing in every
  // subscript (extents are not negative), so the box's corners bound it:
  // the end is the last corner's offset + 1, the last subscript taken at
  // its exclusive bound. Folded as built, so that the C reads `n`, not
  // `0 * 2100 + n - 1 + 1`.
  Value begin = cst(0), end = cst(0);
  unsigned rank = type.getRank();
  for (unsigned d = 0; d < rank; ++d) {
    if (d > 0) {
      Value extent;
      if (!type.isDynamicDim(d))
        extent = cst(type.getDimSize(d));
      else if (dimArgs && dimArgs[d] >= 0)
        extent = dispatcher.getArgument(dimArgs[d]);
      else
        return failure();
      begin = b.createOrFold<arith::MulIOp>(loc, begin, extent);
      end = b.createOrFold<arith::MulIOp>(loc, end, extent);
    }
    FailureOr<Value> lo = emitAstExpr(b, loc, f.box[d].first, ids);
    FailureOr<Value> hi = emitAstExpr(b, loc, f.box[d].second, ids);
    if (failed(lo) || failed(hi))
      return failure();
    begin = b.createOrFold<arith::AddIOp>(loc, begin, *lo);
    Value at =
        d + 1 < rank ? b.createOrFold<arith::SubIOp>(loc, *hi, cst(1)) : *hi;
    end = b.createOrFold<arith::AddIOp>(loc, end, at);
  }
  if (rank == 0)
    end = cst(1);
  return std::make_pair(begin, end);
}

LogicalResult DistAliasCheck::guard(func::FuncOp func) {
  if (func->hasAttr(weft::WeftDialect::getNoDistAttrName()))
    return success(); // Replicated: the region as written on every rank.
  bool mayNeedCheck = llvm::any_of(func.getArguments(), [](Value arg) {
    return isa<MemRefType>(arg.getType()) &&
           hasArgAttr(arg, weft::WeftDialect::getMayAliasAttrName()) &&
           !hasArgAttr(arg, weft::WeftDialect::getNoAliasAttrName());
  });

  // The model's remarks (why a function is not a static control part) are
  // dist-partition's to report; an ISL failure becomes a warning.
  // (A plain value and a flag, not a FailureOr kept to the end: GCC 12
  // warns that the latter's payload may be used uninitialised.)
  ArgumentFootprints footprints;
  bool bounded = false;
  std::string islError;
  SmallVector<ArgumentPair> pairs;
  if (mayNeedCheck) {
    ScopedDiagnosticHandler quiet(&getContext(), [&](Diagnostic &d) {
      if (d.getSeverity() == DiagnosticSeverity::Error)
        islError = d.str();
      return success();
    });
    PolyhedralRegion region(func);
    FailureOr<ArgumentFootprints> computed =
        computeArgumentFootprints(region, maxIslOperations);
    if (succeeded(computed)) {
      if (!computed->modelled)
        return success(); // Replicated by dist-partition.
      footprints = std::move(*computed);
      bounded = true;
      pairs = pairsToCheck(footprints);
    }
  }
  bool check = mayNeedCheck && (!bounded || !pairs.empty());
  // One process runs the region as written only where arguments overlap.
  if (oneProcess && !check)
    return success();

  // The sequential copies, the distributed original, then the dispatcher,
  // so that C sees each function before its call.
  std::string name = func.getName().str();
  OpBuilder mb(func);
  auto asWrittenCopy = [&](StringRef suffix) {
    auto copy = cast<func::FuncOp>(mb.clone(*func));
    copy.setName(name + suffix.str());
    copy->setAttr(dist::DistDialect::getSequentialAttrName(),
                  mb.getUnitAttr());
    return copy;
  };
  // With a check and several processes, the arguments that overlap get a
  // copy of their own, and the sequential copy that one process runs gets
  // only disjoint ones: `restrict` in C, as the distributed form's (gcc -O2
  // vectorises a stencil through `restrict` pointers, not without).
  func::FuncOp overlapping;
  if (check && !oneProcess)
    overlapping = asWrittenCopy(kOverlappingSuffix);
  func::FuncOp sequential = asWrittenCopy(kSequentialSuffix);
  if (overlapping)
    sequential->setAttr(dist::DistDialect::getArgsDisjointAttrName(),
                        mb.getUnitAttr());
  func.setName(name + kDistributedSuffix.str());
  // It runs only where no written argument overlaps another.
  func->setAttr(dist::DistDialect::getArgsDisjointAttrName(), mb.getUnitAttr());
  func::FuncOp dispatcher = createDispatcher(func, name);
  Block *entry = &dispatcher.getBody().front();
  OpBuilder b = OpBuilder::atBlockBegin(entry);
  Location loc = func.getLoc();
  ValueRange args = dispatcher.getArguments();

  // Whether some pair overlaps (true when no bound could be computed; null
  // without a check).
  Value overlap;
  auto always = [&](const Twine &why) {
    dispatcher.emitWarning()
        << "cannot bound the accesses of the pointer arguments (" << why
        << "): the region always runs as written, on one rank";
    overlap = b.create<arith::ConstantIntOp>(loc, 1, 1);
  };
  if (check && !bounded) {
    always(islError);
  } else if (check) {
    IRMapping map;
    map.map(func.getArguments(), dispatcher.getArguments());
    llvm::StringMap<Value> ids;
    bool ok = true;
    for (auto &[id, param] : footprints.params) {
      Value v = param.kind == CommParam::Kind::Symbol
                    ? rebuild(b, param.symbol, map)
                    : Value();
      ok &= bool(v);
      ids[id] = v;
    }
    SmallVector<std::pair<Value, Value>> ranges;
    for (const ArgumentFootprint &f : footprints.arrays) {
      if (!ok)
        break;
      FailureOr<std::pair<Value, Value>> r =
          linearRange(b, loc, f, ids, dispatcher);
      ok = succeeded(r);
      ranges.push_back(ok ? *r : std::pair<Value, Value>());
    }
    if (!ok) {
      // Nothing of the unfinished bounds stays (the C would warn of them).
      while (!entry->empty())
        entry->back().erase();
      always("a bound reads memory the region may change");
    } else {
      for (ArgumentPair p : pairs) {
        const ArgumentFootprint &x = footprints.arrays[p.lhs];
        const ArgumentFootprint &y = footprints.arrays[p.rhs];
        Value o = b.create<dist::RangesOverlapOp>(
            loc, map.lookup(x.memref), ranges[p.lhs].first,
            ranges[p.lhs].second, map.lookup(y.memref), ranges[p.rhs].first,
            ranges[p.rhs].second);
        overlap = overlap ? b.create<arith::OrIOp>(loc, overlap, o) : o;
      }
    }
  }
  // One rank runs the region as written too: the loops of the sequential
  // program, with nothing of the distribution in them. One call of it, so
  // that the C compiler inlines it into the caller and sees its bounds.
  // Operands built in statement order: as call arguments their order would
  // be the host compiler's (gcc and clang differ), and so would the output.
  if (overlapping) {
    // Overlapping arguments first: the region as written, on rank 0 alone,
    // which holds the program's data once a region ran (the other ranks'
    // copies may be stale and are marked so).
    auto ifOverlap = b.create<scf::IfOp>(loc, overlap, /*withElseRegion=*/true);
    b.setInsertionPointToStart(ifOverlap.thenBlock());
    if (liveOutEverywhere) {
      b.create<func::CallOp>(loc, overlapping, args);
    } else {
      Value rank = b.create<dist::RankOp>(loc);
      Value isRoot = b.create<arith::CmpIOp>(
          loc, arith::CmpIPredicate::eq, rank,
          b.create<arith::ConstantIndexOp>(loc, 0));
      auto onRoot = b.create<scf::IfOp>(loc, isRoot, /*withElseRegion=*/false);
      OpBuilder::atBlockBegin(onRoot.thenBlock())
          .create<func::CallOp>(loc, overlapping, args);
      b.create<dist::SetReplicasStaleOp>(loc);
    }
    b.setInsertionPointToStart(ifOverlap.elseBlock());
  }
  // Then one process (or, with one process only, overlapping arguments)
  // runs the sequential copy, several the distributed form.
  Value asWritten = overlap;
  if (!oneProcess) {
    Value ranks = b.create<dist::NumRanksOp>(loc);
    Value one = b.create<arith::ConstantIndexOp>(loc, 1);
    asWritten =
        b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::eq, ranks, one);
  }
  auto ifOp = b.create<scf::IfOp>(loc, asWritten, /*withElseRegion=*/true);
  b.setInsertionPointToStart(ifOp.thenBlock());
  b.create<func::CallOp>(loc, sequential, args);
  b.setInsertionPointToStart(ifOp.elseBlock());
  b.create<func::CallOp>(loc, func, args);
  b.setInsertionPointToEnd(entry);
  b.create<func::ReturnOp>(loc);
  return success();
}

namespace {
struct DistFoldAliasChecks
    : weft::impl::DistFoldAliasChecksBase<DistFoldAliasChecks> {
  using Base::Base;
  /// Names the pairs the dispatcher compares; with `saysWhere`, on which
  /// ranks the region as written runs (for a region nothing distributed,
  /// dist-run-on-root decides that later).
  void remarkChecks(func::FuncOp dispatcher, bool saysWhere) {
    SmallVector<dist::RangesOverlapOp> checks;
    dispatcher.walk([&](dist::RangesOverlapOp op) { checks.push_back(op); });
    if (checks.empty())
      return; // It always runs as written, and said why.
    InFlightDiagnostic d = dispatcher.emitRemark();
    d << "arguments checked for overlap at entry (";
    llvm::interleaveComma(checks, d, [&](dist::RangesOverlapOp check) {
      auto name = [&](Value v) {
        return argumentSourceName(dispatcher, v);
      };
      d << name(check.getLhs()) << " and " << name(check.getRhs());
    });
    // Rank 0 alone runs it where the other ranks' copies go stale.
    bool onRootOnly = dispatcher
                          .walk([](dist::SetReplicasStaleOp) {
                            return WalkResult::interrupt();
                          })
                          .wasInterrupted();
    d << "): the region runs as written ";
    if (saysWhere)
      d << (onRootOnly ? "on rank 0 " : "on every rank ");
    d << "when they overlap";
  }
  static bool hasOverlapCheck(func::FuncOp dispatcher) {
    return dispatcher
        .walk([](dist::RangesOverlapOp) { return WalkResult::interrupt(); })
        .wasInterrupted();
  }
  LogicalResult keepCheck(SymbolTable &symbols, func::FuncOp dispatcher,
                          func::FuncOp sequential, func::FuncOp distributed);
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<func::FuncOp> dispatchers;
    for (func::FuncOp func : module.getOps<func::FuncOp>())
      if (func->hasAttr(dist::DistDialect::getAliasCheckAttrName()))
        dispatchers.push_back(func);
    for (func::FuncOp dispatcher : dispatchers) {
      std::string name = dispatcher.getName().str();
      auto sequential =
          symbols.lookup<func::FuncOp>(name + kSequentialSuffix.str());
      auto distributed =
          symbols.lookup<func::FuncOp>(name + kDistributedSuffix.str());
      if (!sequential || !distributed ||
          !OperationEquivalence::isRegionEquivalentTo(
              &sequential.getBody(), &distributed.getBody(),
              OperationEquivalence::IgnoreLocations)) {
        if (report)
          remarkChecks(dispatcher, /*saysWhere=*/true);
        continue;
      }
      // Nothing distributed. With arguments checked at entry, the check
      // stays and chooses between the region as written and its copy for
      // disjoint arguments.
      if (hasOverlapCheck(dispatcher)) {
        if (failed(keepCheck(symbols, dispatcher, sequential, distributed)))
          return signalPassFailure();
        if (report)
          remarkChecks(dispatcher, /*saysWhere=*/false);
        continue;
      }
      // Otherwise the region as written is all that stays (its copy for
      // overlapping arguments, if it has one).
      symbols.erase(dispatcher);
      symbols.erase(distributed);
      if (auto overlapping =
              symbols.lookup<func::FuncOp>(name + kOverlappingSuffix.str())) {
        symbols.erase(sequential);
        sequential = overlapping;
      }
      sequential->removeAttr(dist::DistDialect::getSequentialAttrName());
      if (failed(symbols.rename(sequential, name)))
        return signalPassFailure();
    }
  }
};
} // end anonymous namespace

/// The dispatcher of a region that nothing distributed, whose arguments it
/// checks for overlap, made `if (overlap) as written; else disjoint;` on
/// every rank: the region's replicated run, as without the check, but with
/// `restrict` pointers where the check allows them (without, the C compiler
/// keeps an accumulator such as bicg's `q[i]` in memory, since a store
/// through another argument may change it). The as-written form is
/// `<name>_overlapping`, the disjoint one `<name>_sequential`, as in a
/// distributed region's dispatcher.
LogicalResult DistFoldAliasChecks::keepCheck(SymbolTable &symbols,
                                             func::FuncOp dispatcher,
                                             func::FuncOp sequential,
                                             func::FuncOp distributed) {
  std::string name = dispatcher.getName().str();
  // Several processes: `_overlapping` as written, `_sequential` disjoint.
  // One process: `_sequential` as written, `_distributed` disjoint.
  func::FuncOp asWritten = sequential, disjoint = distributed;
  if (auto overlapping =
          symbols.lookup<func::FuncOp>(name + kOverlappingSuffix.str())) {
    asWritten = overlapping;
    disjoint = sequential;
    symbols.erase(distributed);
  } else {
    if (failed(symbols.rename(asWritten, name + kOverlappingSuffix.str())) ||
        failed(symbols.rename(disjoint, name + kSequentialSuffix.str())))
      return failure();
  }
  MLIRContext *ctx = dispatcher.getContext();
  disjoint->setAttr(dist::DistDialect::getSequentialAttrName(),
                    UnitAttr::get(ctx));
  disjoint->setAttr(dist::DistDialect::getArgsDisjointAttrName(),
                    UnitAttr::get(ctx));
  // The first choice the dispatcher makes is on the overlap (the checks
  // before it compute it); what follows is rebuilt.
  Block &entry = dispatcher.getBody().front();
  auto first =
      llvm::find_if(entry, [](Operation &op) { return isa<scf::IfOp>(op); });
  if (first == entry.end())
    return dispatcher.emitError("overlap check without a choice");
  Value overlap = cast<scf::IfOp>(*first).getCondition();
  Location loc = first->getLoc();
  while (&entry.back() != &*first)
    entry.back().erase();
  first->erase();
  OpBuilder b = OpBuilder::atBlockEnd(&entry);
  ValueRange args = dispatcher.getArguments();
  auto ifOp = b.create<scf::IfOp>(loc, overlap, /*withElseRegion=*/true);
  OpBuilder::atBlockBegin(ifOp.thenBlock())
      .create<func::CallOp>(loc, asWritten, args);
  OpBuilder::atBlockBegin(ifOp.elseBlock())
      .create<func::CallOp>(loc, disjoint, args);
  b.create<func::ReturnOp>(loc);
  return success();
}
