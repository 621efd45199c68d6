//===- SelectNests.cpp - Choose the loop nests that run on the GPU --------===//
//
// Implements gpu-select-nests: the outermost loops whose iterations may run
// as independent threads become device nests, with up to two loops
// perfectly nested in them as further grid dimensions, where the cost model
// predicts them faster on the device (or `#pragma weft device` forces
// them); loops that carry dependences stay on the host, and their bodies
// are searched.
//
//===----------------------------------------------------------------------===//
#include "weft/GPU/Passes.h"

#include "DeviceNests.h"
#include "KernelLaunches.h"

#include "weft/Analysis/Polyhedral/DeviceMapping.h"
#include "weft/Analysis/Polyhedral/LoopNestCounts.h"
#include "weft/CostModel/CpuDescription.h"
#include "weft/Partition/NestComments.h"
#include "weft/Partition/Passes.h"

#include "mlir/Dialect/Affine/Analysis/LoopAnalysis.h"
#include "mlir/Dialect/Affine/LoopUtils.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

namespace weft {
#define GEN_PASS_DEF_GPUSELECTNESTS
#include "weft/GPU/Passes.h.inc"
} // namespace weft

using namespace mlir;
using namespace weft;

/// The most grid dimensions CUDA has.
static constexpr unsigned kMaxGridDims = 3;

