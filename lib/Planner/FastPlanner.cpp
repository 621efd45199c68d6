//===- FastPlanner.cpp - Production planner and PipeEdge-like baseline ----===//
//
// For every device order and micro-batch pair: binary-search the smallest
// stage-time cap for which the capped DP finds a plan within the quality
// budget, evaluate the plans at that cap and slightly above it with the full
// pipeline model, keep the best; then polish the winner by local search
// (move a stage boundary, change one layer's bits). Orders are first
// screened with one micro-batch pair; the best few get every pair.
//
//===----------------------------------------------------------------------===//
#include "weft/Planner/CappedDP.h"
#include "weft/Planner/LocalSearch.h"
#include "weft/Planner/Planner.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <tuple>

using namespace llvm;

namespace weft::plan {
namespace {

constexpr int kBisectSteps = 10;
constexpr int kLambdaSteps = 7;
constexpr int kOrderClimbRounds = 4;
constexpr size_t kOrdersKept = 2;
constexpr int kPolishRounds = 40;

struct SearchConfig {
  std::vector<int> bits; // allowed, descending
  double maxLoss;
  /// Production planner: phase-aware stage weights, separate prefill and
  /// decode micro-batch sizes, local polish. Off: the PipeEdge-like
  /// baseline (one forward of each phase weighted equally, one micro-batch
  /// size, min-max split only).
  bool phaseAware;
};

struct Candidate {
  Plan plan;
  Prediction pred;
  bool valid = false;
  double score() const { return valid ? pred.throughput : -1; }
};

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

using Pair = std::pair<int64_t, int64_t>;

class Search {
public:
  Search(const Problem &p, const SearchConfig &c)
      : p(p), cfg(c), tops(p.quality),
        groups(deviceGroups(p.cluster, size_t(p.model.layers))) {}

  /// Plans already known to be good (e.g. baselines) compete too.
  void seed(const Plan &plan) {
    consider(plan,
             CostTables(p, plan.prefillMicrobatch, plan.decodeMicrobatch));
  }

  Candidate run() {
    std::vector<Pair> pairs = pairCandidates();
    Pair screen = screeningPair(pairs);
    std::vector<int> bestOrder;
    // Two passes: orders screened with a default micro-batch pair, then
    // re-screened with the best pair the first pass found.
    std::vector<std::vector<int>> seeds = seedGroupOrders(p.cluster, groups);
    int climb = groups.size() > kAllOrdersUpTo ? kOrderClimbRounds : 0;
    for (int pass = 0; pass < 2; ++pass) {
      std::vector<std::pair<double, std::vector<int>>> ranked =
          rankOrders(screen, seeds, climb);
      seeds.clear();
      for (size_t i = 0; i < std::min(kOrdersKept, ranked.size()); ++i) {
        std::vector<int> order = flattenOrder(groups, ranked[i].second);
        for (const Pair &pr : pairs)
          bestFor(order, pr);
        seeds.push_back(ranked[i].second);
      }
      bestOrder = flattenOrder(groups, ranked[0].second);
      if (!best.valid || pairs.size() == 1)
        break;
      Pair found{best.plan.prefillMicrobatch, best.plan.decodeMicrobatch};
      if (found == screen)
        break;
      screen = found;
      climb = std::min(climb, 1); // the second pass only refines
    }
    // Lagrangian candidates (loss vs. summed stage time) for the best order.
    if (cfg.phaseAware && !bestOrder.empty())
      for (const Pair &pr : pairs)
        bestFor(bestOrder, pr, /*lagrangian=*/true);
    if (best.valid && cfg.phaseAware)
      polish();
    return best;
  }

  int64_t dpRuns = 0;

private:
  const Problem &p;
  SearchConfig cfg;
  TopSums tops;
  std::vector<std::vector<int>> groups;
  Candidate best;
  std::map<Pair, double> lastCap; // warm starts for the bisection
  std::map<std::tuple<std::vector<int>, Pair, bool>, Candidate> memo;

  std::vector<Pair> pairCandidates() const {
    if (cfg.phaseAware)
      return microbatchCandidates(p);
    // PipeEdge partitions for one given micro-batch size; use the usual
    // one micro-batch per device for both phases.
    int64_t m = ceilDiv(p.workload.batch, p.cluster.devices.size());
    return {{m, m}};
  }

  Pair screeningPair(const std::vector<Pair> &pairs) const {
    int64_t perDevice = ceilDiv(p.workload.batch, p.cluster.devices.size());
    Pair screen = pairs[pairs.size() / 2];
    for (const Pair &pr : pairs)
      if (pr.second == perDevice &&
          (!cfg.phaseAware ||
           pr.first == std::min<int64_t>(4, p.workload.batch)))
        screen = pr;
    return screen;
  }

