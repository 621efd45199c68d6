//===- LocalSearch.cpp - Polish a plan on the exact objective -------------===//
#include "weft/Planner/LocalSearch.h"

namespace weft::plan {

void polishPlan(const CostTables &t, llvm::ArrayRef<int> bits, double maxLoss,
                int maxRounds, Plan &plan, Prediction &pred) {
  for (int round = 0; round < maxRounds; ++round) {
    Plan bestPlan = plan;
    Prediction bestPred = pred;
    auto tryPlan = [&](const Plan &q) {
      Prediction qp = evaluateWith(t, q);
      if (meetsTarget(qp, maxLoss) &&
          qp.throughput > bestPred.throughput * (1 + 1e-9)) {
        bestPlan = q;
        bestPred = qp;
      }
    };
    for (size_t i = 0; i + 1 < plan.stages.size(); ++i) {
      if (plan.stages[i].end - plan.stages[i].first > 1) {
        Plan q = plan; // last layer of stage i -> stage i+1
        Stage &a = q.stages[i], &b = q.stages[i + 1];
        b.bits.insert(b.bits.begin(), a.bits.back());
        a.bits.pop_back();
        --a.end;
        --b.first;
        tryPlan(q);
      }
      if (plan.stages[i + 1].end - plan.stages[i + 1].first > 1) {
        Plan q = plan; // first layer of stage i+1 -> stage i
        Stage &a = q.stages[i], &b = q.stages[i + 1];
        a.bits.push_back(b.bits.front());
        b.bits.erase(b.bits.begin());
        ++a.end;
        ++b.first;
        tryPlan(q);
      }
    }
    for (size_t i = 0; i < plan.stages.size(); ++i)
      for (size_t l = 0; l < plan.stages[i].bits.size(); ++l)
        for (int b : bits)
          if (b != plan.stages[i].bits[l]) {
            Plan q = plan;
            q.stages[i].bits[l] = b;
            tryPlan(q);
          }
    if (bestPred.throughput <= pred.throughput)
      return;
    plan = std::move(bestPlan);
    pred = bestPred;
  }
}

} // namespace weft::plan