std::string weft::deviceObstacle(affine::AffineForOp loop) {
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

affine::AffineForOp weft::onlyChildLoop(affine::AffineForOp loop) {
  Block *body = loop.getBody();
  if (!llvm::hasSingleElement(body->without_terminator()))
    return {};
  return dyn_cast<affine::AffineForOp>(body->front());
}

bool weft::boundsUse(affine::AffineForOp loop,
                     ArrayRef<affine::AffineForOp> outer) {
  for (Value operand : loop->getOperands())
    for (affine::AffineForOp o : outer)
      if (operand == o.getInductionVar())
        return true;
  return false;
}

bool weft::triangularBandLoop(affine::AffineForOp loop,
                              ArrayRef<affine::AffineForOp> band) {
  if (!boundsUse(loop, band) || loop.getStepAsInt() != 1 ||
      loop.getLowerBoundMap().getNumResults() != 1 ||
      loop.getUpperBoundMap().getNumResults() != 1)
    return false;
  Value used;
  for (Value operand : loop->getOperands())
    for (affine::AffineForOp o : band)
      if (operand == o.getInductionVar()) {
        if (used && used != operand)
          return false;
        used = operand;
      }
  return true;
}

bool weft::bandLoopMappable(affine::AffineForOp loop,
                            ArrayRef<affine::AffineForOp> band) {
  return !boundsUse(loop, band) || triangularBandLoop(loop, band);
}

namespace {
/// The element an affine load or store accesses.
struct AffineAccess {
  Value memref;
  AffineMap map;
  ValueRange operands;

  static std::optional<AffineAccess> of(Operation *op) {
    if (auto load = dyn_cast<affine::AffineLoadOp>(op))
      return AffineAccess{load.getMemRef(), load.getAffineMap(),
                          load.getMapOperands()};
    if (auto store = dyn_cast<affine::AffineStoreOp>(op))
      return AffineAccess{store.getMemRef(), store.getAffineMap(),
                          store.getMapOperands()};
    return std::nullopt;
  }
  bool operator==(const AffineAccess &other) const {
    return memref == other.memref && map == other.map &&
           llvm::equal(operands, other.operands);
  }
};
} // end anonymous namespace

/// For each loop of `band`, how many accesses in it have its iterator in
/// their last subscript, leaving out those `skip` says.
static SmallVector<unsigned>
contiguousAccesses(ArrayRef<affine::AffineForOp> band,
                   function_ref<bool(const AffineAccess &)> skip = nullptr) {
  SmallVector<unsigned> score(band.size(), 0);
  SmallVector<Value, kMaxGridDims> ivs;
  for (affine::AffineForOp loop : band)
    ivs.push_back(loop.getInductionVar());
  affine::AffineForOp(band.front()).walk([&](Operation *op) {
    std::optional<AffineAccess> access = AffineAccess::of(op);
    if (!access || access->map.getNumResults() == 0 || (skip && skip(*access)))
      return;
    AffineExpr last = access->map.getResults().back();
    for (auto [k, iv] : llvm::enumerate(ivs))
      for (auto [pos, operand] : llvm::enumerate(access->operands))
        if (operand == iv && pos < access->map.getNumDims() &&
            last.isFunctionOfDim(pos))
          ++score[k];
  });
  return score;
}

/// The loop of `band` whose iterator is in the last subscript of the most
/// accesses in it (the innermost one on ties): neighbouring threads along
/// x then touch neighbouring elements.
static unsigned coalescedLoop(ArrayRef<affine::AffineForOp> band) {
  SmallVector<unsigned> score = contiguousAccesses(band);
  unsigned best = band.size() - 1;
  for (unsigned k = band.size(); k-- > 0;)
    if (score[k] > score[best])
      best = k;
  return best;
}

/// How many blocks of 256 threads (gpu-map-loops' shapes) `gpu` holds at
/// once; 0 where its limits are unknown.
static int64_t residentBlocks(const cost::DeviceSpec &gpu) {
  return int64_t(gpu.sms) * gpu.maxThreadsPerSM / kBlock1D;
}

/// Whether `v` is defined inside `op`.
static bool definedIn(Value v, Operation *op) {
  return op->isAncestor(v.getParentBlock()->getParentOp());
}

/// Whether the threads of a nest rooted at `root` may combine reduction
/// update `r` atomically: its element is not a scalar each thread has its
/// own copy of (gpu-map-loops), and a floating-point one may be combined in
/// another order. `why` says why not.
static bool combinable(const FlowDependenceInfo::Reduction &r,
                       affine::AffineForOp root, bool splitFpReductions,
                       std::string &why) {
  auto store = cast<affine::AffineStoreOp>(r.store);
  Value memref = store.getMemRef();
  if (memref.getDefiningOp<memref::AllocaOp>() &&
      llvm::all_of(memref.getUsers(),
                   [&](Operation *u) { return root->isAncestor(u); })) {
    why = "the element it reduces into differs between its iterations";
    return false;
  }
  if (!splitFpReductions && isa<FloatType>(store.getValueToStore().getType())) {
    why = "--fp-reductions=ordered keeps its floating-point reduction in "
          "program order";
    return false;
  }
  return true;
}

std::optional<BandReductions> weft::bandReductions(affine::AffineForOp root,
                                                   affine::AffineForOp loop,
                                                   const DeviceLoopInfo &info,
                                                   bool splitFpReductions) {
  auto found = info.reductions.find(loop);
  if (found == info.reductions.end() || !info.threadParallel.lookup(root) ||
      !bandLoopMappable(loop, {root}))
    return std::nullopt;
  std::string ignored;
  for (const FlowDependenceInfo::Reduction &r : found->second) {
    // Each thread keeps one partial result of the element (gpu-map-loops).
    if (llvm::any_of(cast<affine::AffineStoreOp>(r.store).getMapOperands(),
                     [&](Value v) { return definedIn(v, loop); }) ||
        !combinable(r, root, splitFpReductions, ignored))
      return std::nullopt;
  }
  // The accesses of the elements become each thread's partial result.
  auto ofElement = [&](const AffineAccess &access) {
    return llvm::any_of(found->second, [&](auto &r) {
      return AffineAccess::of(r.store) == access;
    });
  };
  SmallVector<unsigned> score = contiguousAccesses({root, loop}, ofElement);
  ReductionAxis axis =
      score[1] > score[0] ? ReductionAxis::Row : ReductionAxis::Column;
  // A loop of fewer iterations than its threads per block (a filter's three
  // taps) leaves most of them idle: one thread runs it.
  int64_t width = kBlock2D[axis == ReductionAxis::Row ? 0 : 1];
  if (std::optional<uint64_t> trips = affine::getConstantTripCount(loop);
      trips && int64_t(*trips) < width)
    return std::nullopt;
  return BandReductions{found->second, axis};
}

StringRef weft::forcedPlacement(Operation *loop) {
  if (auto place =
          loop->getAttrOfType<StringAttr>(WeftDialect::getGpuPlaceAttrName()))
    return place.getValue();
  return {};
}

bool weft::holdsForcedLoop(affine::AffineForOp loop) {
  return loop.getBody()
      ->walk([](affine::AffineForOp inner) {
        return forcedPlacement(inner).empty() ? WalkResult::advance()
                                              : WalkResult::interrupt();
      })
      .wasInterrupted();
}

std::string weft::formatTime(double us) {
  const char *unit = "us";
  if (us >= 1e6) {
    us /= 1e6;
    unit = "s";
  } else if (us >= 1e3) {
    us /= 1e3;
    unit = "ms";
  }
  return llvm::formatv("{0} {1}", llvm::format("%.3g", us), unit).str();
}

/// "12 us on the device (kernels 1 us, 2 launches 10 us, copies 1 us)".
static std::string deviceTime(const cost::LoopNestTimes &t,
                              const cost::LoopNestCounts &c) {
  return formatTime(t.gpuUs()) + " on the device (kernels " +
         formatTime(t.kernelUs) + ", " +
         llvm::formatv("{0}", llvm::format("%.0f", c.launches)).str() +
         (c.launches == 1 ? " launch " : " launches ") +
         formatTime(t.launchUs) + ", copies " + formatTime(t.copyUs) + ")";
}

namespace {
/// Marks device nests in a function whose loops `info` classifies.
class NestSelector {
public:
  NestSelector(func::FuncOp func, PolyhedralRegion &region,
               const DeviceLoopInfo &info, const DeviceChoice &choice,
               unsigned long maxIslOperations, bool report)
      : func(func), region(region), info(info), choice(choice),
        maxIslOperations(maxIslOperations), report(report) {}
  void visit(Block &block);
  /// Whether a loop forced onto the device cannot run there.
  bool invalid = false;

private:
  /// Whether the nest rooted at `loop`, which may run on the device, does;
  /// `why` says what decided (a directive, the option, the predictions).
  bool onDevice(affine::AffineForOp loop, std::string &why);
  /// The counts of the nest at `loop` for the cost model, or why there are
  /// none (`why`).
  FailureOr<cost::LoopNestCounts> countNest(affine::AffineForOp loop,
                                           std::string &why);
  /// Whether the nest at `loop` would ask the cost model where it runs.
  bool asksCostModel(affine::AffineForOp loop);
  /// Places together the adjacent nests of `block` that ask the cost model
  /// (among them the parts of a loop gpu-expose-bands distributed), into
  /// `grouped`.
  void placeTogether(Block &block);
  /// "predicted ... (sizes taken as ...)" for the nest alone.
  std::string alonePrediction(const cost::LoopNestCounts &counts,
                              bool &device);
  /// The reduction updates whose element the threads of a nest rooted at
  /// `root` may combine when `loop`, in it, runs as threads, or none;
  /// `why` says why not where `loop` has some it may not combine.
  SmallVector<FlowDependenceInfo::Reduction, 1>
  combinedReductions(affine::AffineForOp loop, affine::AffineForOp root,
                     std::string &why);

  /// The decisions placeTogether took, and why, by loop.
  llvm::DenseMap<Operation *, std::pair<bool, std::string>> grouped;

  func::FuncOp func;
  PolyhedralRegion &region;
  const DeviceLoopInfo &info;
  const DeviceChoice &choice;
  unsigned long maxIslOperations;
  bool report;
};
} // end anonymous namespace

/// Swaps back each loop gpu-expose-bands moved outside the loop that
/// carried it (kGpuInterchangedAttr: the root of a 1-D nest, or the second
/// loop of a 2-D band) where its nest stays on the host: the host runs the
/// loops in the source's order.
static void swapBackHostInterchanges(func::FuncOp func, bool report) {
  SmallVector<affine::AffineForOp> moved;
  auto onDevice = [](Operation *loop) {
    for (; isa_and_nonnull<affine::AffineForOp>(loop);
         loop = loop->getParentOp())
      if (loop->hasAttr(kGpuBandAttr))
        return true;
    return false;
  };
  func.walk([&](affine::AffineForOp loop) {
    if (loop->removeAttr(kGpuInterchangedAttr) && !onDevice(loop))
      moved.push_back(loop);
  });
  for (affine::AffineForOp loop : moved) {
    affine::AffineForOp carried = onlyChildLoop(loop);
    if (!carried)
      continue;
    if (report)
      carried.emitRemark("swapped back with the loop at ")
          << lineOf(loop) << ": the nest stays on the host";
    affine::interchangeLoops(loop, carried);
  }
}

LogicalResult weft::selectDeviceNests(func::FuncOp func, bool report,
                                      unsigned long maxIslOperations,
                                      const DeviceChoice &choice) {
  // Why a function has no model is the model builder's remark: with
  // `report` it is shown, otherwise it is dropped.
  FailureOr<DeviceLoopInfo> info = failure();
  PolyhedralRegion region(func);
  {
    ScopedDiagnosticHandler quiet(func.getContext(), [&](Diagnostic &d) {
      return success(!report && d.getSeverity() == DiagnosticSeverity::Remark);
    });
    info = computeDeviceLoops(region, maxIslOperations);
  }
  if (failed(info)) {
    bool forced = false;
    func.walk([&](affine::AffineForOp loop) {
      if (forcedPlacement(loop) == "device") {
        loop.emitError("'#pragma weft device': the loop cannot run on the "
                       "device: its region has no polyhedral model");
        forced = true;
      }
    });
    if (report && !forced)
      func.emitRemark("the region runs on the host: it has no polyhedral "
                      "model (see above)");
    swapBackHostInterchanges(func, report);
    return failure(forced);
  }
  NestSelector selector(func, region, *info, choice, maxIslOperations, report);
  selector.visit(func.getBody().front());
  swapBackHostInterchanges(func, report);
  return failure(selector.invalid);
}

FailureOr<cost::LoopNestCounts>
NestSelector::countNest(affine::AffineForOp loop, std::string &why) {
  FailureOr<cost::LoopNestCounts> counts = failure();
  {
    std::string error;
    ScopedDiagnosticHandler capture(func.getContext(), [&](Diagnostic &d) {
      error = d.str();
      return success();
    });
    counts = countLoopNest(region, loop, choice.sizes, choice.plannedSizes,
                           choice.cpu, maxIslOperations);
    if (failed(counts)) {
      why = "no cost estimate (" + error + ")";
      return failure();
    }
  }
  // A nest whose bounds are all unknown (a rank's block under mpi-cuda)
  // may have no iterations at the nominal sizes: nothing to predict.
  if (counts->accesses == 0) {
    why = counts->nominalSizes.empty()
              ? "no cost estimate (no iterations)"
              : "no cost estimate (no iterations with " +
                    choice.sizes.describe(counts->nominalSizes) + ")";
    return failure();
  }
  return counts;
}

/// "(n, unknown at compile time, taken as 4096; ...)", or empty.
static std::string sizeNotes(const cost::LoopNestCounts &counts,
                             const DeviceChoice &choice) {
  SmallVector<std::string, 2> notes;
  if (!counts.nominalSizes.empty())
    notes.push_back(choice.sizes.describe(counts.nominalSizes));
  if (choice.plannedRanks)
    notes.push_back(llvm::formatv("the first rank's block at {0} ranks",
                                  choice.plannedRanks));
  return notes.empty() ? "" : " (" + llvm::join(notes, "; ") + ")";
}

std::string NestSelector::alonePrediction(const cost::LoopNestCounts &counts,
                                          bool &device) {
  cost::LoopNestTimes t = predictLoopNest(counts, choice.gpu, choice.cpu);
  std::string cpu = formatTime(t.cpuUs) + " on the CPU";
  std::string gpu = deviceTime(t, counts);
  device = t.deviceIsFaster();
  return "predicted " +
         (device ? gpu + " against " + cpu : cpu + " against " + gpu) +
         sizeNotes(counts, choice);
}

bool NestSelector::onDevice(affine::AffineForOp loop, std::string &why) {
  if (forcedPlacement(loop) == "device" || choice.always) {
    why = choice.always ? "gpu-choice=always" : "#pragma weft device";
    // The report still says what the cost model predicts.
    std::string none;
    bool faster;
    if (report)
      if (FailureOr<cost::LoopNestCounts> counts = countNest(loop, none);
          succeeded(counts))
        why += "; " + alonePrediction(*counts, faster);
    return true;
  }
  auto decided = grouped.find(loop);
  if (decided != grouped.end()) {
    why = decided->second.second;
    return decided->second.first;
  }
  // Without counts (ISL over its quota), the nest runs where it may.
  FailureOr<cost::LoopNestCounts> counts = countNest(loop, why);
  if (failed(counts))
    return true;
  bool device;
  why = alonePrediction(*counts, device);
  return device;
}

SmallVector<FlowDependenceInfo::Reduction, 1>
NestSelector::combinedReductions(affine::AffineForOp loop,
                                 affine::AffineForOp root, std::string &why) {
  auto found = info.reductions.find(loop);
  if (found == info.reductions.end())
    return {};
  for (const FlowDependenceInfo::Reduction &r : found->second) {
    // One element for all the threads, reached by a single atomic: its
    // subscripts are the same in every iteration of the nest.
    if (llvm::any_of(cast<affine::AffineStoreOp>(r.store).getMapOperands(),
                     [&](Value v) { return definedIn(v, root); })) {
      why = "the element it reduces into differs between its iterations";
      return {};
    }
    if (!combinable(r, root, choice.splitFpReductions, why))
      return {};
  }
  return found->second;
}

bool NestSelector::asksCostModel(affine::AffineForOp loop) {
  return !choice.always && forcedPlacement(loop).empty() &&
         info.threadParallel.lookup(loop) && deviceObstacle(loop).empty() &&
         !holdsForcedLoop(loop);
}

/// The most adjacent nests placed together (2^n placements are compared);
/// a longer run is placed in groups of this many.
static constexpr unsigned kMaxPlacedTogether = 4;

/// The parts attribute `nests` share, when they are all the parts of one
/// loop gpu-expose-bands distributed that ask the cost model.
static std::optional<int64_t> sameParts(ArrayRef<affine::AffineForOp> nests) {
  std::optional<int64_t> id;
  for (affine::AffineForOp nest : nests) {
    auto parts = nest->getAttrOfType<IntegerAttr>(kGpuPartsAttr);
    if (!parts || (id && *id != parts.getInt()))
      return std::nullopt;
    id = parts.getInt();
  }
  return id;
}

void NestSelector::placeTogether(Block &block) {
  // Runs of adjacent nests that ask the cost model, with nothing between
  // them that touches memory (host code would move their arrays anyway).
  SmallVector<SmallVector<affine::AffineForOp, 2>> runs(1);
  for (Operation &op : block.without_terminator()) {
    auto loop = dyn_cast<affine::AffineForOp>(op);
    if (loop && asksCostModel(loop))
      runs.back().push_back(loop);
    else if (!isMemoryEffectFree(&op) && !runs.back().empty())
      runs.emplace_back();
  }
  // Groups of at most kMaxPlacedTogether, each run cut where that keeps the
  // parts of one distributed loop together when they fit in a group.
  SmallVector<SmallVector<affine::AffineForOp, 2>> groups;
  for (ArrayRef<affine::AffineForOp> run : runs) {
    groups.emplace_back();
    for (unsigned k = 0; k < run.size(); ++k) {
      unsigned parts = 1;
      if (auto id = run[k]->getAttrOfType<IntegerAttr>(kGpuPartsAttr);
          id && (k == 0 || run[k - 1]->getAttr(kGpuPartsAttr) != id))
        while (k + parts < run.size() &&
               run[k + parts]->getAttr(kGpuPartsAttr) == id)
          ++parts;
      unsigned size = groups.back().size();
      if (size == kMaxPlacedTogether || (size && parts <= kMaxPlacedTogether &&
                                         size + parts > kMaxPlacedTogether))
        groups.emplace_back();
      groups.back().push_back(run[k]);
    }
  }
  for (ArrayRef<affine::AffineForOp> nests : groups) {
    unsigned n = nests.size();
    if (n < 2)
      continue;
    SmallVector<cost::LoopNestCounts> counts;
    SmallVector<cost::LoopNestTimes> times;
    std::string ignored;
    for (affine::AffineForOp nest : nests) {
      FailureOr<cost::LoopNestCounts> c = countNest(nest, ignored);
      if (failed(c))
        break;
      counts.push_back(*c);
      times.push_back(predictLoopNest(*c, choice.gpu, choice.cpu));
    }
    if (counts.size() != n)
      continue; // each nest alone, as the remark of each then says
    // Each placement: the nests on the device run their kernels and
    // launches, the others their CPU time, and the copies are those the
    // placement as a whole makes (an array the device nests share moves
    // once; one a host nest accesses too moves around each launch).
    unsigned placements = 1u << n;
    SmallVector<double> total(placements), copies(placements);
    bool failedCopies = false;
    for (unsigned mask = 0; mask < placements && !failedCopies; ++mask) {
      SmallVector<bool> onDevice;
      double us = 0;
      for (unsigned k = 0; k < n; ++k) {
        onDevice.push_back(mask & (1u << k));
        us += onDevice.back() ? times[k].kernelUs + times[k].launchUs
                              : times[k].cpuUs;
      }
      FailureOr<cost::LoopNestCounts> moved = failure();
      {
        ScopedDiagnosticHandler quiet(func.getContext(),
                                      [](Diagnostic &) { return success(); });
        moved = countPlacementCopies(region, nests, onDevice, choice.sizes,
                                     choice.plannedSizes, maxIslOperations);
      }
      if (failed(moved)) {
        failedCopies = true;
        break;
      }
      copies[mask] = predictCopies(*moved, choice.gpu);
      total[mask] = us + copies[mask];
    }
    if (failedCopies)
      continue;
    // Ties go to the host, as for a nest alone.
    unsigned best = 0;
    for (unsigned mask = 1; mask < placements; ++mask)
      if (total[mask] < total[best])
        best = mask;
    // Who the others are: the other parts of one distributed loop, or the
    // nests next to this one.
    std::optional<int64_t> oneLoop = sameParts(nests);
    auto others = [&](unsigned k) -> std::string {
      if (oneLoop)
        return llvm::formatv("the other {0} of the loop distributed at {1}",
                             n > 2 ? "parts" : "part", lineOf(nests[k]));
      SmallVector<std::string> lines;
      for (unsigned o = 0; o < n; ++o)
        if (o != k)
          lines.push_back(lineOf(nests[o]));
      return llvm::formatv("the adjacent {0} at {1}", n > 2 ? "nests" : "nest",
                           llvm::join(lines, ", "));
    };
    StringRef members = oneLoop ? "parts" : "nests";
    // What the device nests' copies would cost charged to each alone.
    double aloneCopies = 0;
    for (unsigned k = 0; k < n; ++k)
      if (best & (1u << k))
        aloneCopies += times[k].copyUs;
    for (unsigned k = 0; k < n; ++k) {
      bool device = best & (1u << k);
      unsigned flipped = best ^ (1u << k);
      std::string why = llvm::formatv(
          "placed with {0}: predicted {1} for the {2} {3} with this one on "
          "the {4} (copies {5}",
          others(k), formatTime(total[best]), n, members,
          device ? "device" : "host", formatTime(copies[best]));
      // (Not for rounding: the copies of adjacent nests that share nothing
      // add up to theirs alone.)
      if (aloneCopies > copies[best] * (1 + 1e-9))
        why += llvm::formatv(", {0} less than charged to each device {1} "
                             "alone",
                             formatTime(aloneCopies - copies[best]),
                             members.drop_back());
      why += llvm::formatv(") against {0} with it on the {1} (copies {2})",
                           formatTime(total[flipped]),
                           device ? "host" : "device",
                           formatTime(copies[flipped]));
      bool alone;
      why += "; alone, " + alonePrediction(counts[k], alone);
      grouped[nests[k]] = {device, why};
    }
  }
}

void NestSelector::visit(Block &block) {
  placeTogether(block);
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
    StringRef forced = forcedPlacement(loop);
    if (forced == "host") {
      if (report)
        loop.emitRemark("stays on the host: #pragma weft host");
      continue;
    }
    std::string notCombined;
    SmallVector<FlowDependenceInfo::Reduction, 1> reductions =
        combinedReductions(loop, loop, notCombined);
    if (!info.threadParallel.lookup(loop) && reductions.empty()) {
      std::string through;
      if (Value m = info.carriedThrough.lookup(loop))
        through = " through " + argumentSourceName(func, m);
      if (!notCombined.empty())
        through += " (a reduction its threads cannot combine: " +
                   notCombined + ")";
      if (forced == "device") {
        loop.emitError("'#pragma weft device': the loop cannot run on the "
                       "device: it carries a dependence")
            << through;
        invalid = true;
        continue;
      }
      if (report)
        loop.emitRemark("stays on the host: it carries a dependence")
            << through << "; the loops in it are candidates";
      visit(*loop.getBody());
      continue;
    }
    std::string obstacle = deviceObstacle(loop);
    if (!obstacle.empty()) {
      if (forced == "device") {
        loop.emitError("'#pragma weft device': the loop cannot run on the "
                       "device: ")
            << obstacle;
        invalid = true;
      } else if (report) {
        loop.emitRemark("stays on the host: ") << obstacle;
      }
      continue;
    }
    if (forced.empty() && holdsForcedLoop(loop)) {
      if (report)
        loop.emitRemark("stays on the host: a loop in it has a '#pragma weft "
                        "device' or 'host'; the loops in it are candidates");
      visit(*loop.getBody());
      continue;
    }
    // A loop nested in a nest that combines reductions joins its grid where
    // it combines the same ones (or none); a parallel nest takes parallel
    // loops, and a 1-D one the reductions of a row or column
    // (bandReductions) as its last.
    SmallVector<affine::AffineForOp, kMaxGridDims> band{loop};
    std::optional<ReductionAxis> axis;
    auto sameUpdates = [](ArrayRef<FlowDependenceInfo::Reduction> a,
                          ArrayRef<FlowDependenceInfo::Reduction> b) {
      return a.size() == b.size() &&
             llvm::all_of(llvm::zip(a, b), [](auto pair) {
               return std::get<0>(pair).store == std::get<1>(pair).store;
             });
    };
    while (band.size() < kMaxGridDims) {
      affine::AffineForOp inner = onlyChildLoop(band.back());
      if (!inner || !bandLoopMappable(inner, band))
        break;
      std::string ignored;
      bool joins = info.threadParallel.lookup(inner) ||
                   (!reductions.empty() &&
                    sameUpdates(reductions,
                                combinedReductions(inner, loop, ignored)));
      if (!joins && band.size() == 1 && reductions.empty()) {
        if (std::optional<BandReductions> joined =
                bandReductions(loop, inner, info, choice.splitFpReductions)) {
          band.push_back(inner);
          reductions = joined->updates;
          axis = joined->axis;
        }
        break;
      }
      if (!joins)
        break;
      band.push_back(inner);
    }
    std::string why;
    if (!onDevice(loop, why)) {
      if (report)
        loop.emitRemark("stays on the host: ") << why;
      continue;
    }
    // A row reduction's threads along x share a row; a column reduction's
    // along y a column, its loop along x as without the reduction.
    unsigned x = !axis                        ? coalescedLoop(band)
                 : axis == ReductionAxis::Row ? 1
                                              : 0;
    Builder b(loop.getContext());
    loop->setAttr(kGpuBandAttr, b.getI64IntegerAttr(band.size()));
    loop->setAttr(kGpuCoalescedAttr, b.getI64IntegerAttr(x));
    for (const FlowDependenceInfo::Reduction &r : reductions)
      r.store->setAttr(WeftDialect::getGpuReduceAttrName(),
                       b.getStringAttr(r.kind));
    // Blocks past two waves of resident ones add nothing but atomic
    // updates: gpu-map-loops' grid-stride loop.
    int64_t gridBlocks = residentBlocks(choice.gpu) * 2;
    if (!reductions.empty() && gridBlocks > 0)
      loop->setAttr(WeftDialect::getGpuGridBlocksAttrName(),
                    b.getI64IntegerAttr(gridBlocks));
    std::string shape = axis ? "" : chooseKernelShape(band, x, choice);
    if (report) {
      InFlightDiagnostic d = loop.emitRemark("runs on the device: ");
      if (band.size() == 1)
        d << "its iterations are the threads of a 1-D grid";
      else
        d << "the iterations of its " << band.size()
          << " outer loops are the threads of a " << band.size()
          << "-D grid, the loop at " << lineOf(band[x])
          << " along threadIdx.x (the arrays' contiguous dimension)";
      d << "; " << why;
      if (!shape.empty())
        d << "; " << shape;
      if (!reductions.empty()) {
        SmallVector<std::string, 2> combined;
        // What gpu-reduce-blocks will do with gpu-map-loops' block (a
        // reduction nest has no shape of the cost model's).
        int64_t threads =
            band.size() == 1 ? kBlock1D : kBlock2D[0] * kBlock2D[1];
        bool shuffled = true;
        for (const FlowDependenceInfo::Reduction &r : reductions) {
          auto store = cast<affine::AffineStoreOp>(r.store);
          combined.push_back(sourceArrayName(func, store.getMemRef()) + " (" +
                             r.kind + ")");
          shuffled &= combinesInWarps(store.getValueToStore().getType(),
                                      threads, axis == ReductionAxis::Column);
        }
        const char *where = shuffled ? "in warp shuffles" : "in shared memory";
        if (axis) {
          const char *line = axis == ReductionAxis::Row ? "row" : "column";
          d << "; the threads of a " << line << " combine "
            << llvm::join(combined, ", ")
            << ": each block's partial results of a " << line << " " << where
            << ", then one atomic update per " << line << " of the block";
        } else
          d << "; its threads combine " << llvm::join(combined, ", ")
            << ": each block's partial results " << where
            << (shuffled ? ", then across warps in shared memory" : "")
            << ", then one atomic update per block";
      }
    }
  }
}

