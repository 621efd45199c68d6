//===- DistPartition.cpp - Choose the distribution of each unit -*- C++ -*-===//
//
// Implements dist-partition: finds the units and their candidates,
// estimates the costs with ISL and lets the Arachne dynamic program choose.
//
//===----------------------------------------------------------------------===//
#include "weft/Partition/Passes.h"

#include "ArachneDP.h"
#include "Units.h"

#include "dialects/Dist/IR/DistOps.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/FormatVariadic.h"

namespace weft {
#define GEN_PASS_DEF_DISTPARTITION
#include "weft/Partition/Passes.h.inc"
} // namespace weft

using namespace mlir;
using namespace weft;

namespace {
struct DistPartition : weft::impl::DistPartitionBase<DistPartition> {
  using Base::Base;
  void runOnOperation() override {
    // Every region's errors are reported, not only the first one's.
    bool ok = true;
    for (func::FuncOp func : getOperation().getOps<func::FuncOp>())
      ok &= succeeded(partition(func));
    if (!ok)
      signalPassFailure();
    // Only attributes changed: dist-materialize reuses the regions' models
    // and flows.
    markAnalysesPreserved<PolyhedralRegion>();
  }
  LogicalResult partition(func::FuncOp func);
};
} // end anonymous namespace

/// The choices directives leave for each unit; fails with an error on a
/// directive the partitioner cannot honour.
static LogicalResult applyDirectives(func::FuncOp func,
                                     ArrayRef<UnitCandidate> units,
                                     const FlowDependenceInfo &deps,
                                     SmallVectorImpl<UnitOptions> &options) {
  bool nodist = func->hasAttr("weft.nodist");
  for (const UnitCandidate &c : units)
    options.push_back({true, c.distributable && !nodist});
  WalkResult r = func.walk([&](Operation *op) {
    auto layout = op->getAttrOfType<dist::LayoutAttr>("dist.layout");
    if (!layout || !isa<affine::AffineForOp>(op))
      return WalkResult::advance();
    auto it = llvm::find_if(
        units, [&](const UnitCandidate &c) { return c.unit.op == op; });
    ArrayRef<dist::DimDistAttr> dims = layout.getDims();
    bool outerBlock = dims.front().getKind() == dist::DistKind::Block;
    bool othersReplicated = llvm::all_of(
        dims.drop_front(), [](auto d) { return !d.isDistributed(); });
    if (!othersReplicated || (dims.front().isDistributed() && !outerBlock)) {
      op->emitError("'#pragma weft distribute' can only ask for 'block' on "
                    "the outermost loop of a nest (or '*') for now");
      return WalkResult::interrupt();
    }
    if (it == units.end()) {
      if (!dims.front().isDistributed())
        return WalkResult::advance(); // Not distributed anyway.
      bool nested = llvm::any_of(units, [&](const UnitCandidate &c) {
        return c.unit.op->isProperAncestor(op);
      });
      op->emitError("cannot distribute this loop: ")
          << (nested ? "only the outermost loop of a nest can be distributed"
              : splitsWithFpReductionsOnly(op, deps)
                  ? kFpReductionsOrdered
                  : "the loop carries a flow dependence");
      return WalkResult::interrupt();
    }
    UnitOptions &o = options[it - units.begin()];
    if (!dims.front().isDistributed()) {
      o = {true, false};
      return WalkResult::advance();
    }
    if (!it->distributable || nodist) {
      op->emitError("cannot distribute this loop: ")
          << (nodist ? "the region is marked '#pragma weft nodist'"
                     : it->reason);
      return WalkResult::interrupt();
    }
    o = {false, true};
    return WalkResult::advance();
  });
  return failure(r.wasInterrupted());
}

/// Directives that are recorded but not acted on yet get a warning, so that
/// nobody believes they steered the result.
static void warnIgnoredDirectives(func::FuncOp func) {
  if (func->hasAttr("dist.grid"))
    func.emitWarning("'#pragma weft grid' is not acted on yet: regions are "
                     "distributed over a 1-D grid of all ranks");
  for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
    if (func.getArgAttr(i, "dist.layout")) {
      // The argument's C expression, "(double *)(A)": its last operand.
      auto cArg = func.getArgAttrOfType<StringAttr>(i, "weft.c_arg");
      StringRef name = cArg ? cArg.getValue() : "";
      name = name.substr(name.rfind('(') + 1).rtrim(')');
      func.emitWarning("'#pragma weft distribute' or 'replicate' of array '")
          << name
          << "' is not acted on yet: every rank holds whole arrays, and the "
             "loops' distributions decide who computes what";
    }
  func.walk([](affine::AffineForOp loop) {
    if (loop->hasAttr("weft.parallel"))
      loop.emitWarning("'#pragma weft parallel' is not acted on yet: a loop "
                       "is distributed only where weft's dependence analysis "
                       "finds that it carries no flow dependence ('#pragma "
                       "weft local' keeps scratch arrays out of that "
                       "analysis)");
  });
}

