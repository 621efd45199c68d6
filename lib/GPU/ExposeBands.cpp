//===- ExposeBands.cpp - Distribute and interchange for 2-D grids ---------===//
//
// Implements gpu-expose-bands: a parallel loop whose grid would be 1-D
// (gemm's `for i { for j ...; for k for j ... }`) is distributed over the
// parts of its body and the loops of a part interchanged so that each part
// is a perfectly nested 2-D parallel band (`for i for j for k`), where the
// region's exact dependences allow it (LoopReordering.h). A loop that
// carries a dependence around a parallel loop (atax's `for i { ...; for j
// y[j] += A[i][j] * tmp[i] }`) is distributed and interchanged with it the
// same way, so that the parallel loop is one grid, launched once, instead
// of one launch per iteration of the carried loop. A loop in it that
// carries a dependence of its own but holds, among the statements of its
// body, some that do not (bicg's `for j { s[j] += ...; q[i] += ... }`) is
// distributed over them first, and the function asked again.
//
//===----------------------------------------------------------------------===//
#include "weft/GPU/Passes.h"

#include "DeviceNests.h"

#include "weft/Analysis/Polyhedral/DeviceMapping.h"
#include "weft/Analysis/Polyhedral/LoopReordering.h"
#include "weft/Partition/Passes.h"

#include "mlir/Dialect/Affine/LoopUtils.h"
#include "mlir/IR/Diagnostics.h"

namespace weft {
#define GEN_PASS_DEF_GPUEXPOSEBANDS
#include "weft/GPU/Passes.h.inc"
} // namespace weft

using namespace mlir;
using namespace weft;

/// How many times gpu-expose-bands asks a function again after
/// distributing inner loops.
static constexpr int kMaxSplitRounds = 4;

namespace {
/// One loop that would start a device nest with a 1-D grid, and the
/// questions about it.
struct Candidate {
  affine::AffineForOp root;
  /// The ops of its body (terminator excluded).
  SmallVector<Operation *> children;
  /// Index of its distribution query, when it has several children.
  int distribution = -1;
  /// Per child: index of the interchange query of the child loop and its
  /// only inner loop, or -1.
  SmallVector<int> interchange;
};

/// A loop, in a loop that carries a dependence, that carries one itself
/// but whose body has parts that would not alone: distributed first, so
/// that those can be interchanged with the outer loop.
struct Split {
  affine::AffineForOp root, inner;
  /// The ops of `inner`'s body, and the runs of them no value crosses
  /// (statements), as [begin, end).
  SmallVector<Operation *> body;
  SmallVector<std::pair<unsigned, unsigned>> groups;
  /// The ops of `root`'s body, `inner` replaced by `body`, and where `body`
  /// starts among them.
  SmallVector<Operation *> parts;
  unsigned firstInner = 0;
  /// Index of the distribution query on `parts`, and per group the
  /// interchange query of `root` with `inner` keeping only that group.
  int distribution = -1;
  SmallVector<int> interchange;
};

class BandExposer {
public:
  BandExposer(func::FuncOp func, const DeviceLoopInfo &info, bool report,
              bool splitFpReductions)
      : func(func), info(info), report(report),
        splitFpReductions(splitFpReductions) {}

