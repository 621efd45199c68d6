//===- Baselines.cpp - Uniform baseline -----------------------------------===//
#include "weft/Planner/BestPlan.h"
#include "weft/Planner/CostTables.h"
#include "weft/Planner/Planner.h"

#include <chrono>

using namespace llvm;

namespace weft::plan {

Expected<PlanResult> planUniform(const Problem &p) {
  BestPlan best;
  if (p.cluster.devices.empty())
    return createStringError(inconvertibleErrorCode(),
                             "the cluster has no devices");
  int64_t L = p.model.layers;
  int64_t D = std::min<int64_t>(L, p.cluster.devices.size());
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
      best.offer(plan, evaluate(p, plan));
    }
    if (best.any())
      break; // the highest bit-width that fits
  }
  return best.take("an even split does not fit at any bit-width");
}

} // namespace weft::plan
