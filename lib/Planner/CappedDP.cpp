//===- CappedDP.cpp - Quality-minimising DP under a stage-time cap --------===//
#include "weft/Planner/CappedDP.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace weft::plan {

TopSums::TopSums(const QualityModel &q) {
  int64_t L = q.sensitivity.size();
  table.resize(L);
  for (int64_t a = 0; a < L; ++a) {
    std::vector<double> sorted;
    table[a].resize(L - a);
    for (int64_t k = 1; a + k <= L; ++k) {
      double s = q.sensitivity[a + k - 1];
      sorted.insert(std::upper_bound(sorted.begin(), sorted.end(), s,
                                     std::greater<double>()),
                    s);
      std::vector<double> &prefix = table[a][k - 1];
      prefix.resize(k);
      double run = 0;
      for (int64_t n = 0; n < k; ++n)
        prefix[n] = run += sorted[n];
    }
  }
}

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

struct Choice {
  int64_t from = -1;  // previous layer boundary; -1: unreachable
  int hi = 0, lo = 0; // bit-widths
  int64_t nHi = 0;
};

} // namespace

double CappedDP::upperCap(const std::vector<int> &order) const {
  double worst = 0;
  int64_t L = tables.problem.model.layers;
  for (int d : order) {
    double pre = tables.prefillFirstMs[d] + tables.prefillLastMs[d],
           dec = tables.decodeFirstMs[d] + tables.decodeLastMs[d];
    double perLayer = 0;
    for (int b : bitMenu) {
      int k = bitIndex(b);
      perLayer = std::max(perLayer, weighted(tables.prefillLayerMs[d][k],
                                             tables.decodeLayerMs[d][k]));
    }
    double send = 0;
    for (int e : order)
      send = std::max(send, weighted(tables.prefillSendMs(d, e),
                                     tables.decodeSendMs(d, e)));
    worst = std::max(worst, weighted(pre, dec) + L * perLayer + send);
  }
  return worst * 1.01;
}