  /// Finds the candidates in `block` and their questions.
  void collect(Block &block);
  /// Answers them on `region`; false when the analysis fails.
  bool analyze(PolyhedralRegion &region, unsigned long maxIslOperations) {
    return succeeded(analyzeLoopReorderings(region, distributions,
                                            interchanges, maxIslOperations));
  }
  /// Distributes the inner loops of `splits` where a part of them gains;
  /// whether any was.
  bool splitAll();
  /// Transforms where the answers allow it and it gains a 2-D band (or,
  /// around a carried loop, a grid launched once). Returns the copies of
  /// carried loops their distribution left around their other parts, whose
  /// loops nobody asked about yet (atax's `for i { tmp[i] = 0; for j
  /// tmp[i] += ... }`, which may carry nothing now).
  SmallVector<Operation *> transformAll() {
    SmallVector<Operation *> remainders;
    for (Candidate &c : candidates)
      transform(c);
    for (Candidate &c : carried)
      transformCarried(c, remainders);
    return remainders;
  }
  /// Makes `collect` look at these loops only.
  void restrictTo(ArrayRef<Operation *> loops) {
    only.insert(loops.begin(), loops.end());
  }

private:
  void consider(affine::AffineForOp root);
  void considerCarried(affine::AffineForOp root);
  void considerSplit(affine::AffineForOp root, affine::AffineForOp inner);
  /// Adds `c` to `into`, with the question of its distribution when its
  /// body has several ops.
  void enlist(Candidate c, std::vector<Candidate> &into);
  void transform(Candidate &c);
  void transformCarried(Candidate &c, SmallVector<Operation *> &remainders);
  /// The cuts of `c.root`'s body that isolate each child that `gains`,
  /// where legal; with `say`, says where not. Returns which children are
  /// isolated.
  SmallVector<bool> isolate(const Candidate &c, ArrayRef<bool> gains,
                            SmallVector<bool> &cut, bool say);
  /// Distributes `c.root` at `cut`: each child's op in its copy of the root
  /// (the child itself without a cut). `parts`: mark the copies as parts of
  /// one loop for gpu-select-nests.
  SmallVector<Operation *> distribute(Candidate &c, ArrayRef<bool> cut,
                                      bool parts, const Twine &purpose);
  /// Whether `loop` (in `root`) forms a 2-D band with `root` as it is.
  bool formsBand(affine::AffineForOp root, Operation *child) const;
  /// Whether interchange query `q` says the swap gives a 2-D band.
  bool interchangeGains(int q) const {
    return q >= 0 && interchanges[q].legal && interchanges[q].innerParallel;
  }
  /// Says why the interchange of query `q` is not made.
  void sayNoInterchange(int q);

  func::FuncOp func;
  const DeviceLoopInfo &info;
  bool report;
  bool splitFpReductions;
  /// The loops collect looks at, when not empty.
  DenseSet<Operation *> only;
  std::vector<Candidate> candidates, carried;
  std::vector<Split> splits;
  std::vector<DistributionQuery> distributions;
  std::vector<InterchangeQuery> interchanges;
};
} // end anonymous namespace

void BandExposer::collect(Block &block) {
  for (Operation &op : block.without_terminator()) {
    if (isa<affine::AffineIfOp>(op)) {
      for (Region &region : op.getRegions())
        for (Block &inner : region)
          collect(inner);
      continue;
    }
    auto loop = dyn_cast<affine::AffineForOp>(op);
    if (!loop || forcedPlacement(loop) == "host")
      continue;
    if (!only.empty() && !only.contains(loop)) {
      if (llvm::any_of(only,
                       [&](Operation *o) { return loop->isProperAncestor(o); }))
        collect(*loop.getBody());
      continue;
    }
    // As gpu-select-nests searches: a loop that carries a dependence stays
    // on the host, and the loops in it are candidates.
    if (!info.threadParallel.lookup(loop)) {
      collect(*loop.getBody());
      considerCarried(loop);
      continue;
    }
    consider(loop);
  }
}

bool BandExposer::formsBand(affine::AffineForOp root, Operation *child) const {
  auto loop = dyn_cast<affine::AffineForOp>(child);
  return loop && ((info.threadParallel.lookup(loop) &&
                   bandLoopMappable(loop, {root})) ||
                  bandReductions(root, loop, info, splitFpReductions));
}

