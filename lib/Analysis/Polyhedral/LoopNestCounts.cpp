//===- LoopNestCounts.cpp - What one loop nest does, counted ----*- C++ -*-===//
//
// This file is compiled with exceptions.
//
//===----------------------------------------------------------------------===//
#include "weft/Analysis/Polyhedral/LoopNestCounts.h"

#include "CoreTraffic.h"
#include "IslBoxes.h"
#include "RegionState.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include "llvm/ADT/StringSet.h"

#include <isl/set.h>

using namespace mlir;
using weft::detail::countByBoxes;
using weft::detail::dimExtent;
using weft::detail::elementBytes;
using weft::detail::ModelBuilder;

/// Bytes of the bounding box of each array's elements in `elements` (sizes
/// fixed): what one strided copy per array moves.
static double boxBytes(const ModelBuilder &model, isl::union_set elements,
                       const weft::cost::NominalSizes &sizes,
                       const llvm::DenseMap<Value, int64_t> &known,
                       unsigned &copies) {
  double bytes = 0;
  isl::set_list sets = elements.get_set_list();
  for (int k = 0, n = sets.size(); k < n; ++k) {
    isl::set s = weft::detail::fixSymbols(model, sets.at(k), sizes, &known);
    if (s.is_empty())
      continue;
    double volume = 1;
    for (int d = 0, dims = isl_set_dim(s.get(), isl_dim_set); d < dims; ++d) {
      auto e = dimExtent(s, d);
      volume *= e ? double(e->second - e->first + 1) : 0.0;
    }
    bytes += volume * elementBytes(model, isl_set_get_tuple_name(s.get()));
    ++copies;
  }
  return bytes;
}

/// Adds to `names` the symbols `set` depends on that are neither compile-time
/// constants nor in `known`.
static void addUnknownSizes(const ModelBuilder &model, const isl::set &set,
                            const llvm::DenseMap<Value, int64_t> &known,
                            std::vector<std::string> &names) {
  for (auto &[value, name] : model.getSymbols()) {
    if (value.getDefiningOp<arith::ConstantIndexOp>() || known.count(value))
      continue;
    int pos = isl_set_find_dim_by_name(set.get(), isl_dim_param, name.c_str());
    if (pos < 0 || !isl_set_involves_dims(set.get(), isl_dim_param, pos, 1))
      continue;
    std::string shown = weft::detail::symbolName(value, name);
    if (!llvm::is_contained(names, shown))
      names.push_back(shown);
  }
}

namespace {
/// The instances of a loop nest's statements: all of them, those of one
/// typical launch (the loops around the nest at the middle of their
/// ranges), and the launches (the iterations of those loops).
struct NestInstances {
  isl::union_set all, oneLaunch;
  double launches = 1;
};
} // namespace

/// The instances of the nest at `loop`, sizes fixed; null sets when no
/// statement is in it. With `unknown`, adds the sizes unknown at compile
/// time that its domains use.
static NestInstances
nestInstances(const ModelBuilder &model, isl::ctx ctx, affine::AffineForOp loop,
              const weft::cost::NominalSizes &sizes,
              const llvm::DenseMap<Value, int64_t> &known,
              double *accesses = nullptr,
              std::vector<std::string> *unknown = nullptr) {
  NestInstances nest;
  std::optional<std::vector<int64_t>> typical;
  for (const weft::detail::Statement &s : model.getStatements()) {
    auto at = llvm::find(s.loops, loop);
    if (at == s.loops.end())
      continue;
    int depth = at - s.loops.begin();
    isl::set domain(ctx, model.params() + "{ " + s.domain + " }");
    if (unknown)
      addUnknownSizes(model, domain, known, *unknown);
    isl::set fixed = weft::detail::fixSymbols(model, domain, sizes, &known);
    if (accesses)
      *accesses += countByBoxes(fixed);
    if (!typical) {
      isl::set outer = isl::manage(
          isl_set_project_out(fixed.copy(), isl_dim_set, depth,
                              isl_set_dim(fixed.get(), isl_dim_set) - depth));
      nest.launches = std::max(1.0, countByBoxes(outer));
      typical.emplace();
      for (int d = 0; d < depth; ++d) {
        auto e = dimExtent(outer, d);
        typical->push_back(e ? (e->first + e->second) / 2 : 0);
      }
    }
    for (auto [d, v] : llvm::enumerate(*typical))
      if ((int)d < depth)
        fixed = isl::manage(isl_set_fix_si(fixed.release(), isl_dim_set, d, v));
    nest.all =
        nest.all.is_null() ? isl::union_set(domain) : nest.all.unite(domain);
    nest.oneLaunch = nest.oneLaunch.is_null() ? isl::union_set(fixed)
                                              : nest.oneLaunch.unite(fixed);
  }
  return nest;
}

/// The elements the statement instances `instances` read that the region
/// did not write before (flow-in), and those they write that live after the
/// region (live-out).
static std::pair<isl::union_set, isl::union_set>
flowInLiveOut(const weft::detail::RegionFlow &flow,
              const isl::union_set &instances) {
  return {flow.flow.must_no_source().intersect_domain(instances).range(),
          flow.writes.intersect_domain(instances).range().intersect(
              flow.endReads.range())};
}

