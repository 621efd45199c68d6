//===- LayerCost.cpp - Per-decoder-layer latency model --------------------===//
#include "weft/CostModel/LayerCost.h"
#include "weft/CostModel/Memory.h"

#include <algorithm>
#include <cmath>

namespace weft::cost {

const KernelParams &defaultKernelParams() {
  // launchUs and attnEff fitted on the Helix LLaMA-30B tables (weft cost
  // calibrate); dequantEff is a prior (no quantised measurements shipped).
  static const KernelParams params = [] {
    KernelParams p;
    p.launchUs = 13.921;
    p.attnEff = 0.4894;
    p.dequantEff = 0.5;
    return p;
  }();
  return params;
}

bool isSupportedBits(int bits) {
  return bits == 16 || bits == 8 || bits == 4 || bits == 3;
}

namespace {

constexpr double kBytesPerHalf = 2;
constexpr double kTpHopUs = 10; // one ring step's start-up (PCIe/NVLink)

double ceilDiv(double a, double b) { return std::ceil(a / b); }

/// Seconds -> milliseconds helpers keep the formulas readable.
double computeMs(double flops, const DeviceSpec &d, double eff) {
  return flops / (d.fp16TFLOPS * 1e12 * d.gemmEff * eff) * 1e3;
}
double memoryMs(double bytes, const DeviceSpec &d) {
  return bytes / (d.bandwidthGBps * 1e9 * d.memEff) * 1e3;
}

/// Integer/fp32 operations to unpack, shift and scale one quantised weight.
double dequantOpsPerWeight(int bits) {
  switch (bits) {
  case 8:
    return 2;
  case 4:
    return 3;
  default:
    return 4; // 3-bit values straddle byte boundaries
  }
}

/// FLOPs the tensor cores actually execute for an MxNxK GEMM: whole
/// output tiles, and whole waves of tiles over the SMs (wave quantisation).
double paddedGemmFlops(double M, double N, double K, const DeviceSpec &d) {
  double tm = M <= 16 ? 16 : (M <= 64 ? 64 : 128), tn = 128;
  double sms = std::max(1, d.sms);
  double waves = ceilDiv(ceilDiv(M, tm) * ceilDiv(N, tn), sms);
  return 2 * K * waves * sms * tm * tn;
}

/// One linear layer y[M,N] = x[M,K] W[K,N] with W stored at `bits`.
double gemmMs(double M, double N, double K, int bits, const DeviceSpec &d,
              const KernelParams &k) {
  double launch = k.launchUs * 1e-3;
  double flopsMs = computeMs(paddedGemmFlops(M, N, K, d), d, 1.0);
  double actBytes = kBytesPerHalf * (M * K + M * N);
  double fp16Weights = kBytesPerHalf * N * K;
  if (bits == 16)
    return std::max(flopsMs, memoryMs(fp16Weights + actBytes, d)) + launch;
  double qBytes = N * K * bits / 8.0 + N * K / kGroupSize * kBytesPerHalf;
  if (k.cudaCoreGemm[size_t(bitWidthIndex(bits))]) {
    double cudaCoreMs = 2 * M * N * K / (d.fp32TFLOPS * 1e12 * d.gemmEff) * 1e3;
    return std::max(cudaCoreMs, memoryMs(qBytes + actBytes, d)) + launch;
  }
  double dequantRate = d.fp32TFLOPS * 1e12 * k.dequantEff;
  if (M <= 64) {
    // Fused dequantise-in-register GEMV/GEMM: every M-tile of 16 rows
    // unpacks the weights again.
    double dqMs =
        N * K * dequantOpsPerWeight(bits) * ceilDiv(M, 16) / dequantRate * 1e3;
    return std::max({flopsMs, memoryMs(qBytes + actBytes, d), dqMs}) + launch;
  }
  // Prefill: dequantise into an fp16 buffer, then a tensor-core GEMM.
  double dqMs = std::max(memoryMs(qBytes + fp16Weights, d),
                         N * K * dequantOpsPerWeight(bits) / dequantRate * 1e3);
  return dqMs + launch +
         std::max(flopsMs, memoryMs(fp16Weights + actBytes, d)) + launch;
}

double attentionMs(const ModelDesc &m, const DeviceSpec &d, const LayerQuery &q,
                   const KernelParams &k) {
  double tp = std::max(1, q.tensorParallel);
  double b = q.batch, s = q.seq, p = q.past, h = m.hidden / tp,
         kv = m.kvDim() / tp;
  // Causal: each new token attends to the past and half the new block.
  double flops = 4 * b * s * (p + (s + 1) / 2) * h;
  double bytes = kBytesPerHalf * (2 * b * s * h + 2 * b * (s + p) * kv);
  return std::max(computeMs(flops, d, k.attnEff), memoryMs(bytes, d)) +
         k.launchUs * 1e-3;
}

/// Norms, rotary embedding, residual adds and the FFN activation.
double elementwiseMs(const ModelDesc &m, const DeviceSpec &d, double tokens,
                     const KernelParams &k) {
  double bytes =
      kBytesPerHalf * tokens * (10.0 * m.hidden + 3.0 * m.intermediate);
  int kernels = std::max(1, k.kernelsPerLayer - 5);
  return memoryMs(bytes, d) + kernels * k.launchUs * 1e-3;
}

} // namespace

double layerLatencyMs(const ModelDesc &m, const DeviceSpec &d,
                      const LayerQuery &q, const KernelParams &k) {
  double T = double(q.batch) * double(q.seq);
  double h = m.hidden, f = m.intermediate, kv = m.kvDim();
  double tp = std::max(1, q.tensorParallel);
  double ms = 0;
  // Column-parallel q/k/v and gate/up split N; row-parallel output and
  // down split K.
  ms += gemmMs(T, (h + 2 * kv) / tp, h, q.bits, d, k);             // q, k, v
  ms += gemmMs(T, h, h / tp, q.bits, d, k);                        // output
  ms += gemmMs(T, (m.gatedFFN ? 2 : 1) * f / tp, h, q.bits, d, k); // gate+up
  ms += gemmMs(T, h, f / tp, q.bits, d, k);                        // down
  ms += attentionMs(m, d, q, k);
  ms += elementwiseMs(m, d, T, k);
  if (tp > 1) {
    // Two ring all-reduces of the fp16 hidden state per layer.
    double bytes = kBytesPerHalf * T * h;
    double ringMs = 2 * (tp - 1) / tp * bytes / (q.tpLinkGBps * 1e9) * 1e3 +
                    2 * (tp - 1) * kTpHopUs * 1e-3;
    ms += 2 * ringMs;
  }
  return ms;
}

double embeddingLatencyMs(const ModelDesc &m, const DeviceSpec &d,
                          int64_t tokens, const KernelParams &k) {
  return memoryMs(2.0 * kBytesPerHalf * double(tokens) * m.hidden, d) +
         k.launchUs * 1e-3;
}

double lmHeadLatencyMs(const ModelDesc &m, const DeviceSpec &d, int64_t tokens,
                       const KernelParams &k) {
  return gemmMs(double(tokens), double(m.vocab), double(m.hidden), 16, d, k);
}

} // namespace weft::cost