  /// Scores group orders with one micro-batch pair: every seed, then hill
  /// climbing by moving one group elsewhere. Best first.
  std::vector<std::pair<double, std::vector<int>>>
  rankOrders(Pair screen, const std::vector<std::vector<int>> &seeds,
             int climbRounds) {
    std::map<std::vector<int>, double> scored;
    auto score = [&](const std::vector<int> &g) {
      auto it = scored.find(g);
      if (it != scored.end())
        return it->second;
      return scored[g] = bestFor(flattenOrder(groups, g), screen).score();
    };
    std::vector<int> bestOrder;
    double bestScore = -2;
    for (const std::vector<int> &g : seeds)
      if (double sc = score(g); sc > bestScore)
        bestScore = sc, bestOrder = g;
    for (int round = 0; round < climbRounds; ++round) {
      std::vector<int> next = bestOrder;
      for (size_t from = 0; from < bestOrder.size(); ++from)
        for (size_t to = 0; to < bestOrder.size(); ++to) {
          if (from == to)
            continue;
          std::vector<int> g = bestOrder;
          int moved = g[from];
          g.erase(g.begin() + from);
          g.insert(g.begin() + to, moved);
          if (double sc = score(g); sc > bestScore)
            bestScore = sc, next = g;
        }
      if (next == bestOrder)
        break;
      bestOrder = next;
    }
    std::vector<std::pair<double, std::vector<int>>> ranked;
    for (auto &[g, sc] : scored)
      ranked.push_back({sc, g});
    std::sort(ranked.rbegin(), ranked.rend());
    return ranked;
  }

  void consider(const Plan &plan, const CostTables &t) {
    Prediction pred = evaluateWith(t, plan);
    if (meetsTarget(pred, cfg.maxLoss) && pred.throughput > best.score())
      best = {plan, pred, true};
  }

  Candidate bestFor(const std::vector<int> &order, Pair pr,
                    bool lagrangian = false) {
    auto key = std::make_tuple(order, pr, lagrangian);
    auto it = memo.find(key);
    if (it != memo.end())
      return it->second;
    return memo[key] = searchCaps(order, pr, lagrangian);
  }

  /// Bisects the stage-time cap for one order and micro-batch pair.
  Candidate searchCaps(const std::vector<int> &order, Pair pr,
                       bool lagrangian) {
    CostTables t(p, pr.first, pr.second);
    CappedDP dp{t, tops, cfg.bits, 1, 1};
    if (cfg.phaseAware) {
      // How often each stage's time recurs when it is the bottleneck.
      dp.prefillWeight = double(ceilDiv(p.workload.batch, pr.first));
      dp.decodeWeight = double(std::max<int64_t>(1, p.workload.genLen - 1)) *
                        double(ceilDiv(p.workload.batch, pr.second));
    }
    dp.decodeSumWeight = double(std::max<int64_t>(1, p.workload.genLen - 1));
    auto solve = [&](double cap,
                     double lambda =
                         CappedDP::kNoLambda) -> std::optional<Plan> {
      ++dpRuns;
      std::optional<Plan> plan = dp.solve(order, cap, lambda);
      if (plan &&
          p.quality.loss(bitsOf(*plan)) > cfg.maxLoss * (1 + 1e-9) + 1e-15)
        return std::nullopt;
      return plan;
    };
    Candidate local;
    double top = dp.upperCap(order), hi = top, lo = top * 1e-3;
    int steps = kBisectSteps;
    // Warm start: the same micro-batch pair on another order needs a similar
    // cap. Bracket it; fall back to the safe bounds when the guess fails.
    double &warm = lastCap[pr];
    if (warm > 0 && warm * 2 < top && solve(warm * 2)) {
      hi = warm * 2;
      if (!solve(warm / 4)) {
        lo = warm / 4;
        steps = kBisectSteps - 3; // bracket ratio 8 instead of 1000
      } else {
        lo = hi * 1e-3;
      }
    } else if (!solve(top)) {
      return local;
    }
    for (int i = 0; i < steps; ++i) {
      double mid = std::sqrt(lo * hi);
      (solve(mid) ? hi : lo) = mid;
    }
    warm = hi;
    auto take = [&](const std::optional<Plan> &plan) {
      if (!plan)
        return;
      Prediction pred = evaluateWith(t, *plan);
      if (meetsTarget(pred, cfg.maxLoss) && pred.throughput > local.score())
        local = {*plan, pred, true};
    };
    for (double f : {1.0, 1.03, 1.1})
      take(solve(hi * f));
    if (lagrangian && local.valid) {
      // Lagrangian relaxation of the quality budget: minimise summed stage
      // time + lambda * loss (fewer, faster stages pay off when few
      // micro-batches are in flight), bisecting lambda for the smallest
      // value whose plan meets the budget. lambda is relative to the
      // plan's time per unit of loss (1.0 = every layer at 4 bits).
      double timeRef = (local.pred.prefillS + local.pred.decodeS) * 1e3;
      for (double cap : {hi * 1.1, std::min(top, hi * 4)}) {
        double lo = 1e-4, hiK = 1e4;
        take(solve(cap, 0.0));
        for (int i = 0; i < kLambdaSteps; ++i) {
          double mid = std::sqrt(lo * hiK);
          std::optional<Plan> plan = solve(cap, mid * timeRef);
          take(plan);
          (plan ? hiK : lo) = mid;
        }
      }
    }
    if (local.valid)
      consider(local.plan, t);
    return local;
  }

