//===- CostTables.cpp - Per-device costs of one planning case -------------===//
#include "weft/Planner/CostTables.h"

#include "weft/CostModel/Memory.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>

namespace weft::plan {

int bitIndex(int bits) {
  for (size_t i = 0; i < kBitMenu.size(); ++i)
    if (kBitMenu[i] == bits)
      return int(i);
  return -1;
}

int64_t decodePast(const Workload &w) { return w.promptLen + w.genLen / 2; }

const cost::RuntimeProfile &runtimeProfile(const Problem &p) {
  if (p.profile)
    return *p.profile;
  bool allCpu = llvm::all_of(
      p.cluster.devices, [](const ClusterDevice &d) { return d.spec.isCpu; });
  return cost::builtinProfileFor(allCpu);
}

CostTables::CostTables(const Problem &p, int64_t prefillMicrobatch,
                       int64_t decodeMicrobatch)
    : problem(p), mp(prefillMicrobatch), md(decodeMicrobatch) {
  const cost::ModelDesc &m = p.model;
  const Workload &w = p.workload;
  const cost::RuntimeProfile &rt = runtimeProfile(p);
  constexpr cost::Phase kPre = cost::Phase::Prefill, kDec = cost::Phase::Decode;
  for (const ClusterDevice &d : p.cluster.devices) {
    std::array<double, 4> pre, dec;
    for (size_t b = 0; b < kBitMenu.size(); ++b) {
      int bits = kBitMenu[b];
      pre[b] =
          cost::layerLatencyMs(m, d.spec, {kPre, mp, w.promptLen, 0, bits}, rt);
      dec[b] = cost::layerLatencyMs(m, d.spec,
                                    {kDec, md, 1, decodePast(w), bits}, rt);
    }
    prefillLayerMs.push_back(pre);
    decodeLayerMs.push_back(dec);
    prefillFirstMs.push_back(
        cost::embeddingLatencyMs(m, d.spec, kPre, mp * w.promptLen, rt));
    decodeFirstMs.push_back(cost::embeddingLatencyMs(m, d.spec, kDec, md, rt));
    // Prefill needs logits of the last prompt position only.
    prefillLastMs.push_back(cost::lmHeadLatencyMs(m, d.spec, kPre, mp, rt) +
                            rt.stageOverheadMs[0]);
    decodeLastMs.push_back(cost::lmHeadLatencyMs(m, d.spec, kDec, md, rt) +
                           rt.stageOverheadMs[1]);
    usable.push_back(std::max<int64_t>(0, cost::usableBytes(d.spec) -
                                              rt.reservedBytesPerDevice));
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

int64_t CostTables::prefillSendBytes() const {
  return mp * problem.workload.promptLen * problem.model.hidden * 2;
}

int64_t CostTables::decodeSendBytes() const {
  return md * problem.model.hidden * 2;
}

int64_t CostTables::returnSendBytes() const { return md * 4; }

double CostTables::prefillSendMs(int from, int to) const {
  const cost::RuntimeProfile &rt = runtimeProfile(problem);
  int64_t bytes = prefillSendBytes();
  return problem.cluster.link(from, to).timeMs(bytes) +
         rt.transferExtraMs(bytes) + rt.stageOverheadMs[0];
}

double CostTables::decodeSendMs(int from, int to) const {
  const cost::RuntimeProfile &rt = runtimeProfile(problem);
  int64_t bytes = decodeSendBytes();
  return problem.cluster.link(from, to).timeMs(bytes) +
         rt.transferExtraMs(bytes) + rt.stageOverheadMs[1];
}

double CostTables::returnSendMs(int from, int to) const {
  int64_t bytes = returnSendBytes();
  return problem.cluster.link(from, to).timeMs(bytes) +
         runtimeProfile(problem).transferExtraMs(bytes);
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
