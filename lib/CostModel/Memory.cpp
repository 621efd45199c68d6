//===- Memory.cpp - Memory footprint of model parts -----------------------===//
#include "weft/CostModel/Memory.h"

#include <algorithm>

namespace weft::cost {

int64_t layerWeightBytes(const ModelDesc &m, int bits) {
  int64_t n = m.linearParamsPerLayer();
  int64_t bytes = n * bits / 8;
  if (bits < 16) // fp16 scale and 8-bit zero-point per group
    bytes += (n + kGroupSize - 1) / kGroupSize * 3;
  return bytes + m.smallParamsPerLayer() * 2;
}

int activationElementBytes(const DeviceSpec &d) { return d.isCpu ? 4 : 2; }

int64_t layerKVBytes(const ModelDesc &m, int64_t seqs, int64_t tokens,
                     int elementBytes) {
  return 2 /*K,V*/ * seqs * tokens * m.kvDim() * elementBytes;
}

int64_t activationBytes(const ModelDesc &m, int64_t tokens,
                        const DeviceSpec &d) {
  // Residual stream, normed input, q/k/v and attention output, and the
  // FFN's two inner tensors are alive at the peak.
  int64_t perToken = 4 * m.hidden + 2 * m.kvDim() + 2 * m.intermediate;
  // On a CPU the stage's own residual copy and the double-buffered hidden
  // states it receives and sends share that memory too (a GPU stages them
  // in host memory).
  if (d.isCpu)
    perToken += 5 * m.hidden;
  return tokens * perToken * activationElementBytes(d);
}

int64_t embeddingBytes(const ModelDesc &m) { return m.vocab * m.hidden * 2; }

int64_t lmHeadBytes(const ModelDesc &m) {
  return m.vocab * m.hidden * 2 + m.hidden * 2;
}

int64_t usableBytes(const DeviceSpec &d) {
  constexpr double GiB = 1024.0 * 1024 * 1024;
  if (d.isCpu)
    return int64_t(d.memGiB * GiB * 0.9);
  // CUDA context + library workspaces (~0.8 GiB) and 5% allocator slack,
  // as LLM-PQ's measured usable-memory table suggests.
  return int64_t(std::max(0.0, d.memGiB * GiB * 0.95 - 0.8 * GiB));
}

} // namespace weft::cost
