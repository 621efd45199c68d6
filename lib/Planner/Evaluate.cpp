//===- Evaluate.cpp - Predicted throughput, memory and quality of a plan --===//
//
// Pipeline model: prefill runs ceil(B/mp) micro-batches through the stages
// (fill + drain: sum of stage times + (k-1) x slowest stage). Decode repeats
// genLen-1 steps; each step every micro-batch passes all stages once, so a
// step takes max(round trip, k x slowest stage) with k = ceil(B/md). The
// runtime profile adds its fixed per-step overheads to the prefill and to
// every decode step (its other terms are in the cost tables).
//
//===----------------------------------------------------------------------===//
#include "weft/Planner/CostTables.h"

#include <algorithm>

using namespace llvm;

namespace weft::plan {

static int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

Prediction evaluateWith(const CostTables &t, const Plan &plan) {
  const Problem &p = t.problem;
  const Workload &w = p.workload;
  Prediction r;
  double preSum = 0, preMax = 0, decSum = 0, decMax = 0;
  std::vector<int> allBits;
  size_t n = plan.stages.size();
  for (size_t i = 0; i < n; ++i) {
    const Stage &s = plan.stages[i];
    bool first = i == 0, last = i + 1 == n;
    StagePrediction sp;
    int64_t weights = 0;
    for (int b : s.bits) {
      int k = bitIndex(b);
      sp.prefillMs += t.prefillLayerMs[s.device][k];
      sp.decodeMs += t.decodeLayerMs[s.device][k];
      weights += t.weightBytes[k];
      allBits.push_back(b);
    }
    if (first) {
      sp.prefillMs += t.prefillFirstMs[s.device];
      sp.decodeMs += t.decodeFirstMs[s.device];
    }
    if (last) {
      sp.prefillMs += t.prefillLastMs[s.device];
      sp.decodeMs += t.decodeLastMs[s.device];
      if (n > 1) // the sampled token goes back to the first stage
        sp.decodeMs += t.returnSendMs(s.device, plan.stages[0].device);
    } else {
      sp.prefillMs += t.prefillSendMs(s.device, plan.stages[i + 1].device);
      sp.decodeMs += t.decodeSendMs(s.device, plan.stages[i + 1].device);
    }
    sp.memoryBytes =
        t.stageBytes(s.device, s.end - s.first, weights, first, last);
    sp.capacityBytes = t.usable[s.device];
    r.fitsMemory &= sp.memoryBytes <= sp.capacityBytes;
    preSum += sp.prefillMs;
    preMax = std::max(preMax, sp.prefillMs);
    decSum += sp.decodeMs;
    decMax = std::max(decMax, sp.decodeMs);
    r.stages.push_back(sp);
  }
  int64_t kp = ceilDiv(w.batch, t.mp), kd = ceilDiv(w.batch, t.md);
  const cost::RuntimeProfile &rt = runtimeProfile(p);
  r.prefillS = (preSum + double(kp - 1) * preMax + rt.stepOverheadMs[0]) / 1e3;
  r.decodeS = double(std::max<int64_t>(0, w.genLen - 1)) *
              (std::max(decSum, double(kd) * decMax) + rt.stepOverheadMs[1]) /
              1e3;
  double total = r.prefillS + r.decodeS;
  r.throughput = total > 0 ? double(w.batch * w.genLen) / total : 0;
  r.qualityLoss = p.quality.loss(allBits);
  return r;
}

Prediction evaluate(const Problem &p, const Plan &plan) {
  CostTables t(p, plan.prefillMicrobatch, plan.decodeMicrobatch);
  return evaluateWith(t, plan);
}

int64_t stageMemoryBytes(const Problem &p, const Plan &plan, const Stage &s) {
  CostTables t(p, plan.prefillMicrobatch, plan.decodeMicrobatch);
  int64_t weights = 0;
  for (int b : s.bits)
    weights += t.weightBytes[bitIndex(b)];
  return t.stageBytes(s.device, s.end - s.first, weights,
                      &s == &plan.stages.front(), &s == &plan.stages.back());
}

Error validatePlan(const Problem &p, const Plan &plan) {
  auto err = [](const Twine &msg) {
    return createStringError(inconvertibleErrorCode(), msg);
  };
  if (plan.stages.empty())
    return err("stages: empty");
  if (plan.prefillMicrobatch < 1 || plan.decodeMicrobatch < 1)
    return err("prefill_microbatch/decode_microbatch: must be >= 1");
  int64_t next = 0;
  std::vector<bool> used(p.cluster.devices.size(), false);
  for (auto [i, s] : enumerate(plan.stages)) {
    std::string where = "stages[" + std::to_string(i) + "]";
    if (s.device < 0 || size_t(s.device) >= used.size())
      return err(where + ".device: not in the cluster");
    if (used[s.device])
      return err(where + ".device: used by two stages");
    used[s.device] = true;
    if (s.first != next || s.end <= s.first)
      return err(where + ".layers: expected [" + Twine(next) +
                 ", end) with "
                 "end > " +
                 Twine(next));
    if (int64_t(s.bits.size()) != s.end - s.first)
      return err(where + ".bits: expected " + Twine(s.end - s.first) +
                 " entries");
    for (int b : s.bits)
      if (bitIndex(b) < 0)
        return err(where + ".bits: unsupported bit-width " + Twine(b) +
                   " (supported: 16, 8, 4, 3)");
    next = s.end;
  }
  if (next != p.model.layers)
    return err("stages: cover layers [0, " + Twine(next) +
               ") but the model "
               "has " +
               Twine(p.model.layers));
  return Error::success();
}

} // namespace weft::plan
