//===- PlaceData.cpp - Device copies of the arrays of device nests --------===//
//
// Implements gpu-place-data: device buffers for the arrays the device nests
// access, filled with the flow-in box before the first kernel and emptied of
// the live-out box after the last one (DeviceMapping.h computes both from
// the exact flow), so that data crosses the bus once per region.
//
//===----------------------------------------------------------------------===//
#include "weft/GPU/Passes.h"

#include "DeviceNests.h"

#include "weft/Analysis/Polyhedral/DeviceMapping.h"
#include "weft/Partition/AstToLoops.h"
#include "weft/Partition/NestComments.h"
#include "weft/Support/SourceNames.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"

namespace weft {
#define GEN_PASS_DEF_GPUPLACEDATA
#include "weft/GPU/Passes.h.inc"
} // namespace weft

using namespace mlir;
using namespace weft;

namespace {
/// The device nests of one function and what they need.
class Placement {
public:
  Placement(func::FuncOp func, SmallVector<affine::AffineForOp> nests,
            bool resident)
      : func(func), nests(std::move(nests)), resident(resident) {}

  /// Rewrites the function; on failure it is unchanged and `why` says why.
  LogicalResult run(unsigned long maxIslOperations, bool report);
  std::string why;

private:
  bool inNest(Operation *op) const {
    return llvm::any_of(
        nests, [&](affine::AffineForOp n) { return n->isAncestor(op); });
  }
  /// A scalar declared in the region that one nest alone uses: each thread
  /// has its own (gpu-map-loops), no buffer.
  bool perThread(Value memref) const;
  /// The extent of `memref`'s dimension `d` on the host, or null.
  Value hostExtent(OpBuilder &b, Value memref, unsigned d);
  /// Copies `box` between `host` and its device buffer.
  LogicalResult copy(OpBuilder &b, Value host, const DeviceBox &box,
                     bool toDevice);

  func::FuncOp func;
  SmallVector<affine::AffineForOp> nests;
  /// Whether the buffers of arrays only the nests access stay resident.
  bool resident;
  llvm::StringMap<Value> ids;
  DenseMap<Value, Value> device;
  /// The arrays whose buffer and copies are marked kGpuResidentAttr.
  DenseSet<Value> residentArrays;
};
} // end anonymous namespace

bool Placement::perThread(Value memref) const {
  auto alloca = memref.getDefiningOp<memref::AllocaOp>();
  if (!alloca || alloca.getType().getRank() != 0)
    return false;
  return llvm::any_of(nests, [&](affine::AffineForOp n) {
    return llvm::all_of(memref.getUsers(),
                        [&](Operation *user) { return n->isAncestor(user); });
  });
}

Value Placement::hostExtent(OpBuilder &b, Value memref, unsigned d) {
  auto type = cast<MemRefType>(memref.getType());
  if (!type.isDynamicDim(d))
    return b.create<arith::ConstantIndexOp>(func.getLoc(), type.getDimSize(d));
  auto arg = dyn_cast<BlockArgument>(memref);
  if (!arg)
    return {};
  auto dims = func.getArgAttrOfType<DenseI64ArrayAttr>(
      arg.getArgNumber(), weft::WeftDialect::getDimArgsAttrName());
  if (!dims || d >= dims.size() || dims[d] < 0)
    return {};
  return func.getArgument(dims[d]);
}

LogicalResult Placement::copy(OpBuilder &b, Value host, const DeviceBox &box,
                              bool toDevice) {
  if (box.empty)
    return success();
  Location loc = func.getLoc();
  Value dev = device.lookup(host);
  // Both sides view the same box (a whole rank-0 memref has no box).
  Value hostView = host, deviceView = dev;
  if (!box.bounds.empty()) {
    SmallVector<OpFoldResult> offsets, sizes, strides;
    for (auto &[lo, hi] : box.bounds) {
      FailureOr<Value> l = emitAstExpr(b, loc, lo, ids);
      FailureOr<Value> h = emitAstExpr(b, loc, hi, ids);
      if (failed(l) || failed(h))
        return failure();
      offsets.push_back(*l);
      sizes.push_back(b.createOrFold<arith::SubIOp>(loc, *h, *l));
      strides.push_back(b.getIndexAttr(1));
    }
    hostView = b.create<memref::SubViewOp>(loc, host, offsets, sizes, strides);
    deviceView = b.create<memref::SubViewOp>(loc, dev, offsets, sizes, strides);
  }
  auto memcpy = b.create<gpu::MemcpyOp>(loc, Type(), ValueRange{},
                                        toDevice ? deviceView : hostView,
                                        toDevice ? hostView : deviceView);
  if (residentArrays.contains(host))
    memcpy->setAttr(kGpuResidentAttr, b.getUnitAttr());
  return success();
}

/// Whether `nest` writes `memref`.
static bool writes(affine::AffineForOp nest, Value memref) {
  return nest
      .walk([&](Operation *op) {
        auto store = dyn_cast<affine::AffineStoreOp>(op);
        return store && store.getMemRef() == memref ? WalkResult::interrupt()
                                                    : WalkResult::advance();
      })
      .wasInterrupted();
}