void BandExposer::consider(affine::AffineForOp root) {
  if (holdsForcedLoop(root) || root.getNumResults() ||
      !deviceObstacle(root).empty())
    return;
  Candidate c;
  c.root = root;
  for (Operation &op : root.getBody()->without_terminator())
    c.children.push_back(&op);
  // A 2-D band already (or a body without loops): nothing to expose.
  if (c.children.size() == 1 && formsBand(root, c.children.front()))
    return;
  bool anyLoop = false;
  for (Operation *child : c.children) {
    int q = -1;
    auto outer = dyn_cast<affine::AffineForOp>(child);
    anyLoop |= bool(outer);
    if (outer && !formsBand(root, outer) && !outer.getNumResults())
      if (affine::AffineForOp inner = onlyChildLoop(outer);
          inner && !inner.getNumResults() && !boundsUse(inner, {outer}) &&
          bandLoopMappable(inner, {root}))
      {
        q = interchanges.size();
        interchanges.push_back({outer, inner});
      }
    c.interchange.push_back(q);
  }
  if (anyLoop)
    enlist(std::move(c), candidates);
}

void BandExposer::enlist(Candidate c, std::vector<Candidate> &into) {
  if (c.children.size() > 1) {
    c.distribution = distributions.size();
    distributions.push_back({c.root, {}});
  }
  into.push_back(std::move(c));
}

void BandExposer::considerCarried(affine::AffineForOp root) {
  if (holdsForcedLoop(root) || root.getNumResults())
    return;
  // Nothing inside it may be transformed too (a candidate replaces its
  // root by copies).
  auto inside = [&](const Candidate &other) {
    return root->isProperAncestor(other.root);
  };
  if (llvm::any_of(candidates, inside) || llvm::any_of(carried, inside))
    return;
  Candidate c;
  c.root = root;
  bool any = false;
  for (Operation &op : root.getBody()->without_terminator()) {
    c.children.push_back(&op);
    int q = -1;
    auto inner = dyn_cast<affine::AffineForOp>(op);
    if (inner && info.threadParallel.lookup(inner) && !inner.getNumResults() &&
        forcedPlacement(inner).empty() && !holdsForcedLoop(inner) &&
        !boundsUse(inner, {root}) && deviceObstacle(inner).empty()) {
      q = interchanges.size();
      interchanges.push_back({root, inner});
      any = true;
    } else if (inner && !info.threadParallel.lookup(inner)) {
      considerSplit(root, inner);
    }
    c.interchange.push_back(q);
  }
  if (any)
    enlist(std::move(c), carried);
}

void BandExposer::considerSplit(affine::AffineForOp root,
                                affine::AffineForOp inner) {
  if (inner.getNumResults() || !forcedPlacement(inner).empty() ||
      holdsForcedLoop(inner) || boundsUse(inner, {root}) ||
      !deviceObstacle(inner).empty())
    return;
  Split s;
  s.root = root;
  s.inner = inner;
  for (Operation &op : inner.getBody()->without_terminator())
    s.body.push_back(&op);
  SmallVector<bool> free = valueFreeCuts(inner, s.body);
  for (unsigned start = 0, k = 0; k < s.body.size(); ++k)
    if (k + 1 == s.body.size() || free[k]) {
      s.groups.push_back({start, k + 1});
      start = k + 1;
    }
  if (s.groups.size() < 2)
    return;
  for (Operation &op : root.getBody()->without_terminator()) {
    if (&op != inner.getOperation()) {
      s.parts.push_back(&op);
      continue;
    }
    s.firstInner = s.parts.size();
    s.parts.append(s.body);
  }
  s.distribution = distributions.size();
  distributions.push_back({root, s.parts, {}});
  for (auto [begin, end] : s.groups) {
    s.interchange.push_back(interchanges.size());
    interchanges.push_back({root, inner,
                            SmallVector<Operation *>(s.body.begin() + begin,
                                                     s.body.begin() + end)});
  }
  splits.push_back(std::move(s));
}

