//===- ArachneDP.cpp - The Arachne dynamic program --------------*- C++ -*-===//
#include "ArachneDP.h"

#include "weft/CostModel/CpuDescription.h"
#include "weft/CostModel/Device.h"
#include "weft/CostModel/Link.h"
#include "weft/CostModel/LoopNestCost.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <map>

using namespace weft;

namespace {
/// The terms of the objective, by unit.
struct Objective {
  /// `sharers`: the ranks of a node that run their units at once.
  Objective(const PartitionCosts &costs, const MachineModel &m,
            unsigned sharers)
      : costs(costs), m(m), sharers(sharers), n(costs.work.size()),
        partners(n) {
    for (auto &[edge, traffic] : costs.flows) {
      auto [u, t] = edge;
      if (u != t) {
        partners[u].push_back(t);
        partners[t].push_back(u);
      }
    }
    for (std::vector<unsigned> &p : partners) {
      llvm::sort(p);
      p.erase(std::unique(p.begin(), p.end()), p.end());
    }
  }

  double seconds(const Traffic &t) const {
    return (m.latency * t.messages + m.secondsPerByte * t.bytes) / costs.ranks;
  }

  /// Terms of unit `u` alone (its work, its live-out values, the flows
  /// from u to itself across executions).
  double unitTerm(unsigned u, unsigned mode) const {
    double s = cost::predictCoreSeconds(costs.work[u], m.cpu, sharers) /
               (mode ? costs.ranks : 1);
    if (!mode)
      return s;
    s += seconds(costs.liveOut[u][mode]);
    auto it = costs.flows.find({u, u});
    if (it != costs.flows.end())
      s += seconds(it->second[mode][mode]);
    return s;
  }

  /// Terms shared by units u and t (u != t).
  double pairTerm(unsigned u, unsigned mu, unsigned t, unsigned mt) const {
    double s = 0;
    auto flow = [&](unsigned from, unsigned mfrom, unsigned to, unsigned mto) {
      auto it = costs.flows.find({from, to});
      if (mfrom && it != costs.flows.end())
        s += seconds(it->second[mfrom][mto]);
    };
    flow(u, mu, t, mt);
    flow(t, mt, u, mu);
    return s;
  }

  const PartitionCosts &costs;
  const MachineModel &m;
  unsigned sharers;
  unsigned n;
  std::vector<std::vector<unsigned>> partners;
};
} // end anonymous namespace

llvm::Expected<MachineModel> MachineModel::get(llvm::StringRef device,
                                               double linkGBps, unsigned ranks,
                                               unsigned ranksPerNode) {
  llvm::Expected<cost::DeviceSpec> spec = cost::lookupCpu(device);
  if (!spec)
    return spec.takeError();
  cost::Link link = cost::mpiLink(linkGBps);
  MachineModel m;
  m.latency = link.alphaUs * 1e-6;
  m.secondsPerByte = 1.0 / (link.GBps * 1e9);
  m.cpu = *spec;
  unsigned cores = std::max(1, m.cpu.sms);
  m.ranksOnNode =
      std::max(1u, std::min(ranks, ranksPerNode ? ranksPerNode : cores));
  return m;
}

double weft::predictSeconds(llvm::ArrayRef<unsigned> modes,
                            const PartitionCosts &costs,
                            const MachineModel &m) {
  bool alone = m.replicatedOnRoot &&
               llvm::all_of(modes, [](unsigned mode) { return mode == 0; });
  Objective obj(costs, m, alone ? 1 : m.ranksOnNode);
  double s = 0;
  for (unsigned u = 0; u < obj.n; ++u)
    s += obj.unitTerm(u, modes[u]);
  for (auto &[edge, traffic] : costs.flows) {
    auto [u, t] = edge;
    if (u != t && modes[u])
      s += obj.seconds(traffic[modes[u]][modes[t]]);
  }
  return s;
}

