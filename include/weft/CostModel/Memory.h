//===- Memory.h - Memory footprint of model parts ---------------*- C++ -*-===//
//
// Bytes held by a pipeline stage: quantised weights (with one fp16 scale per
// group of kGroupSize weights), fp16 norms/biases, fp16 KV cache, peak
// activations, embeddings/LM head, and the runtime's fixed overhead.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_COSTMODEL_MEMORY_H
#define WEFT_COSTMODEL_MEMORY_H

#include "weft/CostModel/Device.h"
#include "weft/CostModel/ModelDesc.h"

#include <cstdint>

namespace weft::cost {

constexpr int64_t kGroupSize = 128;

/// Weights of one decoder layer at `bits` (scales included).
int64_t layerWeightBytes(const ModelDesc &m, int bits);
/// K and V of one layer for `seqs` sequences of `tokens` tokens each.
int64_t layerKVBytes(const ModelDesc &m, int64_t seqs, int64_t tokens);
/// Peak temporary memory of a stage running `tokens` tokens at once.
int64_t activationBytes(const ModelDesc &m, int64_t tokens);
/// fp16 embedding table, and the LM head (+ final norm).
int64_t embeddingBytes(const ModelDesc &m);
int64_t lmHeadBytes(const ModelDesc &m);
/// Bytes of `d` a plan may use: capacity minus the CUDA context and
/// allocator slack.
int64_t usableBytes(const DeviceSpec &d);

} // namespace weft::cost

#endif