FailureOr<weft::cost::LoopNestCounts>
weft::countLoopNest(PolyhedralRegion &region, affine::AffineForOp loop,
                    const cost::NominalSizes &sizes,
                    const llvm::DenseMap<Value, int64_t> &known,
                    const cost::DeviceSpec &cpu, unsigned long maxOperations) {
  weft::detail::PolyhedralRegionState &state = region.getState();
  FailureOr<const ModelBuilder *> built = state.getModel();
  if (failed(built))
    return failure();
  const ModelBuilder &model = **built;
  cost::LoopNestCounts counts;
  // Not a structured binding: the lambda below captures the ratio.
  std::pair<double, bool> perAccess = weft::detail::flopsPerAccess(loop);
  double ratio = perAccess.first;
  counts.doublePrecision = perAccess.second;
  LogicalResult status =
      state.run("loop nest cost", maxOperations, [&](isl::ctx ctx) {
        const weft::detail::RegionFlow &flow = state.getFlow(maxOperations);
        NestInstances nest =
            nestInstances(model, ctx, loop, sizes, known, &counts.accesses,
                          &counts.nominalSizes);
        if (nest.all.is_null())
          return;
        counts.launches = nest.launches;
        counts.flops = ratio * counts.accesses;
        isl::union_map accesses = flow.reads.unite(flow.writes);
        unsigned arrays = 0;
        counts.kernelBytes =
            counts.launches *
            boxBytes(model, accesses.intersect_domain(nest.oneLaunch).range(),
                     sizes, known, arrays);
        SmallVector<unsigned> inside;
        for (auto [i, s] : llvm::enumerate(model.getStatements()))
          if (llvm::is_contained(s.loops, loop))
            inside.push_back(i);
        counts.core = weft::detail::coreWork(model, ctx, accesses, inside, loop,
                                             sizes, known, cpu);
        auto [in, out] = flowInLiveOut(flow, nest.all);
        counts.bytesIn = boxBytes(model, in, sizes, known, counts.copies);
        counts.bytesOut = boxBytes(model, out, sizes, known, counts.copies);
      });
  if (failed(status))
    return failure();
  return counts;
}

/// The arrays (tuple names) of the elements in `elements`.
static llvm::StringSet<> arraysOf(const isl::union_set &elements) {
  llvm::StringSet<> names;
  isl::set_list sets = elements.get_set_list();
  for (int k = 0, n = sets.size(); k < n; ++k)
    names.insert(isl_set_get_tuple_name(sets.at(k).get()));
  return names;
}

/// The elements of `elements` in arrays `names` holds (`keep`) or does not.
static isl::union_set filterArrays(const isl::union_set &elements,
                                   const llvm::StringSet<> &names, bool keep) {
  isl::union_set kept = isl::union_set::empty(elements.ctx());
  isl::set_list sets = elements.get_set_list();
  for (int k = 0, n = sets.size(); k < n; ++k)
    if (names.contains(isl_set_get_tuple_name(sets.at(k).get())) == keep)
      kept = kept.unite(sets.at(k));
  return kept;
}

FailureOr<weft::cost::LoopNestCounts> weft::countPlacementCopies(
    PolyhedralRegion &region, ArrayRef<affine::AffineForOp> nests,
    ArrayRef<bool> onDevice, const cost::NominalSizes &sizes,
    const llvm::DenseMap<Value, int64_t> &known, unsigned long maxOperations) {
  weft::detail::PolyhedralRegionState &state = region.getState();
  FailureOr<const ModelBuilder *> built = state.getModel();
  if (failed(built))
    return failure();
  const ModelBuilder &model = **built;
  cost::LoopNestCounts counts;
  if (llvm::none_of(onDevice, [](bool d) { return d; }))
    return counts;
  LogicalResult status =
      state.run("placement copies", maxOperations, [&](isl::ctx ctx) {
        const weft::detail::RegionFlow &flow = state.getFlow(maxOperations);
        isl::union_map accesses = flow.reads.unite(flow.writes);
        // The statement instances on each side, and each device nest's.
        isl::union_set device = isl::union_set::empty(ctx);
        isl::union_set host = isl::union_set::empty(ctx);
        SmallVector<NestInstances> deviceNests;
        for (auto [nest, dev] : llvm::zip(nests, onDevice)) {
          NestInstances instances =
              nestInstances(model, ctx, nest, sizes, known);
          if (instances.all.is_null())
            continue;
          (dev ? device : host) = (dev ? device : host).unite(instances.all);
          if (dev)
            deviceNests.push_back(instances);
        }
        // Arrays both sides access move around each device nest's launch
        // (gpu-place-data): in, what the launch accesses; out, what it
        // writes.
        llvm::StringSet<> shared;
        llvm::StringSet<> deviceArrays =
            arraysOf(accesses.intersect_domain(device).range());
        for (const auto &array :
             arraysOf(accesses.intersect_domain(host).range()))
          if (deviceArrays.contains(array.getKey()))
            shared.insert(array.getKey());
        for (const NestInstances &nest : deviceNests) {
          unsigned copies = 0;
          double in = boxBytes(
              model,
              filterArrays(accesses.intersect_domain(nest.oneLaunch).range(),
                           shared, true),
              sizes, known, copies);
          double out = boxBytes(
              model,
              filterArrays(flow.writes.intersect_domain(nest.oneLaunch).range(),
                           shared, true),
              sizes, known, copies);
          counts.bytesIn += nest.launches * in;
          counts.bytesOut += nest.launches * out;
          counts.copies += unsigned(std::min(nest.launches * copies, 1e9));
        }
        // The others move once: what the region reads before writing it
        // in, what lives after it out.
        auto [flowIn, liveOut] = flowInLiveOut(flow, device);
        isl::union_set in = filterArrays(flowIn, shared, false);
        isl::union_set out = filterArrays(liveOut, shared, false);
        counts.bytesIn += boxBytes(model, in, sizes, known, counts.copies);
        counts.bytesOut += boxBytes(model, out, sizes, known, counts.copies);
      });
  if (failed(status))
    return failure();
  return counts;
}
