//===- SearchSpace.cpp - Candidate orders and micro-batch sizes -----------===//
#include "weft/Planner/CostTables.h"
#include "weft/Planner/Planner.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <map>

using namespace llvm;

namespace weft::plan {

std::vector<std::pair<int64_t, int64_t>>
microbatchCandidates(const Problem &p) {
  int64_t B = p.workload.batch;
  int64_t D = std::max<int64_t>(1, p.cluster.devices.size());
  std::vector<int64_t> pre, dec;
  for (int64_t m : {1, 2, 4, 8, 16})
    if (m <= B)
      pre.push_back(m);
  // Decode wants about one micro-batch per stage in flight.
  for (int64_t k : {int64_t(1), int64_t(2), int64_t(4), D / 2, D, 2 * D}) {
    int64_t m = (B + std::max<int64_t>(k, 1) - 1) / std::max<int64_t>(k, 1);
    if (!is_contained(dec, m))
      dec.push_back(m);
  }
  std::vector<std::pair<int64_t, int64_t>> r;
  for (int64_t a : pre)
    for (int64_t b : dec)
      r.push_back({a, b});
  return r;
}

std::vector<std::vector<int>> deviceGroups(const Cluster &c,
                                           size_t maxPerGroup) {
  // Interchangeable devices (same node and type) stay together, in index
  // order: permuting them cannot change any prediction.
  std::map<std::pair<int, std::string>, std::vector<int>> byKey;
  for (auto [i, d] : enumerate(c.devices))
    byKey[{d.node, d.spec.name}].push_back(int(i));
  std::vector<std::vector<int>> groups;
  for (auto &[key, devs] : byKey) {
    if (devs.size() > maxPerGroup)
      devs.resize(maxPerGroup);
    groups.push_back(devs);
  }
  return groups;
}

std::vector<int> flattenOrder(const std::vector<std::vector<int>> &groups,
                              ArrayRef<int> groupOrder) {
  std::vector<int> order;
  for (int g : groupOrder)
    order.insert(order.end(), groups[g].begin(), groups[g].end());
  return order;
}

std::vector<std::vector<int>>
seedGroupOrders(const Cluster &c, const std::vector<std::vector<int>> &groups) {
  std::vector<int> idx(groups.size());
  for (size_t i = 0; i < idx.size(); ++i)
    idx[i] = int(i);
  std::vector<std::vector<int>> orders;
  if (groups.size() <= kAllOrdersUpTo) {
    do
      orders.push_back(idx);
    while (std::next_permutation(idx.begin(), idx.end()));
    return orders;
  }
  auto sortedBy = [&](auto key, bool descending) {
    std::vector<int> g = idx;
    std::stable_sort(g.begin(), g.end(), [&](int a, int b) {
      double ka = key(c.devices[groups[a][0]].spec),
             kb = key(c.devices[groups[b][0]].spec);
      return descending ? ka > kb : ka < kb;
    });
    return g;
  };
  auto fp16 = [](const cost::DeviceSpec &d) { return d.fp16TFLOPS; };
  auto mem = [](const cost::DeviceSpec &d) { return d.memGiB; };
  auto bw = [](const cost::DeviceSpec &d) { return d.bandwidthGBps; };
  return {idx,
          sortedBy(fp16, true),
          sortedBy(fp16, false),
          sortedBy(mem, true),
          sortedBy(mem, false),
          sortedBy(bw, true),
          sortedBy(bw, false)};
}

Expected<int> highestFeasibleUniformBits(const Problem &p) {
  if (p.cluster.devices.empty())
    return createStringError(inconvertibleErrorCode(),
                             "the cluster has no devices");
  // Capacity test ignoring contiguity: total bytes at b bits vs. total usable
  // memory, with the smallest micro-batches. Planners check the rest.
  int64_t mp = 1, md = 1;
  CostTables t(p, mp, md);
  int64_t capacity = 0;
  for (size_t d = 0; d < t.usable.size(); ++d)
    capacity += t.usable[d] - t.activation[d];
  // The smallest KV cache of any device keeps this a necessary condition.
  int64_t kv = *std::min_element(t.kvPerLayer.begin(), t.kvPerLayer.end());
  for (int b : kBitMenu) {
    int64_t need = p.model.layers * (t.weightBytes[bitIndex(b)] + kv) +
                   t.firstBytes + t.lastBytes;
    if (need <= capacity)
      return b;
    if (b == 3) {
      double missing = double(need - capacity) / 1e9;
      return createStringError(
          inconvertibleErrorCode(),
          "the model does not fit even at 3 bits: it needs " +
              formatv("{0:F1}", double(need) / 1e9).str() +
              " GB (weights + KV cache for batch " +
              Twine(p.workload.batch).str() + ") but the cluster offers " +
              formatv("{0:F1}", double(capacity) / 1e9).str() + " GB; " +
              formatv("{0:F1}", missing).str() + " GB are missing");
    }
  }
  llvm_unreachable("3 is the last bit-width");
}

} // namespace weft::plan
