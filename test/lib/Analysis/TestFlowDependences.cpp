//===- TestFlowDependences.cpp - Report flow dependences as remarks -------===//
//
// `weft-opt --test-flow-dependences` reports, for every function, how many
// statements its polyhedral model has and, for every affine loop, whether it
// carries a flow dependence, so lit tests can check the ISL analysis.
//
//===----------------------------------------------------------------------===//
#include "weft/Analysis/Polyhedral/FlowDependences.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;

namespace {
struct TestFlowDependences
    : PassWrapper<TestFlowDependences, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestFlowDependences)

  TestFlowDependences() = default;
  TestFlowDependences(const TestFlowDependences &other) : PassWrapper(other) {}

  StringRef getArgument() const final { return "test-flow-dependences"; }
  StringRef getDescription() const final {
    return "Report the exact flow dependences of static control parts";
  }

  Option<unsigned long> maxIslOps{
      *this, "max-isl-ops",
      llvm::cl::desc("ISL operations quota (0 = no limit)"),
      llvm::cl::init(20000000)};
  Option<bool> printDependences{
      *this, "print-dependences",
      llvm::cl::desc("Also report the dependence relation"),
      llvm::cl::init(false)};

  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      weft::PolyhedralRegion region(func);
      FailureOr<weft::FlowDependenceInfo> info =
          weft::computeFlowDependences(region, maxIslOps);
      if (failed(info))
        continue;
      InFlightDiagnostic remark = func.emitRemark()
                                  << info->numStatements << " statements";
      if (printDependences)
        remark << ", flow dependences " << info->dependences;
      func.walk([&](affine::AffineForOp loop) {
        InFlightDiagnostic d = loop.emitRemark();
        d << (info->loopCarriesFlow.lookup(loop) ? "carries a flow dependence"
                                                 : "carries no flow dependence")
          << (info->loopIsParallel.lookup(loop) ? ", parallel"
                                                : ", not parallel");
        auto it = info->loopReductions.find(loop);
        if (it != info->loopReductions.end())
          d << ", reduction (" << llvm::join(it->second, ", ") << ")";
      });
    }
  }
};
} // end anonymous namespace

namespace weft::test {
void registerTestFlowDependencesPass() {
  PassRegistration<TestFlowDependences>();
}
} // namespace weft::test