FailureOr<DeviceChoice> DeviceChoice::get(Operation *op, StringRef gpu,
                                          StringRef cpu, StringRef choice,
                                          int64_t nominalSize,
                                          ArrayRef<std::string> sizes,
                                          int64_t registerTile) {
  DeviceChoice c;
  if (choice != "cost" && choice != "always")
    return op->emitError("gpu-choice must be 'cost' or 'always', got '")
           << choice << "'";
  c.always = choice == "always";
  llvm::Expected<cost::DeviceSpec> spec = cost::lookupDevice(gpu);
  if (!spec)
    return op->emitError(llvm::toString(spec.takeError()));
  c.gpu = *spec;
  llvm::Expected<cost::DeviceSpec> host = cost::lookupCpu(cpu);
  if (!host)
    return op->emitError("cpu: ") << llvm::toString(host.takeError());
  c.cpu = *host;
  c.sizes.fallback = nominalSize;
  if (llvm::Error error = c.sizes.add(sizes))
    return op->emitError("size: ") << llvm::toString(std::move(error));
  if (!llvm::is_contained({1, 2, 4, 8}, registerTile))
    return op->emitError("register-tile must be 1, 2, 4 or 8, got ")
           << registerTile;
  c.registerTile = registerTile;
  return c;
}

namespace {
struct GpuSelectNests : weft::impl::GpuSelectNestsBase<GpuSelectNests> {
  using Base::Base;
  void runOnOperation() override {
    FailureOr<DeviceChoice> choice = DeviceChoice::get(
        getOperation(), gpu, cpu, gpuChoice, nominalSize, sizes, registerTile);
    if (failed(choice))
      return signalPassFailure();
    choice->splitFpReductions = splitFpReductions;
    for (func::FuncOp func : getOperation().getOps<func::FuncOp>())
      if (!func.isExternal() && isDistributable(func) &&
          failed(selectDeviceNests(func, report, maxIslOperations, *choice)))
        signalPassFailure();
  }
};
} // end anonymous namespace