bool BandExposer::splitAll() {
  // The roots of the splits made: a split whose root holds one of them, or
  // is held by one, was asked about the IR before that split changed it
  // (its inner loop's body, or the loops around it) and waits for the next
  // round. Splits are listed inner roots first, and only inner loops are
  // erased, so these roots are alive.
  SmallVector<Operation *> done;
  auto related = [&](Operation *root) {
    return llvm::any_of(done, [&](Operation *other) {
      return root->isAncestor(other) || other->isAncestor(root);
    });
  };
  for (Split &s : splits) {
    if (related(s.root))
      continue;
    SmallVector<bool> byDeps = distributions[s.distribution].legalCuts;
    SmallVector<bool> byValues = valueFreeCuts(s.root, s.parts);
    auto free = [&](unsigned cut) { return byDeps[cut] && byValues[cut]; };
    unsigned n = s.body.size();
    // A group gains where it may be cut from all else in `root` (so that
    // the next round can isolate and interchange it).
    SmallVector<bool> innerCut(n - 1, false);
    SmallVector<std::string> lines;
    for (auto [group, range] : llvm::enumerate(s.groups)) {
      auto [begin, end] = range;
      unsigned first = s.firstInner + begin, last = s.firstInner + end - 1;
      if (!interchangeGains(s.interchange[group]) ||
          (first > 0 && !free(first - 1)) ||
          (last + 1 < s.parts.size() && !free(last)))
        continue;
      lines.push_back(lineOf(s.body[end - 1]));
      if (begin > 0)
        innerCut[begin - 1] = true;
      if (end < n)
        innerCut[end - 1] = true;
    }
    if (lines.empty())
      continue;
    Candidate c;
    c.root = s.inner;
    c.children = s.body;
    bool several = lines.size() > 1;
    distribute(c, innerCut, /*parts=*/false,
               Twine(several ? "the statements at " : "the statement at ") +
                   llvm::join(lines, ", ") + (several ? " can each" : " can") +
                   " be interchanged with the loop at " + lineOf(s.root));
    done.push_back(s.root);
  }
  return !done.empty();
}

/// "the loop at line 3" or "the loops at line 3, line 7": the children of
/// `c` that `which` selects, and whether there are several. Copies of one
/// loop (split by a distribution) are told apart by their last statement.
static std::pair<std::string, bool> childLines(const Candidate &c,
                                               ArrayRef<bool> which) {
  SmallVector<Operation *> selected;
  SmallVector<std::string> lines;
  for (auto [child, select] : llvm::zip(c.children, which))
    if (select) {
      selected.push_back(child);
      lines.push_back(lineOf(child));
    }
  SmallVector<std::string> named(lines);
  for (auto [child, name] : llvm::zip(selected, named)) {
    auto loop = dyn_cast<affine::AffineForOp>(child);
    if (loop && llvm::count(lines, name) > 1 &&
        !loop.getBody()->without_terminator().empty())
      name += " (statement at " +
              lineOf(&*std::prev(loop.getBody()->without_terminator().end())) +
              ")";
  }
  lines = std::move(named);
  bool several = lines.size() > 1;
  return {(several ? "the loops at " : "the loop at ") + llvm::join(lines, ", "),
          several};
}

void BandExposer::sayNoInterchange(int q) {
  if (!report || q < 0)
    return;
  InterchangeQuery &iq = interchanges[q];
  InFlightDiagnostic d = iq.outer.emitRemark("not interchanged with the loop "
                                             "at ")
                         << lineOf(iq.inner) << ": ";
  if (!iq.legal)
    d << "a dependence goes forward along this loop and backward along that "
         "one, which the swap would reverse";
  else
    d << "that loop carries a dependence";
}

