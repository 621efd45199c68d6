//===- DistPartition.cpp - Choose the distribution of each unit -*- C++ -*-===//
//
// Implements dist-partition. Today every unit that may be distributed is
// distributed (owner computes over balanced blocks of its outermost loop);
// the others are replicated.
//
//===----------------------------------------------------------------------===//
#include "weft/Partition/Passes.h"

#include "Units.h"

#include "dialects/Dist/IR/DistOps.h"
#include "mlir/IR/Diagnostics.h"

namespace weft {
#define GEN_PASS_DEF_DISTPARTITION
#include "weft/Partition/Passes.h.inc"
} // namespace weft

using namespace mlir;
using namespace weft;

namespace {
struct DistPartition : weft::impl::DistPartitionBase<DistPartition> {
  using Base::Base;
  void runOnOperation() override;
};
} // end anonymous namespace

void DistPartition::runOnOperation() {
  func::FuncOp func = getOperation();
  // Why the analysis gave up is not an error of the program: the region
  // then runs replicated, and the report says why.
  std::string why;
  FailureOr<FlowDependenceInfo> deps;
  {
    ScopedDiagnosticHandler capture(&getContext(), [&](Diagnostic &d) {
      if (why.empty())
        why = d.str();
      return success();
    });
    deps = computeFlowDependences(func, maxIslOperations);
  }
  if (failed(deps)) {
    if (report)
      func.emitRemark() << "runs on every rank: " << why;
    return;
  }
  auto block = dist::DimDistAttr::get(&getContext(), dist::DistKind::Block, 0);
  for (UnitCandidate &c : findUnits(func, *deps)) {
    c.unit.op->setAttr(kUnitAttr, UnitAttr::get(&getContext()));
    if (c.distributable)
      c.unit.op->setAttr(kDistributeAttr, block);
    if (!report)
      continue;
    if (c.distributable)
      c.unit.op->emitRemark("distributed: blocks of its iterations on each "
                            "rank");
    else
      c.unit.op->emitRemark("runs on every rank: ") << c.reason;
  }
}
