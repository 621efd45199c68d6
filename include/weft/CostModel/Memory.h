//===- Memory.h - Memory footprint of model parts ---------------*- C++ -*-===//
//
// Bytes held by a pipeline stage: quantised weights (with one fp16 scale and
// one 8-bit zero-point per group of kGroupSize weights, docs/quantization.md),
// fp16 norms/biases, the KV cache and peak activations (fp16 on GPUs, fp32 on
// CPUs, where weft's runtime computes in fp32), embeddings/LM head, and the
// runtime's fixed overhead.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_COSTMODEL_MEMORY_H
#define WEFT_COSTMODEL_MEMORY_H

#include "weft/CostModel/Device.h"
#include "weft/CostModel/ModelDesc.h"

#include <cstdint>

namespace weft::cost {

constexpr int64_t kGroupSize = 128;

/// Weights of one decoder layer at `bits` (scales and zero-points included).
int64_t layerWeightBytes(const ModelDesc &m, int bits);
/// Bytes of one activation or KV-cache element on `d`: 2 (fp16) on GPUs, 4
/// (fp32) on CPUs.
int activationElementBytes(const DeviceSpec &d);
/// K and V of one layer for `seqs` sequences of `tokens` tokens each.
int64_t layerKVBytes(const ModelDesc &m, int64_t seqs, int64_t tokens,
                     int elementBytes = 2);
/// Peak temporary memory of a stage on `d` running `tokens` tokens at once.
int64_t activationBytes(const ModelDesc &m, int64_t tokens,
                        const DeviceSpec &d);
/// fp16 embedding table, and the LM head (+ final norm).
int64_t embeddingBytes(const ModelDesc &m);
int64_t lmHeadBytes(const ModelDesc &m);
/// Bytes of `d` a plan may use: capacity minus the CUDA context and
/// allocator slack.
int64_t usableBytes(const DeviceSpec &d);

} // namespace weft::cost

#endif
