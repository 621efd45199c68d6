//===- CostTables.cpp - Per-device costs of one planning case -------------===//
#include "weft/Planner/CostTables.h"

#include "weft/CostModel/Memory.h"

#include <algorithm>

namespace weft::plan {

int bitIndex(int bits) {
  for (size_t i = 0; i < kBitMenu.size(); ++i)
    if (kBitMenu[i] == bits)
      return int(i);
  return -1;
}

int64_t decodePast(const Workload &w) { return w.promptLen + w.genLen / 2; }

CostTables::CostTables(const Problem &p, int64_t prefillMicrobatch,
                       int64_t decodeMicrobatch)
    : problem(p), mp(prefillMicrobatch), md(decodeMicrobatch) {
  const cost::ModelDesc &m = p.model;
  const Workload &w = p.workload;
  for (const ClusterDevice &d : p.cluster.devices) {
    std::array<double, 4> pre, dec;
    for (size_t b = 0; b < kBitMenu.size(); ++b) {
      pre[b] = cost::layerLatencyMs(
          m, d.spec, {cost::Phase::Prefill, mp, w.promptLen, 0, kBitMenu[b]});
      dec[b] = cost::layerLatencyMs(
          m, d.spec, {cost::Phase::Decode, md, 1, decodePast(w), kBitMenu[b]});
    }
    prefillLayerMs.push_back(pre);
    decodeLayerMs.push_back(dec);
    prefillFirstMs.push_back(
        cost::embeddingLatencyMs(m, d.spec, mp * w.promptLen));
    decodeFirstMs.push_back(cost::embeddingLatencyMs(m, d.spec, md));
    // Prefill needs logits of the last prompt position only.
    prefillLastMs.push_back(cost::lmHeadLatencyMs(m, d.spec, mp));
    decodeLastMs.push_back(cost::lmHeadLatencyMs(m, d.spec, md));
    usable.push_back(cost::usableBytes(d.spec));
    // Every stage keeps the KV cache of all sequences for the whole request.
    int element = cost::activationElementBytes(d.spec);
    kvPerLayer.push_back(
        cost::layerKVBytes(m, w.batch, w.promptLen + w.genLen, element));
    activation.push_back(
        cost::activationBytes(m, std::max(mp * w.promptLen, md), d.spec));
  }
  for (size_t b = 0; b < kBitMenu.size(); ++b)
    weightBytes[b] = cost::layerWeightBytes(m, kBitMenu[b]);
  firstBytes = cost::embeddingBytes(m);
  lastBytes = cost::lmHeadBytes(m);
  // weft's serving runtimes keep the classifier as its own matrix even when
  // it is tied to the embedding (it may be quantized differently).
  bothBytes = firstBytes + lastBytes;
}

double CostTables::prefillSendMs(int from, int to) const {
  int64_t bytes = mp * problem.workload.promptLen * problem.model.hidden * 2;
  return problem.cluster.link(from, to).timeMs(bytes);
}

double CostTables::decodeSendMs(int from, int to) const {
  return problem.cluster.link(from, to).timeMs(md * problem.model.hidden * 2);
}

int64_t CostTables::stageBytes(int device, int64_t layers, int64_t weights,
                               bool first, bool last) const {
  int64_t extra = first && last ? bothBytes
                  : first       ? firstBytes
                  : last        ? lastBytes
                                : 0;
  return weights + layers * kvPerLayer[device] + activation[device] + extra;
}

} // namespace weft::plan
