//===- RunsCalibration.cpp - Fit and check a profile on measured runs -----===//
#include "weft/Planner/RunsCalibration.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <set>

using namespace llvm;

namespace weft::plan {

namespace {

RunSeconds secondsOf(const std::array<double, 2> &s) {
  return {s[0], s[1], s[0] + s[1]};
}

RunSeconds measuredOf(const MeasuredRun &r) {
  return {r.prefillS, r.decodeS, r.totalS};
}

double absPercent(double predicted, double measured) {
  return 100 * std::fabs(predicted - measured) / measured;
}

} // namespace

RunErrors runErrors(const std::vector<RunSeconds> &measured,
                    const std::vector<RunSeconds> &predicted) {
  RunErrors e;
  for (size_t i = 0; i < measured.size(); ++i) {
    e.prefill += absPercent(predicted[i].prefill, measured[i].prefill);
    e.decode += absPercent(predicted[i].decode, measured[i].decode);
    e.total += absPercent(predicted[i].total, measured[i].total);
  }
  e.runs = measured.size();
  if (e.runs) {
    e.prefill /= e.runs;
    e.decode /= e.runs;
    e.total /= e.runs;
  }
  return e;
}

PairOrder pairOrder(const MeasuredRuns &runs,
                    const std::vector<RunSeconds> &predicted) {
  PairOrder o;
  const std::vector<MeasuredRun> &r = runs.runs;
  for (size_t i = 0; i < r.size(); ++i)
    for (size_t j = i + 1; j < r.size(); ++j) {
      const Workload &a = r[i].workload, &b = r[j].workload;
      if (r[i].cluster != r[j].cluster || r[i].model != r[j].model ||
          a.batch != b.batch || a.promptLen != b.promptLen ||
          a.genLen != b.genLen)
        continue;
      // Same tokens generated: throughput order is the order of total time.
      double mi = r[i].totalS, mj = r[j].totalS;
      if (absPercent(mi, mj) <= kTiePercent &&
          absPercent(mj, mi) <= kTiePercent) {
        ++o.ties;
        continue;
      }
      ++o.pairs;
      double pi = predicted[i].total, pj = predicted[j].total;
      if ((mi < mj && pi < pj) || (mi > mj && pi > pj))
        ++o.agree;
    }
  return o;
}

RunsCalibrationReport calibrateOnRuns(const MeasuredRuns &runs,
                                      const cost::RuntimeProfile &base,
                                      const ProfileFitOptions &o) {
  RunsCalibrationReport r;
  r.runsPath = runs.path;
  r.baseName = base.name;
  r.baseEstimated = base.estimated;
  r.models = runs.models.size();
  r.clusters = runs.clusters.size();
  std::vector<RunTerms> terms;
  std::vector<RunSeconds> measured, basePred, fitted, heldOut;
  std::map<const Cluster *, int> clusterIds;
  for (const MeasuredRun &run : runs.runs) {
    terms.push_back(runTerms(run, base));
    terms.back().cluster =
        clusterIds.try_emplace(run.cluster, int(clusterIds.size()))
            .first->second;
    measured.push_back(measuredOf(run));
    basePred.push_back(secondsOf(predictFromTerms(terms.back(), base)));
  }
  r.profile = fitRuntimeProfile(terms, base, o);
  for (const RunTerms &t : terms)
    fitted.push_back(secondsOf(predictFromTerms(t, r.profile)));

  // Leave one cluster out: needs a second cluster to fit on.
  heldOut.resize(terms.size());
  std::vector<bool> predicted(terms.size(), false);
  std::set<const Cluster *> clusters;
  for (const MeasuredRun &run : runs.runs)
    clusters.insert(run.cluster);
  if (clusters.size() > 1)
    for (const Cluster *c : clusters) {
      std::vector<RunTerms> train;
      for (auto [i, run] : enumerate(runs.runs))
        if (run.cluster != c)
          train.push_back(terms[i]);
      cost::RuntimeProfile p = fitRuntimeProfile(train, base, o);
      std::vector<RunSeconds> m, h;
      std::string name;
      for (auto [i, run] : enumerate(runs.runs))
        if (run.cluster == c) {
          heldOut[i] = secondsOf(predictFromTerms(terms[i], p));
          predicted[i] = true;
          m.push_back(measured[i]);
          h.push_back(heldOut[i]);
          name = run.clusterName;
        }
      r.heldOutByCluster[name] = runErrors(m, h);
    }

  for (auto [i, run] : enumerate(runs.runs)) {
    RunOutcome out;
    out.id = run.id;
    out.cluster = run.clusterName;
    out.measured = measured[i];
    out.base = basePred[i];
    out.fitted = fitted[i];
    out.hasHeldOut = predicted[i];
    out.heldOut = heldOut[i];
    r.runs.push_back(out);
  }
  r.base = runErrors(measured, basePred);
  r.fitted = runErrors(measured, fitted);
  r.basePairs = pairOrder(runs, basePred);
  r.fittedPairs = pairOrder(runs, fitted);
  if (clusters.size() > 1) {
    r.heldOut = runErrors(measured, heldOut);
    r.heldOutPairs = pairOrder(runs, heldOut);
  }
  return r;
}

namespace {

std::string seconds(const RunSeconds &s) {
  return formatv("{0,9:F2} {1,9:F2} {2,9:F2}", s.prefill, s.decode, s.total);
}

void errorLine(raw_ostream &os, StringRef what, const RunErrors &e) {
  os << formatv("{0}: MAPE prefill {1:F1}%, decode {2:F1}%, total {3:F1}% "
                "({4} runs)\n",
                what, e.prefill, e.decode, e.total, e.runs);
}

void pairLine(raw_ostream &os, StringRef what, const PairOrder &p) {
  os << formatv("{0}: {1} of {2} same-cluster plan pairs ordered as measured "
                "({3:F1}%; {4} pairs measured within {5}% not counted)\n",
                what, p.agree, p.pairs, p.percent(), p.ties, kTiePercent);
}

void printProfile(raw_ostream &os, const cost::RuntimeProfile &p) {
  const char *phases[2] = {"prefill", "decode"};
  for (int ph = 0; ph < 2; ++ph) {
    os << "fitted " << phases[ph] << ": kernels";
    for (size_t b = 0; b < cost::kProfileBits.size(); ++b)
      os << formatv(" {0}-bit x{1:F3}", cost::kProfileBits[b],
                    p.kernelFactor[ph][b]);
    os << formatv(", overheads layer {0:F3} ms, stage {1:F3} ms, step "
                  "{2:F3} ms\n",
                  p.layerOverheadMs[ph], p.stageOverheadMs[ph],
                  p.stepOverheadMs[ph]);
  }
  for (const auto &[name, f] : p.deviceFactor)
    os << formatv("fitted device {0}: prefill x{1:F3}, decode x{2:F3}\n", name,
                  f[0], f[1]);
  if (p.deviceFactor.empty())
    os << "fitted device factors: none\n";
  os << formatv("fitted transfer: latency {0:F1} us per message, staging "
                "{1}\n",
                p.transferLatencyUs,
                p.stagingGBps > 0 ? formatv("{0:F3} GB/s", p.stagingGBps).str()
                                  : std::string("none"));
}

} // namespace

void printRunsCalibrationReport(const RunsCalibrationReport &r,
                                raw_ostream &os) {
  os << formatv("runs: {0} from {1} ({2} clusters, {3} models)\n",
                r.runs.size(), r.runsPath, r.clusters, r.models);
  os << "base profile: " << r.baseName
     << (r.baseEstimated ? " (estimated, not measured)" : "") << "\n";
  os << "seconds: prefill decode total; held-out: fitted without the run's "
        "cluster\n";
  for (const RunOutcome &o : r.runs) {
    os << o.id << " [" << o.cluster << "]\n";
    os << "  measured " << seconds(o.measured) << "\n";
    os << "  base     " << seconds(o.base) << "\n";
    os << "  fitted   " << seconds(o.fitted) << "\n";
    if (o.hasHeldOut)
      os << "  held-out " << seconds(o.heldOut) << "\n";
  }
  errorLine(os, "base profile", r.base);
  errorLine(os, "fitted profile", r.fitted);
  if (r.heldOut.runs) {
    for (const auto &[name, e] : r.heldOutByCluster)
      errorLine(os, "held-out cluster " + name, e);
    errorLine(os, "leave-one-cluster-out", r.heldOut);
  } else {
    os << "leave-one-cluster-out: needs runs on at least 2 clusters\n";
  }
  pairLine(os, "pair order, base profile", r.basePairs);
  pairLine(os, "pair order, fitted profile", r.fittedPairs);
  if (r.heldOut.runs)
    pairLine(os, "pair order, leave-one-cluster-out", r.heldOutPairs);
  printProfile(os, r.profile);
}

} // namespace weft::plan
