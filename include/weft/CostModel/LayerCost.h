//===- LayerCost.h - Per-decoder-layer latency model ------------*- C++ -*-===//
//
// Roofline estimate of one decoder layer: every kernel (GEMMs, attention,
// elementwise) costs max(compute, memory) plus a launch overhead; GEMMs pay
// for wave quantisation; weight-only quantised GEMMs pay for dequantising
// (fused into the GEMV in decode, a separate pass before the fp16 GEMM in
// prefill). Efficiencies come from the device and KernelParams, both
// calibrated on measured tables (docs/cost-model.md).
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_COSTMODEL_LAYERCOST_H
#define WEFT_COSTMODEL_LAYERCOST_H

#include "weft/CostModel/Device.h"
#include "weft/CostModel/ModelDesc.h"

#include <array>

namespace weft::cost {

enum class Phase { Prefill, Decode };

struct LayerQuery {
  Phase phase = Phase::Decode;
  int64_t batch = 1; // sequences in the micro-batch
  int64_t seq = 1;   // new tokens per sequence (1 in decode)
  int64_t past = 0;  // tokens already in the KV cache
  int bits = 16;     // weight bits: 16, 8, 4 or 3
  /// Megatron-style tensor parallelism over `tensorParallel` devices of the
  /// same type: column/row-split GEMMs, heads split, two all-reduces of the
  /// hidden state per layer over a ring of `tpLinkGBps` links.
  int tensorParallel = 1;
  double tpLinkGBps = 16;
};

/// Device-independent kernel constants (fitted globally).
struct KernelParams {
  double launchUs = 6.0;   // per kernel launch / sync
  double attnEff = 0.5;    // attention FLOP efficiency relative to GEMM
  double dequantEff = 0.5; // fraction of the fp32 rate spent dequantising
  int kernelsPerLayer = 9; // fp16 kernels of one decoder layer
  /// Per bit index (16, 8, 4, 3): that width's quantised GEMMs run on the
  /// CUDA cores at the fp32 rate, from the packed weights (GPTQ-style
  /// kernels), instead of dequantising for a tensor-core GEMM.
  std::array<bool, 4> cudaCoreGemm{};
};

/// The committed, fitted constants.
const KernelParams &defaultKernelParams();

/// True for the bit-widths the model (and the runtime) support.
bool isSupportedBits(int bits);
/// The supported bit-widths, in the order per-width arrays use.
constexpr std::array<int, 4> kBitWidths = {16, 8, 4, 3};
/// Index of `bits` in kBitWidths, or -1.
constexpr int bitWidthIndex(int bits) {
  for (int i = 0; i < int(kBitWidths.size()); ++i)
    if (kBitWidths[size_t(i)] == bits)
      return i;
  return -1;
}

/// Predicted latency of one decoder layer, in milliseconds.
double layerLatencyMs(const ModelDesc &m, const DeviceSpec &d,
                      const LayerQuery &q,
                      const KernelParams &k = defaultKernelParams());

/// Embedding lookup (first stage) and final norm + LM head (last stage) for
/// `tokens` tokens, fp16, in milliseconds.
double embeddingLatencyMs(const ModelDesc &m, const DeviceSpec &d,
                          int64_t tokens,
                          const KernelParams &k = defaultKernelParams());
double lmHeadLatencyMs(const ModelDesc &m, const DeviceSpec &d, int64_t tokens,
                       const KernelParams &k = defaultKernelParams());

} // namespace weft::cost

#endif
