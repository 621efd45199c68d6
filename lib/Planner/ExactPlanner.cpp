//===- ExactPlanner.cpp - Exhaustive reference planner --------------------===//
//
// Enumerates every distinct device order (devices of the same node and type
// are interchangeable), every split of the layers into contiguous stages
// (stages may be empty, i.e. a device unused), every per-layer bit vector
// and every micro-batch pair; evaluates each with the full pipeline model.
// Only for small instances: it is the ground truth for the fast planner.
//
//===----------------------------------------------------------------------===//
#include "weft/Planner/BestPlan.h"
#include "weft/Planner/CostTables.h"
#include "weft/Planner/Planner.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <set>

using namespace llvm;

namespace weft::plan {
namespace {

double binomial(int64_t n, int64_t k) {
  double r = 1;
  for (int64_t i = 1; i <= k; ++i)
    r = r * double(n - k + i) / double(i);
  return r;
}

/// Calls fn(sizes) for every way to write L as D non-negative parts.
template <typename Fn>
void forEachComposition(int64_t L, int64_t D, std::vector<int64_t> &sizes,
                        Fn &&fn) {
  if (int64_t(sizes.size()) + 1 == D) {
    sizes.push_back(L);
    fn(sizes);
    sizes.pop_back();
    return;
  }
  for (int64_t n = 0; n <= L; ++n) {
    sizes.push_back(n);
    forEachComposition(L - n, D, sizes, fn);
    sizes.pop_back();
  }
}

} // namespace

Expected<PlanResult> planExact(const Problem &p, const PlannerOptions &o,
                               int64_t maxPlans) {
  BestPlan best;
  int64_t L = p.model.layers, D = p.cluster.devices.size();
  if (D == 0)
    return createStringError(inconvertibleErrorCode(),
                             "the cluster has no devices");
  std::vector<int> bits = o.bits;
  // Distinct orders of all devices.
  std::vector<std::vector<int>> orders;
  std::set<std::vector<std::pair<int, std::string>>> seen;
  std::vector<int> perm(D);
  for (int64_t i = 0; i < D; ++i)
    perm[i] = int(i);
  do {
    std::vector<std::pair<int, std::string>> key;
    for (int d : perm)
      key.push_back(
          {p.cluster.devices[d].node, p.cluster.devices[d].spec.name});
    if (seen.insert(key).second)
      orders.push_back(perm);
  } while (std::next_permutation(perm.begin(), perm.end()));
  auto pairs = microbatchCandidates(p);
  double count = double(pairs.size()) * double(orders.size()) *
                 binomial(L + D - 1, D - 1) *
                 std::pow(double(bits.size()), double(L));
  if (count > double(maxPlans))
    return createStringError(inconvertibleErrorCode(),
                             "instance too large for the exact reference "
                             "(%.3g plans)",
                             count);
  // All bit vectors that meet the quality target.
  std::vector<std::vector<int>> bitVectors;
  std::vector<int> v(L, bits[0]);
  std::vector<size_t> digit(L, 0);
  while (true) {
    for (int64_t l = 0; l < L; ++l)
      v[l] = bits[digit[l]];
    if (p.quality.loss(v) <= o.maxQualityLoss * (1 + 1e-9) + 1e-15)
      bitVectors.push_back(v);
    int64_t l = 0;
    while (l < L && ++digit[l] == bits.size())
      digit[l++] = 0;
    if (l == L)
      break;
  }
  std::vector<int64_t> sizes;
  for (auto [mp, md] : pairs) {
    CostTables t(p, mp, md);
    for (const std::vector<int> &order : orders)
      forEachComposition(L, D, sizes, [&](const std::vector<int64_t> &sz) {
        for (const std::vector<int> &bv : bitVectors) {
          Plan plan;
          plan.prefillMicrobatch = mp;
          plan.decodeMicrobatch = md;
          int64_t first = 0;
          for (int64_t j = 0; j < D; ++j) {
            if (sz[j] == 0)
              continue;
            plan.stages.push_back(
                {order[j], first, first + sz[j],
                 std::vector<int>(bv.begin() + first,
                                  bv.begin() + first + sz[j])});
            first += sz[j];
          }
          best.offer(plan, evaluateWith(t, plan));
        }
      });
  }
  return best.take("no plan fits within the quality target");
}

} // namespace weft::plan