void BandExposer::transform(Candidate &c) {
  unsigned n = c.children.size();
  // Which children would form a 2-D band alone in the loop.
  SmallVector<bool> direct(n), gains(n);
  for (unsigned k = 0; k < n; ++k) {
    direct[k] = formsBand(c.root, c.children[k]);
    gains[k] = direct[k] || interchangeGains(c.interchange[k]);
  }
  // The loops that stay 1-D with the root for their bounds (triangles).
  SmallVector<std::string> triangles;
  for (Operation *child : c.children)
    if (auto loop = dyn_cast<affine::AffineForOp>(child)) {
      affine::AffineForOp inner = onlyChildLoop(loop);
      if (!bandLoopMappable(loop, {c.root}) ||
          (inner && !info.threadParallel.lookup(loop) &&
           !bandLoopMappable(inner, {c.root})))
        triangles.push_back(lineOf(!bandLoopMappable(loop, {c.root})
                                       ? loop.getOperation()
                                       : inner.getOperation()));
    }

  SmallVector<bool> cut;
  SmallVector<bool> isolated = isolate(c, gains, cut, report);
  for (unsigned k = 0; k < n; ++k)
    if (!gains[k] && c.interchange[k] >= 0)
      sayNoInterchange(c.interchange[k]);
  if (report && llvm::none_of(gains, [](bool g) { return g; }) &&
      !triangles.empty())
    c.root.emitRemark("no 2-D band exposed: the loop")
        << (triangles.size() > 1 ? "s at " : " at ")
        << llvm::join(triangles, ", ")
        << (triangles.size() > 1 ? " have" : " has")
        << " bounds that use this loop's iterator in a form gpu-select-nests "
           "does not map (a min, a max, a step other than 1, or two "
           "iterators)";
  if (llvm::none_of(isolated, [](bool g) { return g; }))
    return;
  auto [loops, several] = childLines(c, isolated);
  SmallVector<Operation *> placed = distribute(
      c, cut, /*parts=*/true,
      loops + " with it " + (several ? "are 2-D bands" : "is a 2-D band"));

  // Interchange: the inner parallel loop moves outward, the other runs in
  // each thread.
  for (unsigned k = 0; k < n; ++k) {
    if (!isolated[k] || direct[k])
      continue;
    auto outer = cast<affine::AffineForOp>(placed[k]);
    affine::AffineForOp inner = onlyChildLoop(outer);
    if (report)
      outer.emitRemark("interchanged with the loop at ")
          << lineOf(inner)
          << ", which carries no dependence and becomes the second grid "
             "dimension; this loop runs in each thread (swapped back if the "
             "nest stays on the host)";
    affine::interchangeLoops(outer, inner);
    inner->setAttr(kGpuInterchangedAttr, UnitAttr::get(inner.getContext()));
  }
}

SmallVector<bool> BandExposer::isolate(const Candidate &c,
                                       ArrayRef<bool> gains,
                                       SmallVector<bool> &cut, bool say) {
  unsigned n = c.children.size();
  cut.assign(n ? n - 1 : 0, false);
  SmallVector<bool> isolated(n, false);
  if (n == 1) {
    isolated[0] = gains[0];
    return isolated;
  }
  SmallVector<bool> byDeps = distributions[c.distribution].legalCuts;
  SmallVector<bool> byValues = valueFreeCuts(c.root, c.children);
  for (unsigned k = 0; k < n; ++k) {
    if (!gains[k])
      continue;
    bool before = k == 0 || (byDeps[k - 1] && byValues[k - 1]);
    bool after = k == n - 1 || (byDeps[k] && byValues[k]);
    if (before && after) {
      isolated[k] = true;
      if (k > 0)
        cut[k - 1] = true;
      if (k < n - 1)
        cut[k] = true;
    } else if (say) {
      bool values = (k > 0 && !byValues[k - 1]) || (k < n - 1 && !byValues[k]);
      affine::AffineForOp root = c.root;
      root.emitRemark("not distributed around the loop at ")
          << lineOf(c.children[k]) << ": "
          << (values ? "a value computed in one part of its body is used "
                       "in another"
                     : "a dependence goes from a later part of its body "
                       "back to an earlier one");
    }
  }
  return isolated;
}

SmallVector<Operation *> BandExposer::distribute(Candidate &c,
                                                 ArrayRef<bool> cut, bool parts,
                                                 const Twine &purpose) {
  unsigned groups = 1 + llvm::count(cut, true);
  if (groups > 1 && report)
    c.root.emitRemark("distributed into ")
        << groups << " loops over the parts of its body, so that " << purpose;
  SmallVector<affine::AffineForOp> copies;
  SmallVector<Operation *> placed = distributeLoop(c.root, cut, &copies);
  if (groups > 1 && parts)
    for (affine::AffineForOp copy : copies)
      copy->setAttr(kGpuPartsAttr,
                    OpBuilder(copy).getI64IntegerAttr(c.distribution));
  return placed;
}