/// A 2-D grid's messages cost more compile time and code than 1-D blocks'
/// (about twice the C): a unit keeps it only where 1-D blocks are predicted
/// slower by more than kGridMinGain of the region's time (matrix products,
/// whose only messages are the gather, tie).
static constexpr double kGridMinGain = 1e-3;

static void preferOneAxis(PartitionChoice &choice,
                          llvm::ArrayRef<UnitOptions> options,
                          const PartitionCosts &costs, const MachineModel &m) {
  double limit = choice.predictedSeconds * (1 + kGridMinGain);
  for (unsigned u = 0; u < choice.modes.size(); ++u) {
    if (choice.modes[u] != 2 || !options[u].distributed)
      continue;
    llvm::SmallVector<unsigned> other(choice.modes);
    other[u] = 1;
    double seconds = predictSeconds(other, costs, m);
    if (seconds <= limit) {
      choice.modes = std::move(other);
      choice.predictedSeconds = seconds;
    }
  }
}

PartitionChoice weft::choosePartition(llvm::ArrayRef<UnitOptions> options,
                                      const PartitionCosts &costs,
                                      const MachineModel &m) {
  // The program charges a replicated unit as every rank running it.
  Objective obj(costs, m, m.ranksOnNode);
  unsigned n = obj.n;
  // The last unit each unit shares a term with: it leaves the window then.
  std::vector<unsigned> lastPartner(n);
  for (unsigned u = 0; u < n; ++u) {
    lastPartner[u] = u;
    for (unsigned t : obj.partners[u])
      lastPartner[u] = std::max(lastPartner[u], t);
  }
  struct State {
    double seconds;
    std::vector<unsigned> modes; // units 0 .. i
  };
  // Key: the modes of the window units, in unit order.
  std::map<std::vector<unsigned>, State> states{{{}, {0.0, {}}}};
  std::vector<unsigned> window;
  PartitionChoice result;
  constexpr size_t kMaxStates = 1 << 16;
  for (unsigned i = 0; i < n; ++i) {
    std::map<std::vector<unsigned>, State> next;
    std::vector<unsigned> nextWindow;
    for (unsigned w : window)
      if (lastPartner[w] > i)
        nextWindow.push_back(w);
    if (lastPartner[i] > i)
      nextWindow.push_back(i);
    for (auto &[key, state] : states) {
      for (unsigned mode = 0; mode <= kMaxGridDims; ++mode) {
        if (!options[i].allows(mode))
          continue;
        State s = state;
        s.modes.push_back(mode);
        s.seconds += obj.unitTerm(i, mode);
        for (unsigned j : obj.partners[i])
          if (j < i)
            s.seconds += obj.pairTerm(j, s.modes[j], i, mode);
        std::vector<unsigned> k;
        for (unsigned w : nextWindow)
          k.push_back(s.modes[w]);
        auto it = next.find(k);
        if (it == next.end() || s.seconds < it->second.seconds)
          next[k] = std::move(s);
      }
    }
    result.states += next.size();
    if (next.size() > kMaxStates) {
      // Too many coupled units: take every candidate.
      result.exact = false;
      result.modes.clear();
      for (const UnitOptions &o : options)
        result.modes.push_back(o.fallback());
      result.predictedSeconds = predictSeconds(result.modes, costs, m);
      return result;
    }
    states = std::move(next);
    window = std::move(nextWindow);
  }
  const State *best = nullptr;
  for (auto &[key, state] : states)
    if (!best || state.seconds < best->seconds)
      best = &state;
  result.modes.assign(best->modes.begin(), best->modes.end());
  result.predictedSeconds = predictSeconds(result.modes, costs, m);
  // With every unit replicated, rank 0 runs them alone.
  if (m.replicatedOnRoot && llvm::all_of(options, [](const UnitOptions &o) {
        return o.replicated;
      })) {
    llvm::SmallVector<unsigned> none(n, 0);
    double seconds = predictSeconds(none, costs, m);
    if (seconds < result.predictedSeconds) {
      result.modes = std::move(none);
      result.predictedSeconds = seconds;
    }
  }
  preferOneAxis(result, options, costs, m);
  return result;
}
