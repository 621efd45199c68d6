//===- ProfileFit.cpp - Fit a runtime profile to measured runs ------------===//
#include "weft/Planner/ProfileFit.h"

#include "weft/Planner/BoundedLeastSquares.h"
#include "weft/Planner/CostTables.h"

#include "llvm/ADT/StringMap.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <set>

using namespace llvm;

namespace weft::plan {

static int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

RunTerms runTerms(const MeasuredRun &run, const cost::RuntimeProfile &base) {
  // The analytical model alone, on the base's GEMM units: every factor 1,
  // no overheads.
  cost::RuntimeProfile identity;
  identity.cudaCoreGemm = base.cudaCoreGemm;
  Problem p = run.problem(&identity);
  const Plan &plan = run.plan;
  CostTables t(p, plan.prefillMicrobatch, plan.decodeMicrobatch);
  RunTerms r;
  size_t n = plan.stages.size();
  for (size_t i = 0; i < n; ++i) {
    const Stage &s = plan.stages[i];
    bool first = i == 0, last = i + 1 == n;
    StageTerms pre, dec;
    pre.device = dec.device = p.cluster.devices[s.device].spec.name;
    pre.layers = dec.layers = double(s.bits.size());
    for (int b : s.bits) {
      int k = bitIndex(b);
      pre.kernelMs[k] += t.prefillLayerMs[s.device][k];
      dec.kernelMs[k] += t.decodeLayerMs[s.device][k];
    }
    int k16 = bitIndex(16);
    if (first) {
      pre.kernelMs[k16] += t.prefillFirstMs[s.device];
      dec.kernelMs[k16] += t.decodeFirstMs[s.device];
    }
    if (last) {
      pre.kernelMs[k16] += t.prefillLastMs[s.device];
      dec.kernelMs[k16] += t.decodeLastMs[s.device];
      if (n > 1) {
        dec.sends = 1;
        dec.sendBytes = double(t.returnSendBytes());
        dec.linkMs = t.returnSendMs(s.device, plan.stages[0].device);
      }
    } else {
      int next = plan.stages[i + 1].device;
      pre.sends = dec.sends = 1;
      pre.sendBytes = double(t.prefillSendBytes());
      dec.sendBytes = double(t.decodeSendBytes());
      pre.linkMs = t.prefillSendMs(s.device, next);
      dec.linkMs = t.decodeSendMs(s.device, next);
    }
    r.stages[0].push_back(pre);
    r.stages[1].push_back(dec);
  }
  const Workload &w = run.workload;
  r.prefillPasses = ceilDiv(w.batch, plan.prefillMicrobatch);
  r.decodeMicrobatches = ceilDiv(w.batch, plan.decodeMicrobatch);
  r.decodeSteps = std::max<int64_t>(0, w.genLen - 1);
  r.measuredS = {run.prefillS, run.decodeS};
  return r;
}

namespace {

/// ms per byte of one more copy at `GBps` (0: none).
double stagingMsPerByte(double GBps) { return GBps > 0 ? 1e-6 / GBps : 0; }

double stageMs(const StageTerms &s, int ph, const cost::RuntimeProfile &p) {
  double ms = s.linkMs + s.layers * p.layerOverheadMs[ph] +
              p.stageOverheadMs[ph] + s.sends * p.transferLatencyUs * 1e-3 +
              s.sendBytes * stagingMsPerByte(p.stagingGBps);
  cost::Phase phase = ph == 0 ? cost::Phase::Prefill : cost::Phase::Decode;
  for (size_t b = 0; b < kBitMenu.size(); ++b)
    if (s.kernelMs[b] != 0)
      ms += s.kernelMs[b] * p.kernelScale(phase, kBitMenu[b], s.device);
  return ms;
}

/// How much each stage's time counts in its phase's seconds (times 1e3),
/// given the current bottlenecks; the step overhead counts `stepWeight`.
struct PhaseWeights {
  std::vector<double> stage;
  double step = 0;
};

PhaseWeights phaseWeights(const RunTerms &t, int ph,
                          const std::vector<double> &ms) {
  PhaseWeights w;
  w.stage.assign(ms.size(), 0);
  size_t slowest = std::max_element(ms.begin(), ms.end()) - ms.begin();
  double sum = 0;
  for (double x : ms)
    sum += x;
  if (ph == 0) {
    // Fill and drain: every stage once, the slowest for every other pass.
    for (double &x : w.stage)
      x = 1;
    w.stage[slowest] += double(t.prefillPasses - 1);
    w.step = 1;
    return w;
  }
  double steps = double(t.decodeSteps);
  double k = double(t.decodeMicrobatches);
  if (sum >= k * ms[slowest])
    for (double &x : w.stage)
      x = steps;
  else
    w.stage[slowest] = steps * k;
  w.step = steps;
  return w;
}

} // namespace

std::array<double, 2> predictFromTerms(const RunTerms &t,
                                       const cost::RuntimeProfile &p) {
  std::array<double, 2> s{};
  for (int ph = 0; ph < 2; ++ph) {
    double sum = 0, slowest = 0;
    for (const StageTerms &st : t.stages[ph]) {
      double ms = stageMs(st, ph, p);
      sum += ms;
      slowest = std::max(slowest, ms);
    }
    // The pipeline model of Evaluate.cpp.
    double ms = ph == 0 ? sum + double(t.prefillPasses - 1) * slowest
                        : std::max(sum, double(t.decodeMicrobatches) * slowest);
    double times = ph == 0 ? 1 : double(t.decodeSteps);
    s[ph] = times * (ms + p.stepOverheadMs[ph]) / 1e3;
  }
  return s;
}

//===----------------------------------------------------------------------===//
// The fit
//===----------------------------------------------------------------------===//

namespace {

enum class Kind { Kernel, Device, Layer, Stage, Step, Latency, Staging };

/// One scalar of the profile the fit may change.
struct Param {
  Kind kind;
  int phase = 0; // Kernel, Device, Layer, Stage, Step
  int bit = 0;   // Kernel: kBitMenu index
  std::string device;
  double prior = 0, lower = 0;
};

double get(const cost::RuntimeProfile &p, const Param &q) {
  switch (q.kind) {
  case Kind::Kernel:
    return p.kernelFactor[q.phase][q.bit];
  case Kind::Device: {
    auto it = p.deviceFactor.find(q.device);
    return it == p.deviceFactor.end() ? 1.0 : it->second[q.phase];
  }
  case Kind::Layer:
    return p.layerOverheadMs[q.phase];
  case Kind::Stage:
    return p.stageOverheadMs[q.phase];
  case Kind::Step:
    return p.stepOverheadMs[q.phase];
  case Kind::Latency:
    return p.transferLatencyUs;
  case Kind::Staging:
    return stagingMsPerByte(p.stagingGBps);
  }
  return 0;
}

/// The largest value a profile file may hold (RuntimeProfile.cpp), so that
/// every fitted profile reads back.
double upperBound(Kind k) {
  switch (k) {
  case Kind::Kernel:
  case Kind::Device:
  case Kind::Layer:
  case Kind::Stage:
  case Kind::Step:
    return 1e6;
  case Kind::Latency:
    return 1e9;
  case Kind::Staging:
    return 1.0; // ms per byte: 1 kB/s
  }
  return 0;
}

void set(cost::RuntimeProfile &p, const Param &q, double v) {
  v = std::min(v, upperBound(q.kind));
  switch (q.kind) {
  case Kind::Kernel:
    p.kernelFactor[q.phase][q.bit] = v;
    return;
  case Kind::Device: {
    auto it = p.deviceFactor.try_emplace(q.device, std::array<double, 2>{1, 1});
    it.first->second[q.phase] = v;
    return;
  }
  case Kind::Layer:
    p.layerOverheadMs[q.phase] = v;
    return;
  case Kind::Stage:
    p.stageOverheadMs[q.phase] = v;
    return;
  case Kind::Step:
    p.stepOverheadMs[q.phase] = v;
    return;
  case Kind::Latency:
    p.transferLatencyUs = v;
    return;
  case Kind::Staging:
    p.stagingGBps = v > 0 ? 1e-6 / v : 0;
    return;
  }
}

/// d(stage ms)/d(param) at the profile `p`.
double stageDerivative(const StageTerms &s, int ph, const Param &q,
                       const cost::RuntimeProfile &p) {
  switch (q.kind) {
  case Kind::Kernel: {
    if (q.phase != ph)
      return 0;
    cost::Phase phase = ph == 0 ? cost::Phase::Prefill : cost::Phase::Decode;
    return s.kernelMs[q.bit] * p.deviceScale(phase, s.device);
  }
  case Kind::Device: {
    if (q.phase != ph || !StringRef(s.device).equals_insensitive(q.device))
      return 0;
    double ms = 0;
    for (size_t b = 0; b < kBitMenu.size(); ++b)
      ms += s.kernelMs[b] * p.kernelFactor[ph][b];
    return ms;
  }
  case Kind::Layer:
    return q.phase == ph ? s.layers : 0;
  case Kind::Stage:
    return q.phase == ph ? 1 : 0;
  case Kind::Step:
    return 0; // counted per phase, not per stage
  case Kind::Latency:
    return s.sends * 1e-3;
  case Kind::Staging:
    return s.sendBytes;
  }
  return 0;
}

/// Sum of squared relative errors of prefill and decode over the runs.
double objective(const std::vector<RunTerms> &runs,
                 const cost::RuntimeProfile &p) {
  double sum = 0;
  for (const RunTerms &r : runs) {
    std::array<double, 2> s = predictFromTerms(r, p);
    for (int ph = 0; ph < 2; ++ph) {
      double e = (s[ph] - r.measuredS[ph]) / r.measuredS[ph];
      sum += e * e;
    }
  }
  return sum;
}

/// One bounded ridge least-squares step over the parameters in `active`,
/// with the bottlenecks of `p` held fixed. Updates `p`.
void solveStep(const std::vector<RunTerms> &runs,
               const std::vector<Param> &params,
               const std::vector<size_t> &active, const ProfileFitOptions &o,
               cost::RuntimeProfile &p) {
  size_t rows = runs.size() * 2;
  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(rows, active.size());
  Eigen::VectorXd b(rows);
  for (auto [ri, r] : enumerate(runs)) {
    std::array<double, 2> pred = predictFromTerms(r, p);
    for (int ph = 0; ph < 2; ++ph) {
      std::vector<double> ms;
      for (const StageTerms &st : r.stages[ph])
        ms.push_back(stageMs(st, ph, p));
      PhaseWeights w = phaseWeights(r, ph, ms);
      size_t row = ri * 2 + ph;
      double y = r.measuredS[ph];
      // Linear in the active parameters: pred = c + A x.
      double linear = 0;
      for (auto [j, pi] : enumerate(active)) {
        const Param &q = params[pi];
        double d = 0;
        for (auto [si, st] : enumerate(r.stages[ph]))
          d += w.stage[si] * stageDerivative(st, ph, q, p);
        if (q.kind == Kind::Step && q.phase == ph)
          d += w.step;
        d /= 1e3;
        A(row, j) = d / y;
        linear += d * get(p, q);
      }
      b(row) = (y - (pred[ph] - linear)) / y;
    }
  }
  Eigen::VectorXd lower(active.size()), prior(active.size()),
      current(active.size());
  for (auto [j, pi] : enumerate(active)) {
    lower(j) = params[pi].lower;
    prior(j) = params[pi].prior;
    current(j) = get(p, params[pi]);
  }
  Eigen::VectorXd x = boundedLeastSquares(A, b, lower, prior, current, o.ridge);
  for (auto [j, pi] : enumerate(active))
    if (x(j) != current(j)) // columns the runs do not touch keep theirs
      set(p, params[pi], x(j));
}

} // namespace

namespace {

/// One fit, with device factors for the types used by enough runs when
/// `withDevices`.
cost::RuntimeProfile fitOnce(const std::vector<RunTerms> &runs,
                             const cost::RuntimeProfile &base,
                             const ProfileFitOptions &o, bool withDevices) {
  cost::RuntimeProfile p = base;
  if (runs.empty())
    return p;
  // Device types with enough runs to carry their own factor.
  StringMap<int> runsOnDevice;
  if (withDevices)
    for (const RunTerms &r : runs) {
      StringMap<bool> seen;
      for (const StageTerms &s : r.stages[0])
        if (seen.try_emplace(s.device, true).second)
          ++runsOnDevice[s.device];
    }
  std::vector<Param> params;
  auto add = [&](Param q) {
    q.prior = get(base, q);
    params.push_back(q);
  };
  std::vector<size_t> kernels, devices, shared;
  for (int ph = 0; ph < 2; ++ph) {
    for (size_t b = 0; b < kBitMenu.size(); ++b) {
      kernels.push_back(params.size());
      add({Kind::Kernel, ph, int(b), "", 0, o.minFactor});
    }
    for (const auto &entry : runsOnDevice)
      if (entry.second >= o.minRunsPerDevice) {
        devices.push_back(params.size());
        add({Kind::Device, ph, 0, entry.first().str(), 0, o.minFactor});
      }
    for (Kind k : {Kind::Layer, Kind::Stage, Kind::Step}) {
      shared.push_back(params.size());
      add({k, ph, 0, "", 0, 0});
    }
  }
  shared.push_back(params.size());
  add({Kind::Latency, 0, 0, "", 0, 0});
  shared.push_back(params.size());
  add({Kind::Staging, 0, 0, "", 0, 0});

  std::vector<size_t> kernelStep = kernels, deviceStep = devices;
  kernelStep.insert(kernelStep.end(), shared.begin(), shared.end());
  deviceStep.insert(deviceStep.end(), shared.begin(), shared.end());

  cost::RuntimeProfile best = p;
  double bestError = objective(runs, p);
  for (int it = 0; it < o.maxIterations; ++it) {
    // Kernel factors with the device factors fixed, then the other way
    // round (their product is what the runs see).
    solveStep(runs, params, kernelStep, o, p);
    if (!devices.empty())
      solveStep(runs, params, deviceStep, o, p);
    double e = objective(runs, p);
    bool improved = e < bestError * (1 - 1e-9);
    if (e < bestError) {
      bestError = e;
      best = p;
    }
    if (!improved && it > 2)
      break;
  }
  return best;
}

/// Mean absolute percentage error of total time when each cluster of `runs`
/// is predicted by a fit on the others.
double heldOutClusterError(const std::vector<RunTerms> &runs,
                           const cost::RuntimeProfile &base,
                           const ProfileFitOptions &o, bool withDevices) {
  std::set<int> clusters;
  for (const RunTerms &r : runs)
    clusters.insert(r.cluster);
  double sum = 0;
  for (int c : clusters) {
    std::vector<RunTerms> train;
    for (const RunTerms &r : runs)
      if (r.cluster != c)
        train.push_back(r);
    cost::RuntimeProfile p = fitOnce(train, base, o, withDevices);
    for (const RunTerms &r : runs)
      if (r.cluster == c) {
        std::array<double, 2> s = predictFromTerms(r, p);
        double measured = r.measuredS[0] + r.measuredS[1];
        sum += std::fabs(s[0] + s[1] - measured) / measured;
      }
  }
  return sum / double(runs.size());
}

} // namespace

cost::RuntimeProfile fitRuntimeProfile(const std::vector<RunTerms> &runs,
                                       const cost::RuntimeProfile &base,
                                       const ProfileFitOptions &o) {
  std::set<int> clusters;
  for (const RunTerms &r : runs)
    clusters.insert(r.cluster);
  bool withDevices = true;
  if (o.crossValidateDeviceFactors && clusters.size() >= 3)
    withDevices = heldOutClusterError(runs, base, o, true) <
                  heldOutClusterError(runs, base, o, false);
  return fitOnce(runs, base, o, withDevices);
}

} // namespace weft::plan