void BandExposer::transformCarried(Candidate &c,
                                   SmallVector<Operation *> &remainders) {
  unsigned n = c.children.size();
  SmallVector<bool> gains(n);
  for (unsigned k = 0; k < n; ++k)
    gains[k] = interchangeGains(c.interchange[k]);
  // Quiet where it is not possible: time loops around stencils are the
  // common case, and gpu-select-nests says why they stay on the host.
  SmallVector<bool> cut;
  SmallVector<bool> isolated = isolate(c, gains, cut, /*say=*/false);
  if (llvm::none_of(isolated, [](bool g) { return g; }))
    return;
  auto [loops, several] = childLines(c, isolated);
  SmallVector<Operation *> placed = distribute(
      c, cut, /*parts=*/false,
      loops + (several ? " can each be interchanged with it"
                       : " can be interchanged with it"));
  // The parallel loop moves outward and is a grid of its own; the carried
  // loop runs in each thread.
  for (unsigned k = 0; k < n; ++k) {
    if (!isolated[k]) {
      Operation *copy = placed[k]->getParentOp();
      if (copy != c.root.getOperation() &&
          !llvm::is_contained(remainders, copy))
        remainders.push_back(copy);
      continue;
    }
    auto inner = cast<affine::AffineForOp>(placed[k]);
    auto outer = cast<affine::AffineForOp>(inner->getParentOp());
    if (report)
      outer.emitRemark("interchanged with the loop at ")
          << lineOf(inner)
          << ", which carries no dependence: its iterations are the threads "
             "of one launch, and this loop runs in each thread (swapped back "
             "if the nest stays on the host)";
    affine::interchangeLoops(outer, inner);
    inner->setAttr(kGpuInterchangedAttr, UnitAttr::get(inner.getContext()));
  }
}

void weft::exposeParallelBands(func::FuncOp func, bool report,
                               unsigned long maxIslOperations,
                               bool splitFpReductions) {
  // Each round that distributes an inner loop (a Split) asks the function
  // again: the answers hold for the IR they were asked on. Each round adds
  // loops; a few rounds are plenty for the nests seen so far. A round after
  // the distribution of carried loops looks at their remainders only.
  SmallVector<Operation *> remainders;
  for (int round = 0; round < kMaxSplitRounds; ++round) {
    PolyhedralRegion region(func);
    FailureOr<DeviceLoopInfo> info = failure();
    // What the analysis says (no model, a blown quota) gpu-select-nests
    // says again: here the function is just left as it is.
    {
      ScopedDiagnosticHandler quiet(func.getContext(),
                                    [](Diagnostic &) { return success(); });
      info = computeDeviceLoops(region, maxIslOperations);
    }
    if (failed(info))
      return;
    BandExposer exposer(func, *info, report, splitFpReductions);
    exposer.restrictTo(remainders);
    exposer.collect(func.getBody().front());
    {
      ScopedDiagnosticHandler quiet(func.getContext(),
                                    [](Diagnostic &) { return success(); });
      if (!exposer.analyze(region, maxIslOperations))
        return;
    }
    if (round + 1 < kMaxSplitRounds && exposer.splitAll())
      continue;
    remainders = exposer.transformAll();
    if (remainders.empty() || round + 1 == kMaxSplitRounds)
      return;
  }
}

namespace {
struct GpuExposeBands : weft::impl::GpuExposeBandsBase<GpuExposeBands> {
  using Base::Base;
  void runOnOperation() override {
    for (func::FuncOp func : getOperation().getOps<func::FuncOp>())
      if (!func.isExternal() && isDistributable(func))
        exposeParallelBands(func, report, maxIslOperations, splitFpReductions);
  }
};
} // end anonymous namespace
