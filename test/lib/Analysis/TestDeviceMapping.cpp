//===- TestDeviceMapping.cpp - Report GPU mapping facts as remarks --------===//
//
// `weft-opt --test-device-mapping` reports, for every affine loop, whether
// its iterations may run as independent GPU threads (or which array carries
// a dependence), and for every memref argument the boxes the CUDA path
// copies to the device before the region and back after it, so that lit
// tests can check the ISL analysis (DeviceMapping.h).
//
//===----------------------------------------------------------------------===//
#include "weft/Analysis/Polyhedral/DeviceMapping.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;

/// `e` in C syntax, with parameters named as ISL names them.
static std::string spell(const weft::AstExpr &e) {
  using K = weft::AstExpr::Kind;
  auto join = [&](StringRef op) {
    std::string s = "(";
    for (auto [i, a] : llvm::enumerate(e.args))
      s += (i ? " " + op.str() + " " : "") + spell(a);
    return s + ")";
  };
  switch (e.kind) {
  case K::Int: return std::to_string(e.value);
  case K::Id: return e.id;
  case K::Add: return join("+");
  case K::Sub: return join("-");
  case K::Mul: return join("*");
  case K::Neg: return "-" + spell(e.args[0]);
  case K::Min: return "min" + join(",");
  case K::Max: return "max" + join(",");
  case K::FloorDiv: return "floord" + join(",");
  case K::Select:
    return "(" + spell(e.args[0]) + " ? " + spell(e.args[1]) + " : " +
           spell(e.args[2]) + ")";
  case K::Eq: return join("==");
  case K::Le: return join("<=");
  case K::Lt: return join("<");
  case K::Ge: return join(">=");
  case K::Gt: return join(">");
  case K::And: return join("&&");
  case K::Or: return join("||");
  default: return "<expr>";
  }
}

static std::string spell(const weft::DeviceBox &box) {
  if (box.empty)
    return "none";
  std::string s;
  for (auto &[lo, hi] : box.bounds)
    s += "[" + spell(lo) + ", " + spell(hi) + ")";
  return (s.empty() ? "scalar" : s) + (box.exact ? "" : " (hull)");
}

namespace {
struct TestDeviceMapping
    : PassWrapper<TestDeviceMapping, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestDeviceMapping)

  StringRef getArgument() const final { return "test-device-mapping"; }
  StringRef getDescription() const final {
    return "Report GPU-parallel loops and host-device transfers";
  }

  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      weft::PolyhedralRegion region(func);
      FailureOr<weft::DeviceLoopInfo> loops =
          weft::computeDeviceLoops(region, 20000000);
      if (failed(loops))
        continue;
      func.walk([&](affine::AffineForOp loop) {
        if (loops->threadParallel.lookup(loop)) {
          loop.emitRemark("thread-parallel");
          return;
        }
        InFlightDiagnostic d = loop.emitRemark("not thread-parallel");
        if (Value m = loops->carriedThrough.lookup(loop)) {
          if (auto arg = dyn_cast<BlockArgument>(m))
            d << ": carries a dependence through argument "
              << arg.getArgNumber();
          else
            d << ": carries a dependence through a local";
        }
      });
      SmallVector<Value> memrefs;
      for (BlockArgument arg : func.getArguments())
        if (isa<MemRefType>(arg.getType()))
          memrefs.push_back(arg);
      FailureOr<weft::DeviceTransfers> transfers =
          weft::computeDeviceTransfers(region, memrefs, 20000000);
      if (failed(transfers))
        continue;
      for (const weft::DeviceArrayTransfers &a : transfers->arrays)
        func.emitRemark() << "argument "
                          << cast<BlockArgument>(a.memref).getArgNumber()
                          << ": accessed " << spell(a.accessed) << ", in "
                          << spell(a.in)
                          << (a.inIsFlowIn ? "" : " (more than flow-in)")
                          << ", out " << spell(a.out);
    }
  }
};
} // end anonymous namespace

namespace weft::test {
void registerTestDeviceMappingPass() { PassRegistration<TestDeviceMapping>(); }
} // namespace weft::test
