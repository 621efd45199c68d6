//===- DistPartition.cpp - Choose the distribution of each unit -*- C++ -*-===//
//
// Implements dist-partition: finds the units and their candidates,
// estimates the costs with ISL and lets the Arachne dynamic program choose.
//
//===----------------------------------------------------------------------===//
#include "dialects/Weft/IR/WeftDialect.h"
#include "weft/Partition/Passes.h"

#include "ArachneDP.h"
#include "Units.h"

#include "dialects/Dist/IR/DistOps.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/FormatVariadic.h"

#include <optional>

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
    nominalSizes.fallback = nominalSize;
    if (llvm::Error error = nominalSizes.add(sizes)) {
      getOperation().emitError("dist-partition: size: ")
          << llvm::toString(std::move(error));
      return signalPassFailure();
    }
    // Every region's errors are reported, not only the first one's.
    bool ok = true;
    for (func::FuncOp func : getOperation().getOps<func::FuncOp>())
      if (isDistributable(func))
        ok &= succeeded(partition(func));
    if (!ok)
      signalPassFailure();
    // Only attributes changed: dist-materialize reuses the regions' models
    // and flows.
    markAnalysesPreserved<PolyhedralRegion>();
  }
  LogicalResult partition(func::FuncOp func);
  /// The values the cost estimates give sizes unknown at compile time.
  cost::NominalSizes nominalSizes;
  /// The machine of the cost estimates, made once for all regions (a CPU
  /// description file is read once).
  std::optional<MachineModel> regionsMachine;
};
} // end anonymous namespace

/// The choices directives leave for each unit (2-D grids only if `grids`);
/// fails with an error on a directive the partitioner cannot honour.
static LogicalResult applyDirectives(func::FuncOp func,
                                     ArrayRef<UnitCandidate> units,
                                     const FlowDependenceInfo &deps, bool grids,
                                     SmallVectorImpl<UnitOptions> &options) {
  bool nodist = func->hasAttr(weft::WeftDialect::getNoDistAttrName());
  for (const UnitCandidate &c : units)
    options.push_back(
        {true, c.distributable && !nodist, c.gridCapable && !nodist && grids});
  WalkResult r = func.walk([&](Operation *op) {
    auto layout = op->getAttrOfType<dist::LayoutAttr>(
        dist::DistDialect::getLayoutAttrName());
    if (!layout || !isa<affine::AffineForOp>(op))
      return WalkResult::advance();
    auto it = llvm::find_if(
        units, [&](const UnitCandidate &c) { return c.unit.op == op; });
    ArrayRef<dist::DimDistAttr> dims = layout.getDims();
    auto blockOn = [&](unsigned d) {
      return d < dims.size() && dims[d].getKind() == dist::DistKind::Block &&
             dims[d].getGridAxis() == int64_t(d);
    };
    // Block on the outer loop, or on the two outer loops over the axes of
    // a 2-D grid in order; nothing else distributed.
    unsigned split = blockOn(0) ? (blockOn(1) ? 2 : 1) : 0;
    bool othersReplicated =
        llvm::all_of(dims.drop_front(split),
                     [](dist::DimDistAttr d) { return !d.isDistributed(); });
    if (!othersReplicated) {
      op->emitError("'#pragma weft distribute' can only ask for 'block' on "
                    "the outermost loop of a nest, or on its two outermost "
                    "loops (over the two axes of a 2-D grid, in order), or "
                    "'*', for now");
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
      o = {true, false, false};
      return WalkResult::advance();
    }
    if (!it->distributable || nodist) {
      op->emitError("cannot distribute this loop: ")
          << (nodist ? "the region is marked '#pragma weft nodist'"
                     : it->reason);
      return WalkResult::interrupt();
    }
    if (split == 2 && !it->gridCapable) {
      op->emitError("cannot distribute this loop and the loop inside it over "
                    "a 2-D grid: its body must be one loop that holds every "
                    "access, carries no flow dependence, has step 1 and "
                    "bounds that do not change during the region");
      return WalkResult::interrupt();
    }
    o = {false, split == 1, split == 2};
    return WalkResult::advance();
  });
  return failure(r.wasInterrupted());
}