LogicalResult DistPartition::partition(func::FuncOp func) {
  warnIgnoredDirectives(func);
  // Why the analysis gave up is not an error of the program: the region
  // then runs replicated, and the report says why.
  std::string why;
  PolyhedralRegion &analysis = getChildAnalysis<PolyhedralRegion>(func);
  FailureOr<FlowDependenceInfo> deps;
  {
    ScopedDiagnosticHandler capture(&getContext(), [&](Diagnostic &d) {
      if (why.empty())
        why = d.str();
      return success();
    });
    deps = computeFlowDependences(analysis, maxIslOperations);
  }
  if (failed(deps)) {
    // A distribution the user asked for cannot be honoured: say so.
    WalkResult pinned = func.walk([&](Operation *op) {
      auto layout = op->getAttrOfType<dist::LayoutAttr>("dist.layout");
      if (!layout || !layout.getDims().front().isDistributed())
        return WalkResult::advance();
      op->emitError("cannot distribute this loop: ") << why;
      return WalkResult::interrupt();
    });
    if (pinned.wasInterrupted())
      return failure();
    if (report)
      func.emitRemark() << "runs on every rank: " << why;
    return success();
  }
  SmallVector<UnitCandidate> candidates =
      findUnits(func, *deps, splitFpReductions);
  SmallVector<UnitOptions> options;
  if (failed(applyDirectives(func, candidates, *deps, options)))
    return failure();
  SmallVector<DistUnit> units;
  SmallVector<bool> candidate;
  for (auto [u, c] : llvm::enumerate(candidates)) {
    units.push_back(c.unit);
    units.back().distributed = options[u].distributed;
    candidate.push_back(options[u].distributed);
  }
  PartitionChoice choice;
  for (const UnitOptions &o : options)
    choice.distributed.push_back(o.distributed);
  llvm::Expected<MachineModel> model = MachineModel::get(device, linkGBps);
  if (!model)
    return func.emitError() << "dist-partition: "
                            << llvm::toString(model.takeError());
  MachineModel machine = *model;
  FailureOr<PartitionCosts> costs;
  if (llvm::is_contained(candidate, true)) {
    ScopedDiagnosticHandler capture(&getContext(), [&](Diagnostic &d) {
      why = d.str();
      return success();
    });
    costs = estimatePartitionCosts(analysis, units, ranks, nominalSize,
                                   maxIslOperations);
    if (succeeded(costs))
      choice = choosePartition(options, *costs, machine);
    else if (report)
      func.emitRemark() << "no cost estimate (" << why
                        << "): every candidate is distributed";
  }
  auto block = dist::DimDistAttr::get(&getContext(), dist::DistKind::Block, 0);
  for (auto [u, c] : llvm::enumerate(candidates)) {
    c.unit.op->setAttr(kUnitAttr, UnitAttr::get(&getContext()));
    if (choice.distributed[u]) {
      c.unit.op->setAttr(kDistributeAttr, block);
      for (const UnitReduction &r : c.unit.reductions)
        r.store->setAttr(kReduceAttr, StringAttr::get(&getContext(), r.kind));
    }
    if (!report)
      continue;
    InFlightDiagnostic d = c.unit.op->emitRemark();
    d << (choice.distributed[u] ? "distributed: blocks of its iterations on "
                                  "each rank"
                                : "runs on every rank: ");
    if (choice.distributed[u] && !c.unit.reductions.empty()) {
      SmallVector<StringRef> kinds;
      for (const UnitReduction &r : c.unit.reductions)
        if (!llvm::is_contained(kinds, r.kind))
          kinds.push_back(r.kind);
      d << ", partial results combined with MPI_Allreduce ("
        << llvm::join(kinds, ", ") << ")";
    }
    if (!c.distributable) {
      d << c.reason;
      continue;
    }
    if (options[u].replicated != options[u].distributed) {
      d << (choice.distributed[u] ? " " : "") << "as '#pragma weft' asks";
      continue;
    }
    if (!choice.distributed[u])
      d << "distributing it is predicted to be slower";

    if (failed(costs))
      continue;
    SmallVector<bool> other(choice.distributed);
    other[u] = !other[u];
    d << llvm::formatv(" (predicted region time at {0} ranks {1:e2} s; "
                       "{2:e2} s if {3})",
                       ranks, choice.predictedSeconds,
                       predictSeconds(other, *costs, machine),
                       other[u] ? "distributed" : "replicated");
  }
  if (report && succeeded(costs))
    func.emitRemark() << "partition chosen by the dynamic program over "
                      << candidates.size() << " units ("
                      << llvm::count(candidate, true) << " candidates, "
                      << choice.states << " states"
                      << (choice.exact ? "" : ", window too large: greedy")
                      << ")";
  return success();
}