/// The device transfers get this fraction of the ISL quota: where they
/// cannot be bounded the nests stay on the host, a choice not worth the
/// whole quota's seconds of compile time (test/E2E/seq/steps.c's strided
/// loops took 5 s to give up).
static constexpr unsigned long kTransfersShare = 4;

LogicalResult Placement::run(unsigned long maxIslOperations, bool report) {
  // The arrays the nests access, in order of first use.
  llvm::SetVector<Value> used;
  for (affine::AffineForOp nest : nests)
    nest.walk([&](Operation *op) {
      for (Value v : op->getOperands()) {
        if (!isa<MemRefType>(v.getType()))
          continue;
        Operation *def = v.getDefiningOp();
        bool inside =
            def ? nest->isAncestor(def)
                : nest->isAncestor(
                      cast<BlockArgument>(v).getOwner()->getParentOp());
        if (!inside && !perThread(v))
          used.insert(v);
      }
    });
  for (Value m : used) {
    auto type = cast<MemRefType>(m.getType());
    if (!type.getLayout().isIdentity() || type.getMemorySpace())
      return why = "an array it accesses has a layout or memory space",
             failure();
  }

  FailureOr<DeviceTransfers> transfers = failure();
  {
    std::string islError;
    ScopedDiagnosticHandler quiet(func.getContext(), [&](Diagnostic &d) {
      if (d.getSeverity() == DiagnosticSeverity::Error)
        islError = d.str();
      return success();
    });
    PolyhedralRegion region(func);
    transfers = computeDeviceTransfers(region, used.getArrayRef(),
                                       maxIslOperations / kTransfersShare);
    if (failed(transfers))
      return why = "its data cannot be bounded (" + islError + ")", failure();
  }
  DenseMap<Value, const DeviceArrayTransfers *> of;
  for (const DeviceArrayTransfers &t : transfers->arrays)
    of[t.memref] = &t;

  // Everything moves at the top level of the function, around the
  // statements that hold device nests; the boxes' symbols must be defined
  // by then.
  Block &entry = func.getBody().front();
  Operation *first = nullptr;
  for (affine::AffineForOp nest : nests) {
    Operation *top = entry.findAncestorOpInBlock(*nest);
    if (!first || top->isBeforeInBlock(first))
      first = top;
  }
  for (auto &[name, param] : transfers->params) {
    Value v = param.symbol;
    Operation *def = v ? v.getDefiningOp() : nullptr;
    if (!v ||
        (def && (def->getBlock() != &entry || !def->isBeforeInBlock(first))))
      return why = "the bounds of its data are computed inside the region",
             failure();
    ids[name] = v;
  }
  for (Value m : used)
    if (!of.count(m))
      return why = "an array it accesses has no polyhedral model", failure();

  Location loc = func.getLoc();
  OpBuilder b(first);
  SmallVector<Value> deviceOnly, shared;
  for (Value m : used) {
    auto type = cast<MemRefType>(m.getType());
    SmallVector<Value> sizes;
    for (unsigned d = 0; d < type.getRank(); ++d) {
      if (!type.isDynamicDim(d))
        continue;
      Value extent;
      if (d == 0) {
        // As far as the region's accesses reach (the host array's first
        // extent is not known).
        FailureOr<Value> hi =
            emitAstExpr(b, loc, of[m]->accessed.bounds[0].second, ids);
        if (failed(hi))
          return why = "the extent of an array cannot be built", failure();
        extent = *hi;
      } else {
        extent = hostExtent(b, m, d);
      }
      if (!extent)
        return why = "an array's extent is not known", failure();
      sizes.push_back(extent);
    }
    // The device copy of `A` is `d_A` in the CUDA C++.
    std::string name = sourceArrayName(func, m);
    Location named =
        isCIdentifier(name) ? withSourceName(loc, deviceCopyName(name)) : loc;
    auto alloc = b.create<gpu::AllocOp>(named, type, Type(), ValueRange{},
                                        sizes, ValueRange{},
                                        /*hostShared=*/false);
    device[m] = alloc.getMemref();
    bool onlyInNests = llvm::all_of(
        m.getUsers(), [&](Operation *user) { return inNest(user); });
    (onlyInNests ? deviceOnly : shared).push_back(m);
    if (resident && onlyInNests) {
      residentArrays.insert(m);
      alloc->setAttr(kGpuResidentAttr, b.getUnitAttr());
    }
  }
  for (Value m : deviceOnly)
    if (failed(copy(b, m, of[m]->in, /*toDevice=*/true)))
      return why = "a transfer's bounds cannot be built", failure();
  // An array host code accesses too moves around each top-level statement
  // whose nests use it, or around each such nest where host code in the
  // same statement uses it.
  for (Value m : shared) {
    auto uses = [&](Operation *op) {
      return llvm::any_of(m.getUsers(),
                          [&](Operation *u) { return op->isAncestor(u); });
    };
    llvm::SetVector<Operation *> tops;
    for (affine::AffineForOp nest : nests)
      if (uses(nest))
        tops.insert(entry.findAncestorOpInBlock(*nest));
    for (Operation *top : tops) {
      bool hostInside = llvm::any_of(m.getUsers(), [&](Operation *u) {
        return top->isAncestor(u) && !inNest(u);
      });
      SmallVector<Operation *> spans{top};
      if (hostInside) {
        spans.clear();
        for (affine::AffineForOp nest : nests)
          if (top->isAncestor(nest) && uses(nest))
            spans.push_back(nest);
      }
      for (Operation *span : spans) {
        OpBuilder before(span);
        if (failed(copy(before, m, of[m]->accessed, /*toDevice=*/true)))
          return why = "a transfer's bounds cannot be built", failure();
        bool written = llvm::any_of(nests, [&](affine::AffineForOp nest) {
          return span->isAncestor(nest) && writes(nest, m);
        });
        if (!written)
          continue;
        OpBuilder after(span->getBlock(), std::next(span->getIterator()));
        if (failed(copy(after, m, of[m]->accessed, /*toDevice=*/false)))
          return why = "a transfer's bounds cannot be built", failure();
      }
    }
  }
  b.setInsertionPoint(entry.getTerminator());
  for (Value m : deviceOnly)
    if (failed(copy(b, m, of[m]->out, /*toDevice=*/false)))
      return why = "a transfer's bounds cannot be built", failure();
  for (Value m : used) {
    auto dealloc =
        b.create<gpu::DeallocOp>(loc, Type(), ValueRange{}, device[m]);
    if (residentArrays.contains(m))
      dealloc->setAttr(kGpuResidentAttr, b.getUnitAttr());
  }
  for (Value m : used)
    m.replaceUsesWithIf(device[m],
                        [&](OpOperand &use) { return inNest(use.getOwner()); });

  if (report && !used.empty()) {
    InFlightDiagnostic d = func.emitRemark("device copies: ");
    SmallVector<std::string> lines;
    for (Value m : used) {
      const DeviceArrayTransfers &t = *of[m];
      std::string line = argumentSourceName(func, m) + " ";
      if (llvm::is_contained(shared, m)) {
        line += "moves before and after each statement whose kernels use it "
                "(host code uses it too)";
      } else if (residentArrays.contains(m)) {
        // The runtime moves what is newer on the other side (docs/cuda.md).
        line += "stays on the device across nests";
        line +=
            t.in.empty ? ", is not copied in"
            : t.inIsFlowIn
                ? ", goes in where newer on the host (its flow-in "
                  "elements)"
                : ", goes in where newer on the host (the box of its "
                  "flow-in elements" +
                      std::string(t.out.exact ? "" : " and of what it writes") +
                      ")";
        if (!t.out.empty)
          line += t.out.exact ? ", is newer there after the nest (its "
                                "written elements)"
                              : ", is newer there after the nest (the box of "
                                "its written elements)";
      } else {
        line +=
            t.in.empty ? "is not copied in"
            : t.inIsFlowIn
                ? "goes in before the first kernel (its flow-in "
                  "elements)"
                : "goes in before the first kernel (the box of its "
                  "flow-in elements" +
                      std::string(t.out.exact ? "" : " and of the copy back") +
                      ")";
        line += t.out.empty ? ", is not copied back"
                : t.out.exact
                    ? ", comes back after the last (its live-out elements)"
                    : ", comes back after the last (the box of its live-out "
                      "elements)";
      }
      lines.push_back(line);
    }
    d << llvm::join(lines, "; ");
  }
  return success();
}