/// Directives that are recorded but not acted on yet get a warning, so that
/// nobody believes they steered the result.
static void warnIgnoredDirectives(func::FuncOp func) {
  auto grid =
      func->getAttrOfType<dist::GridAttr>(dist::DistDialect::getGridAttrName());
  if (grid && grid.getRank() > 2)
    func.emitWarning("'#pragma weft grid' with ")
        << grid.getRank()
        << " extents is not acted on: nests are split over all ranks or "
           "over a 2-D grid";
  for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
    if (func.getArgAttr(i, dist::DistDialect::getLayoutAttrName())) {
      // The argument's C expression, "(double *)(A)": its last operand.
      auto cArg = func.getArgAttrOfType<StringAttr>(
          i, weft::WeftDialect::getCArgAttrName());
      StringRef name = cArg ? cArg.getValue() : "";
      name = name.substr(name.rfind('(') + 1).rtrim(')');
      func.emitWarning("'#pragma weft distribute' or 'replicate' of array '")
          << name
          << "' is not acted on yet: every rank holds whole arrays, and the "
             "loops' distributions decide who computes what";
    }
  func.walk([](affine::AffineForOp loop) {
    if (loop->hasAttr(weft::WeftDialect::getParallelAttrName()))
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
  // Whether a region of which nothing is distributed runs on rank 0 alone
  // (dist-run-on-root): its remarks then do not say "every rank".
  bool replicatedOnRoot =
      !liveOutEverywhere &&
      !func->hasAttr(weft::WeftDialect::getNoDistAttrName());
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
      auto layout = op->getAttrOfType<dist::LayoutAttr>(
          dist::DistDialect::getLayoutAttrName());
      if (!layout || !layout.getDims().front().isDistributed())
        return WalkResult::advance();
      op->emitError("cannot distribute this loop: ") << why;
      return WalkResult::interrupt();
    });
    if (pinned.wasInterrupted())
      return failure();
    if (report)
      func.emitRemark() << (replicatedOnRoot ? "not distributed: "
                                             : "runs on every rank: ")
                        << why;
    return success();
  }
  SmallVector<UnitCandidate> candidates =
      findUnits(func, *deps, splitFpReductions);
  GridPreference preference = gridPreference(func);
  SmallVector<UnitOptions> options;
  if (failed(applyDirectives(func, candidates, *deps,
                             gridDims >= 2 && preference.allowsGrid, options)))
    return failure();
  SmallVector<DistUnit> units;
  SmallVector<bool> candidate;
  for (auto [u, c] : llvm::enumerate(candidates)) {
    units.push_back(c.unit);
    units.back().distributed = options[u].distributed || options[u].grid;
    units.back().gridDims = options[u].grid ? 2 : 1;
    candidate.push_back(units.back().distributed);
  }
  PartitionChoice choice;
  for (const UnitOptions &o : options)
    choice.modes.push_back(o.fallback());
  if (!regionsMachine) {
    llvm::Expected<MachineModel> model =
        MachineModel::get(device, linkGBps, ranks, ranksPerNode);
    if (!model)
      return func.emitError()
             << "dist-partition: " << llvm::toString(model.takeError());
    regionsMachine = *model;
  }
  MachineModel machine = *regionsMachine;
  machine.replicatedOnRoot = replicatedOnRoot;
  FailureOr<PartitionCosts> costs;
  if (llvm::is_contained(candidate, true)) {
    ScopedDiagnosticHandler capture(&getContext(), [&](Diagnostic &d) {
      why = d.str();
      return success();
    });
    costs = estimatePartitionCosts(analysis, units, ranks, nominalSizes,
                                   machine.cpu, maxIslOperations,
                                   {preference.rows, preference.cols});
    if (succeeded(costs))
      choice = choosePartition(options, *costs, machine);
    else if (report)
      func.emitRemark() << "no cost estimate (" << why
                        << "): every candidate is distributed";
  } else if (report && !candidates.empty()) {
    // Nothing to choose, but the report still predicts the region (or
    // says nothing where the estimate fails).
    FailureOr<PartitionCosts> alone = failure();
    {
      ScopedDiagnosticHandler quiet(&getContext(),
                                    [](Diagnostic &) { return success(); });
      alone = estimatePartitionCosts(analysis, units, ranks, nominalSizes,
                                     machine.cpu, maxIslOperations);
    }
    if (succeeded(alone)) {
      InFlightDiagnostic d = func.emitRemark();
      d << llvm::formatv("no unit can be distributed: predicted region time "
                         "at {0} ranks {1:e2} s",
                         ranks, predictSeconds(choice.modes, *alone, machine));
      if (!alone->nominalSizes.empty())
        d << " with " << alone->sizes.describe(alone->nominalSizes);
    }
  }
  MLIRContext *ctx = &getContext();
  auto block = dist::DimDistAttr::get(ctx, dist::DistKind::Block, 0);
  auto grid = dist::LayoutAttr::get(
      ctx, {block, dist::DimDistAttr::get(ctx, dist::DistKind::Block, 1)},
      dist::GridAttr::get(ctx, {ShapedType::kDynamic, ShapedType::kDynamic}));
  auto describe = [](unsigned mode) {
    return mode == 0   ? "replicated"
           : mode == 1 ? "distributed"
                       : "distributed over a 2-D grid";
  };
  bool onRoot = replicatedOnRoot &&
                llvm::all_of(choice.modes, [](unsigned m) { return m == 0; });
  for (auto [u, c] : llvm::enumerate(candidates)) {
    unsigned mode = choice.modes[u];
    c.unit.op->setAttr(dist::DistDialect::getUnitAttrName(),
                       UnitAttr::get(ctx));
    if (mode) {
      c.unit.op->setAttr(dist::DistDialect::getDistributeAttrName(),
                         mode == 2 ? Attribute(grid) : Attribute(block));
      for (const UnitReduction &r : c.unit.reductions)
        r.store->setAttr(dist::DistDialect::getReduceAttrName(),
                         StringAttr::get(ctx, r.kind));
    }
    if (!report)
      continue;
    InFlightDiagnostic d = c.unit.op->emitRemark();
    d << (mode == 2   ? "distributed over a 2-D grid: blocks of its "
                        "iterations and of the inner loop's on each rank"
          : mode == 1 ? "distributed: blocks of its iterations on each rank"
          : onRoot    ? "not distributed: "
                      : "runs on every rank: ");
    if (mode && !c.unit.reductions.empty()) {
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
    SmallVector<unsigned> others;
    for (unsigned m = 0; m <= kMaxGridDims; ++m)
      if (m != mode && options[u].allows(m))
        others.push_back(m);
    if (others.empty()) {
      d << (mode ? " " : "") << "as '#pragma weft' asks";
      continue;
    }
    if (!mode)
      d << "distributing it is predicted to be slower";

    if (failed(costs))
      continue;
    d << llvm::formatv(" (predicted region time at {0} ranks {1:e2} s; ", ranks,
                       choice.predictedSeconds);
    for (auto [k, m] : llvm::enumerate(others)) {
      SmallVector<unsigned> other(choice.modes);
      other[u] = m;
      d << (k ? ", " : "")
        << llvm::formatv("{0:e2} s if {1}",
                         predictSeconds(other, *costs, machine), describe(m));
    }
    d << ")";
  }
  if (report && succeeded(costs)) {
    InFlightDiagnostic d = func.emitRemark();
    d << "partition chosen by the dynamic program over " << candidates.size()
      << " units (" << llvm::count(candidate, true) << " candidates, "
      << choice.states << " states"
      << (choice.exact ? "" : ", window too large: greedy")
      << llvm::formatv("): predicted region time at {0} ranks {1:e2} s", ranks,
                       choice.predictedSeconds);
    // Predicted times are for these sizes, not the run's.
    if (!costs->nominalSizes.empty())
      d << "; predicted times with "
        << costs->sizes.describe(costs->nominalSizes);
  }
  if (report && (preference.rows || preference.cols) &&
      llvm::is_contained(choice.modes, 2))
    func.emitRemark() << "the 2-D grid has "
                      << (preference.rows ? std::to_string(preference.rows)
                                          : "*")
                      << " x "
                      << (preference.cols ? std::to_string(preference.cols)
                                          : "*")
                      << " ranks as '#pragma weft grid' asks, when the number "
                         "of ranks fits (else the most nearly square shape)";
  return success();
}