  static std::vector<int> bitsOf(const Plan &plan) {
    std::vector<int> bits;
    for (const Stage &s : plan.stages)
      bits.insert(bits.end(), s.bits.begin(), s.bits.end());
    return bits;
  }

  /// Local search on the exact objective around the winner.
  void polish() {
    CostTables t(p, best.plan.prefillMicrobatch, best.plan.decodeMicrobatch);
    polishPlan(t, cfg.bits, cfg.maxLoss, kPolishRounds, best.plan, best.pred);
  }
};

Expected<PlanResult> finish(const Problem &p, Search &s, Candidate c,
                            std::chrono::steady_clock::time_point start,
                            StringRef what) {
  if (!c.valid)
    return createStringError(inconvertibleErrorCode(), what);
  PlanResult r;
  r.plan = c.plan;
  r.predicted = evaluate(p, c.plan);
  r.searched = s.dpRuns;
  r.seconds = secondsSince(start);
  return r;
}

} // namespace

Expected<PlanResult> planFast(const Problem &p, const PlannerOptions &o) {
  auto start = std::chrono::steady_clock::now();
  auto top = highestFeasibleUniformBits(p);
  if (!top)
    return top.takeError();
  std::vector<int> bits = o.bits;
  std::sort(bits.rbegin(), bits.rend());
  if (bits.empty())
    return createStringError(inconvertibleErrorCode(), "no bit-widths allowed");
  double floor = p.quality.uniformLoss(bits.front());
  if (floor > o.maxQualityLoss)
    return createStringError(
        inconvertibleErrorCode(),
        formatv(
            "quality target unreachable: the best possible loss with bits "
            "{{{0}} is {1:E2} but at most {2:E2} is allowed",
            join(map_range(bits, [](int b) { return std::to_string(b); }), ","),
            floor, o.maxQualityLoss)
            .str());
  // Drop bit-widths that cannot appear in any plan within the budget: even
  // one layer (the least sensitive) at that width would exceed it.
  double minS = *std::min_element(p.quality.sensitivity.begin(),
                                  p.quality.sensitivity.end());
  std::vector<int> usable;
  for (int b : bits)
    if (floor - minS * bitNoise(bits.front()) + minS * bitNoise(b) <=
        o.maxQualityLoss * (1 + 1e-9) + 1e-15)
      usable.push_back(b);
  Search s(p, {usable, o.maxQualityLoss, true});
  // The one-bit-width baselines are in this search space; start from them
  // so the planner never returns anything worse.
  for (auto *baseline : {&planPipeEdge, &planUniform}) {
    Expected<PlanResult> r = (*baseline)(p);
    if (r)
      s.seed(r->plan);
    else
      consumeError(r.takeError());
  }
  Candidate c = s.run();
  return finish(p, s, c, start,
                formatv("no plan fits the cluster's memory within the quality "
                        "target (max loss {0:E2}); allow lower bit-widths, a "
                        "higher loss, a smaller batch or add devices",
                        o.maxQualityLoss)
                    .str());
}

Expected<PlanResult> planPipeEdge(const Problem &p) {
  auto start = std::chrono::steady_clock::now();
  auto top = highestFeasibleUniformBits(p);
  if (!top)
    return top.takeError();
  for (int b : kBitMenu) {
    if (b > *top)
      continue;
    Search s(p, {{b}, std::numeric_limits<double>::infinity(), false});
    Candidate c = s.run();
    if (c.valid)
      return finish(p, s, c, start, "");
  }
  return createStringError(inconvertibleErrorCode(),
                           "no single bit-width gives a plan that fits");
}

} // namespace weft::plan