void weft::placeDeviceData(func::FuncOp func, bool report,
                           unsigned long maxIslOperations, bool resident) {
  SmallVector<affine::AffineForOp> nests;
  func.walk([&](affine::AffineForOp loop) {
    if (loop->hasAttr(kGpuBandAttr))
      nests.push_back(loop);
  });
  if (nests.empty())
    return;
  // Built on a copy, so that a failure leaves the function as it was: its
  // nests then stay on the host.
  func::FuncOp trial = func.clone();
  SmallVector<affine::AffineForOp> trialNests;
  trial.walk([&](affine::AffineForOp loop) {
    if (loop->hasAttr(kGpuBandAttr))
      trialNests.push_back(loop);
  });
  Placement placement(trial, trialNests, resident);
  if (succeeded(placement.run(maxIslOperations, report))) {
    func.getBody().takeBody(trial.getBody());
    trial.erase();
    return;
  }
  trial.erase();
  for (affine::AffineForOp nest : nests) {
    if (report)
      nest.emitRemark("stays on the host: ") << placement.why;
    nest->removeAttr(kGpuBandAttr);
    nest->removeAttr(kGpuCoalescedAttr);
  }
}

namespace {
struct GpuPlaceData : weft::impl::GpuPlaceDataBase<GpuPlaceData> {
  using Base::Base;
  void runOnOperation() override {
    for (func::FuncOp func : getOperation().getOps<func::FuncOp>())
      placeDeviceData(func, report, maxIslOperations);
  }
};
} // end anonymous namespace
