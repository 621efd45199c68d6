//===- Baselines.cpp - Uniform baseline -----------------------------------===//
#include "weft/Planner/CostTables.h"
#include "weft/Planner/Planner.h"

#include <chrono>

using namespace llvm;

namespace weft::plan {

Expected<PlanResult> planUniform(const Problem &p) {
  auto start = std::chrono::steady_clock::now();
  if (p.cluster.devices.empty())
    return createStringError(inconvertibleErrorCode(),
                             "the cluster has no devices");
  int64_t L = p.model.layers;
  int64_t D = std::min<int64_t>(L, p.cluster.devices.size());
  PlanResult best;
  bool found = false;
  int64_t evaluated = 0;
  for (int bits : kBitMenu) {
    for (auto [mp, md] : microbatchCandidates(p)) {
      Plan plan;
      plan.prefillMicrobatch = mp;
      plan.decodeMicrobatch = md;
      int64_t first = 0;
      for (int64_t d = 0; d < D; ++d) {
        int64_t n = L / D + (d < L % D ? 1 : 0);
        plan.stages.push_back(
            {int(d), first, first + n, std::vector<int>(n, bits)});
        first += n;
      }
      Prediction pred = evaluate(p, plan);
      ++evaluated;
      if (pred.fitsMemory &&
          (!found || pred.throughput > best.predicted.throughput)) {
        best.plan = plan;
        best.predicted = pred;
        found = true;
      }
    }
    if (found)
      break; // the highest bit-width that fits
  }
  if (!found)
    return createStringError(inconvertibleErrorCode(),
                             "an even split does not fit at any bit-width");
  best.searched = evaluated;
  best.seconds = std::chrono::duration<double>(
                     std::chrono::steady_clock::now() - start)
                     .count();
  return best;
}

} // namespace weft::plan