std::optional<Plan> CappedDP::solve(const std::vector<int> &order, double cap,
                                    double lambda) const {
  bool lossOnly = lambda == kNoLambda;
  auto summed = [&](double pre, double dec) {
    return lossOnly ? 0.0 : prefillSumWeight * pre + decodeSumWeight * dec;
  };
  const Problem &p = tables.problem;
  const QualityModel &q = p.quality;
  int64_t L = p.model.layers, D = order.size();
  std::vector<std::vector<double>> f(D + 1, std::vector<double>(L + 1, kInf));
  std::vector<std::vector<Choice>> choice(D + 1, std::vector<Choice>(L + 1));
  f[0][0] = 0;
  // Per-device constants of every (high, low) bit pair, hoisted out of the
  // O(D L^2) loops.
  struct PairData {
    int hi, lo;
    double cHi, cLo, sHi, sLo, gHi, gLo;
    int64_t wHi, wLo;
  };
  std::vector<PairData> pairs;
  int64_t minWeight = tables.weightBytes[bitIndex(bitMenu.back())];
  for (int64_t j = 0; j < D; ++j) {
    int dev = order[j];
    const auto &pre = tables.prefillLayerMs[dev];
    const auto &dec = tables.decodeLayerMs[dev];
    pairs.clear();
    double cMin = kInf;
    for (size_t hiI = 0; hiI < bitMenu.size(); ++hiI)
      for (size_t loI = hiI; loI < bitMenu.size(); ++loI) {
        int h = bitIndex(bitMenu[hiI]), l = bitIndex(bitMenu[loI]);
        pairs.push_back({bitMenu[hiI], bitMenu[loI], weighted(pre[h], dec[h]),
                         weighted(pre[l], dec[l]), summed(pre[h], dec[h]),
                         summed(pre[l], dec[l]), bitNoise(bitMenu[hiI]),
                         bitNoise(bitMenu[loI]), tables.weightBytes[h],
                         tables.weightBytes[l]});
        cMin = std::min(cMin, pairs.back().cLo);
      }
    int64_t capacity = tables.usable[dev];
    double sendC = j + 1 < D ? weighted(tables.prefillSendMs(dev, order[j + 1]),
                                        tables.decodeSendMs(dev, order[j + 1]))
                             : 0;
    double firstC =
        weighted(tables.prefillFirstMs[dev], tables.decodeFirstMs[dev]);
    double lastC =
        weighted(tables.prefillLastMs[dev], tables.decodeLastMs[dev]);
    double sendS = j + 1 < D ? summed(tables.prefillSendMs(dev, order[j + 1]),
                                      tables.decodeSendMs(dev, order[j + 1]))
                             : 0;
    double firstS =
        summed(tables.prefillFirstMs[dev], tables.decodeFirstMs[dev]);
    double lastS = summed(tables.prefillLastMs[dev], tables.decodeLastMs[dev]);
    for (int64_t a = 0; a <= L; ++a) {
      if (f[j][a] == kInf)
        continue;
      if (f[j][a] < f[j + 1][a]) { // skip this device
        f[j + 1][a] = f[j][a];
        choice[j + 1][a] = {a, 0, 0, 0};
      }
      for (int64_t b = a + 1; b <= L; ++b) {
        int64_t k = b - a;
        bool first = a == 0, last = b == L;
        if (!last && j + 1 == D) {
          b = L - 1; // layers would be left over: only b == L can work
          continue;
        }
        double cBase = (first ? firstC : 0) + (last ? lastC : sendC);
        int64_t memBase = tables.stageBytes(dev, k, 0, first, last);
        if (cBase + k * cMin > cap || memBase + k * minWeight > capacity) {
          // Longer stages only get slower and bigger; the last stage has
          // other fixed costs (LM head, no send), so still try b == L.
          if (b < L)
            b = L - 1;
          continue;
        }
        // Stage values are never negative (loss, times): a range that
        // starts no better than b's best so far cannot improve it.
        if (f[j][a] >= f[j + 1][b])
          continue;
        double sBase = (first ? firstS : 0) + (last ? lastS : sendS);
        double sumS = tops.total(a, k), best = kInf;
        Choice bestChoice;
        for (const PairData &pd : pairs) {
          // Feasible numbers of high-bit layers form an interval.
          int64_t upper = pd.hi == pd.lo ? 0 : k, lower = 0;
          double memRoom = double(capacity - memBase - k * pd.wLo);
          if (memRoom < 0)
            continue;
          if (pd.wHi > pd.wLo)
            upper = int64_t(std::min(
                double(upper), std::floor(memRoom / double(pd.wHi - pd.wLo))));
          double room = cap - cBase - k * pd.cLo, dc = pd.cHi - pd.cLo;
          if (upper == 0 || dc == 0) {
            if (room < 0)
              continue;
          } else if (dc > 0) {
            if (room < 0)
              continue;
            upper = int64_t(std::min(double(upper), std::floor(room / dc)));
          } else {
            lower = int64_t(
                std::max(0.0, std::min(double(k + 1), std::ceil(room / dc))));
          }
          if (lower > upper)
            continue;
          auto objective = [&](int64_t n) {
            double loss = pd.gLo * sumS - (pd.gLo - pd.gHi) * tops.top(a, k, n);
            if (lossOnly)
              return loss;
            return sBase + n * pd.sHi + (k - n) * pd.sLo + lambda * loss;
          };
          // Loss is convex and falling in n (sorted prefix sums), time is
          // linear: the objective is convex, so bisect on its slope. For
          // loss alone the largest n wins.
          int64_t n = upper;
          if (!lossOnly) {
            int64_t lo = lower, hi = upper;
            while (lo < hi) {
              int64_t mid = (lo + hi) / 2;
              if (objective(mid + 1) - objective(mid) >= 0)
                hi = mid;
              else
                lo = mid + 1;
            }
            n = lo;
          }
          double v = objective(n);
          if (v < best) {
            best = v;
            bestChoice = {a, pd.hi, pd.lo, n};
          }
        }
        if (best < kInf && f[j][a] + best < f[j + 1][b]) {
          f[j + 1][b] = f[j][a] + best;
          choice[j + 1][b] = bestChoice;
        }
      }
    }
  }
  if (f[D][L] == kInf)
    return std::nullopt;
  // Walk back from (D, L).
  Plan plan;
  int64_t b = L;
  for (int64_t j = D; j > 0; --j) {
    const Choice &c = choice[j][b];
    if (c.from == b)
      continue; // skipped device
    Stage s;
    s.device = order[j - 1];
    s.first = c.from;
    s.end = b;
    // The nHi most sensitive layers of the range get the high bit-width.
    std::vector<int64_t> layers;
    for (int64_t l = s.first; l < s.end; ++l)
      layers.push_back(l);
    std::stable_sort(layers.begin(), layers.end(), [&](int64_t x, int64_t y) {
      return q.sensitivity[x] > q.sensitivity[y];
    });
    s.bits.assign(s.end - s.first, c.lo);
    for (int64_t i = 0; i < c.nHi; ++i)
      s.bits[layers[i] - s.first] = c.hi;
    plan.stages.insert(plan.stages.begin(), s);
    b = c.from;
  }
  plan.prefillMicrobatch = tables.mp;
  plan.decodeMicrobatch = tables.md;
  return plan;
}

} // namespace weft::plan
