//===- SelectNests.cpp - Choose the loop nests that run on the GPU --------===//
//
// Implements gpu-select-nests: the outermost loops whose iterations may run
// as independent threads become device nests, with up to two loops
// perfectly nested in them as further grid dimensions; loops that carry
// dependences stay on the host, and their bodies are searched.
//
//===----------------------------------------------------------------------===//
#include "weft/GPU/Passes.h"

#include "DeviceNests.h"

#include "weft/Analysis/Polyhedral/DeviceMapping.h"
#include "weft/Partition/NestComments.h"
#include "weft/Partition/Passes.h"

#include "mlir/IR/Diagnostics.h"

namespace weft {
#define GEN_PASS_DEF_GPUSELECTNESTS
#include "weft/GPU/Passes.h.inc"
} // namespace weft

using namespace mlir;
using namespace weft;

/// The most grid dimensions CUDA has.
static constexpr unsigned kMaxGridDims = 3;

static std::string lineOf(Operation *op) {
  if (auto loc = dyn_cast<FileLineColLoc>(op->getLoc()))
    return "line " + std::to_string(loc.getLine());
  return "an unknown line";
}

/// Why the ops in `loop` cannot run in a kernel; empty if they can.
static std::string deviceObstacle(affine::AffineForOp loop) {
  std::string why;
  loop.walk([&](Operation *op) {
    if (isa<func::CallOp>(op))
      why = "it calls a function";
    else if (isa<memref::AllocOp, memref::DeallocOp>(op))
      why = "it allocates memory";
    else if (llvm::any_of(op->getOperandTypes(), [](Type t) {
               auto m = dyn_cast<MemRefType>(t);
               return m && m.getRank() > 3;
             }))
      why = "it accesses an array of rank above 3";
    return why.empty() ? WalkResult::advance() : WalkResult::interrupt();
  });
  return why;
}

/// The loop directly and alone in `loop`'s body, if any.
static affine::AffineForOp onlyChildLoop(affine::AffineForOp loop) {
  Block *body = loop.getBody();
  if (!llvm::hasSingleElement(body->without_terminator()))
    return {};
  return dyn_cast<affine::AffineForOp>(body->front());
}

/// Whether `loop`'s bounds use the iterator of one of `outer`.
static bool boundsUse(affine::AffineForOp loop,
                      MutableArrayRef<affine::AffineForOp> outer) {
  for (Value operand : loop->getOperands())
    for (affine::AffineForOp o : outer)
      if (operand == o.getInductionVar())
        return true;
  return false;
}

/// The loop of `band` whose iterator is in the last subscript of the most
/// accesses in it (the innermost one on ties): neighbouring threads along
/// x then touch neighbouring elements.
static unsigned coalescedLoop(MutableArrayRef<affine::AffineForOp> band) {
  SmallVector<unsigned> score(band.size(), 0);
  band.front().walk([&](Operation *op) {
    AffineMap map;
    ValueRange operands;
    if (auto load = dyn_cast<affine::AffineLoadOp>(op)) {
      map = load.getAffineMap();
      operands = load.getMapOperands();
    } else if (auto store = dyn_cast<affine::AffineStoreOp>(op)) {
      map = store.getAffineMap();
      operands = store.getMapOperands();
    } else {
      return;
    }
    if (map.getNumResults() == 0)
      return;
    AffineExpr last = map.getResults().back();
    for (auto [k, loop] : llvm::enumerate(band))
      for (auto [pos, operand] : llvm::enumerate(operands))
        if (operand == loop.getInductionVar() && pos < map.getNumDims() &&
            last.isFunctionOfDim(pos))
          ++score[k];
  });
  unsigned best = band.size() - 1;
  for (unsigned k = band.size(); k-- > 0;)
    if (score[k] > score[best])
      best = k;
  return best;
}

namespace {
/// Marks device nests in a function whose loops `info` classifies.
class NestSelector {
public:
  NestSelector(func::FuncOp func, const DeviceLoopInfo &info, bool report)
      : func(func), info(info), report(report) {}
  void visit(Block &block);

private:
  func::FuncOp func;
  const DeviceLoopInfo &info;
  bool report;
};
} // end anonymous namespace

void weft::selectDeviceNests(func::FuncOp func, bool report,
                             unsigned long maxIslOperations) {
  // Why a function has no model is the model builder's remark: with
  // `report` it is shown, otherwise it is dropped.
  FailureOr<DeviceLoopInfo> info = failure();
  {
    ScopedDiagnosticHandler quiet(func.getContext(), [&](Diagnostic &d) {
      return success(!report && d.getSeverity() == DiagnosticSeverity::Remark);
    });
    PolyhedralRegion region(func);
    info = computeDeviceLoops(region, maxIslOperations);
  }
  if (failed(info)) {
    if (report)
      func.emitRemark("the region runs on the host: it has no polyhedral "
                      "model (see above)");
    return;
  }
  NestSelector(func, *info, report).visit(func.getBody().front());
}

void NestSelector::visit(Block &block) {
  for (Operation &op : block.without_terminator()) {
    auto loop = dyn_cast<affine::AffineForOp>(op);
    if (!loop) {
      // Device nests may sit in the branches of a condition too.
      if (isa<affine::AffineIfOp>(op))
        for (Region &region : op.getRegions())
          for (Block &inner : region)
            visit(inner);
      continue;
    }
    if (!info.threadParallel.lookup(loop)) {
      if (report) {
        InFlightDiagnostic d = loop.emitRemark("stays on the host");
        if (Value m = info.carriedThrough.lookup(loop))
          d << ": it carries a dependence through "
            << argumentSourceName(func, m);
        else
          d << ": it carries a dependence";
        d << "; the loops in it are candidates";
      }
      visit(*loop.getBody());
      continue;
    }
    std::string obstacle = deviceObstacle(loop);
    if (!obstacle.empty()) {
      if (report)
        loop.emitRemark("stays on the host: ") << obstacle;
      continue;
    }
    SmallVector<affine::AffineForOp, kMaxGridDims> band{loop};
    while (band.size() < kMaxGridDims) {
      affine::AffineForOp inner = onlyChildLoop(band.back());
      if (!inner || !info.threadParallel.lookup(inner) ||
          boundsUse(inner, band))
        break;
      band.push_back(inner);
    }
    unsigned x = coalescedLoop(band);
    Builder b(loop.getContext());
    loop->setAttr(kGpuBandAttr, b.getI64IntegerAttr(band.size()));
    loop->setAttr(kGpuCoalescedAttr, b.getI64IntegerAttr(x));
    if (report) {
      InFlightDiagnostic d = loop.emitRemark("runs on the device: ");
      if (band.size() == 1)
        d << "its iterations are the threads of a 1-D grid";
      else
        d << "the iterations of its " << band.size()
          << " outer loops are the threads of a " << band.size()
          << "-D grid, the loop at " << lineOf(band[x])
          << " along threadIdx.x (the arrays' contiguous dimension)";
    }
  }
}

namespace {
struct GpuSelectNests : weft::impl::GpuSelectNestsBase<GpuSelectNests> {
  using Base::Base;
  void runOnOperation() override {
    for (func::FuncOp func : getOperation().getOps<func::FuncOp>())
      if (!func.isExternal() && isDistributable(func))
        selectDeviceNests(func, report, maxIslOperations);
  }
};
} // end anonymous namespace
