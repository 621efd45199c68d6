//===- RuntimeProfile.h - How a serving runtime runs a plan -----*- C++ -*-===//
//
// The device database (Device.h) says what the hardware can do; a runtime
// profile says how much of it the runtime that executes a plan gets: per
// phase and bit-width multipliers on the analytical kernel times, fixed
// per-layer, per-stage and per-step overheads, the transfer path between
// stages and the memory the runtime holds on every device. Profiles are
// versioned JSON files with provenance (docs/cost-model.md, "Runtime
// profiles"); the identity profile reproduces the analytical model exactly.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_COSTMODEL_RUNTIMEPROFILE_H
#define WEFT_COSTMODEL_RUNTIMEPROFILE_H

#include "weft/CostModel/LayerCost.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <array>
#include <map>
#include <optional>
#include <string>

namespace weft::cost {

/// The profile file format this code writes; it also reads version 1
/// (version 2 added measured kernel curves).
constexpr int kRuntimeProfileVersion = 2;

/// Bit-widths a profile has kernel factors for, in this order.
constexpr std::array<int, 4> kProfileBits = kBitWidths;

/// Index into per-phase arrays.
inline int phaseIndex(Phase p) { return p == Phase::Prefill ? 0 : 1; }

/// Where a profile's numbers come from.
struct ProfileProvenance {
  std::string measured; // what was measured (or "nothing: ...")
  std::string where;    // machine, runtime, data set
  std::string when;     // ISO date
  std::string command;  // the command that produced the profile
};

/// Latencies a runtime's kernels were measured to have (weft cost profile),
/// as curves linear in the work of a decoder layer. They replace the
/// roofline on the device type they were measured on.
struct KernelCurves {
  std::string device = "cpu"; // device type (canonical name)
  int threads = 1;            // threads per stage they were measured with
  /// [phase][bit index], nanoseconds: a decoder layer's GEMMs take
  /// W * (weightNs + rows * rowWeightNs) for W weight elements.
  std::array<std::array<double, 4>, 2> weightNs{}, rowWeightNs{};
  /// [phase], nanoseconds per (new row x attended position x hidden), per
  /// (new row x attended position x head) (the softmax) and per (row x
  /// hidden) for the norms, RoPE, activations and residuals.
  std::array<double, 2> attentionNs{}, attentionHeadNs{}, elementwiseNs{};
  /// Final norm, LM head and greedy sampling: vocab x hidden x
  /// (headWeightNs + rows * headRowWeightNs); embedding: rows x hidden x
  /// embeddingNs.
  double headWeightNs = 0, headRowWeightNs = 0, embeddingNs = 0;
};

struct RuntimeProfile {
  std::string name;      // "weft-cpu", "weft-cuda-estimated", ...
  std::string target;    // "cpu", "cuda" or the runtime's name
  bool estimated = true; // true until the numbers were measured
  ProfileProvenance provenance;

  /// [phase][bit index]: multiplier on the analytical time of every kernel
  /// at that bit-width (embedding and LM head run at 16 bits).
  std::array<std::array<double, 4>, 2> kernelFactor = {
      {{1, 1, 1, 1}, {1, 1, 1, 1}}};
  /// [phase][bit index]: the runtime's GEMMs at that width run on the CUDA
  /// cores at the fp32 rate (GPTQ-style kernels), not as a dequantisation
  /// plus a tensor-core GEMM; the kernel factor then scales that time. The
  /// 16-bit entry is always false.
  std::array<std::array<bool, 4>, 2> cudaCoreGemm{};
  /// Device type (canonical name) -> [phase]: a further multiplier for the
  /// kernels on that device type; types not listed use 1.
  std::map<std::string, std::array<double, 2>> deviceFactor;
  /// [phase], milliseconds: paid by every decoder layer on every pass of a
  /// micro-batch, by every stage on every pass, and once per prefill or
  /// decode step (sampling, the scheduler loop).
  std::array<double, 2> layerOverheadMs = {0, 0};
  std::array<double, 2> stageOverheadMs = {0, 0};
  std::array<double, 2> stepOverheadMs = {0, 0};

  /// Stage-to-stage transfers: the cluster's link plus `latencyUs` per
  /// message and, when `stagingGBps` > 0, one more copy of the message at
  /// that rate (activations staged through host memory).
  std::string transferPath = "cluster";
  double transferLatencyUs = 0;
  double stagingGBps = 0;

  /// Bytes the runtime holds on every device beyond the plan's tensors
  /// (context, allocator pools), taken from the usable memory.
  int64_t reservedBytesPerDevice = 0;

  /// Measured kernel latencies; absent in profiles fitted from runs.
  std::optional<KernelCurves> curves;
  /// The curves, when they apply to `device`.
  const KernelCurves *curvesFor(llvm::StringRef device) const;

  /// Multiplier on the kernels of `device` at `bits` in `phase`: the
  /// bit-width's factor times the device type's.
  double kernelScale(Phase phase, int bits, llvm::StringRef device) const;
  /// The device type's part of it (1 when the type is not listed).
  double deviceScale(Phase phase, llvm::StringRef device) const;
  /// Extra time of one stage-to-stage message of `bytes` (ms).
  double transferExtraMs(int64_t bytes) const;
};

/// The work of one decoder layer that kernel curves are linear in: weight
/// elements, rows (tokens), attended (row x position x hidden) products,
/// attention scores (row x position x head) and elementwise (row x hidden)
/// values.
struct LayerWork {
  double weights = 0, rows = 0, attended = 0, scores = 0, elementwise = 0;
};
LayerWork layerWork(const ModelDesc &m, const LayerQuery &q);

/// One decoder layer's latency under `profile` (ms): the analytical time
/// scaled by the profile's kernel factor, plus its per-layer overhead.
double layerLatencyMs(const ModelDesc &m, const DeviceSpec &d,
                      const LayerQuery &q, const RuntimeProfile &profile);

/// The embedding lookup of `tokens` rows and the final norm, LM head and
/// sampling of `rows` rows in `phase` under `profile` (ms); both run at 16
/// bits.
double embeddingLatencyMs(const ModelDesc &m, const DeviceSpec &d, Phase phase,
                          int64_t tokens, const RuntimeProfile &profile);
double lmHeadLatencyMs(const ModelDesc &m, const DeviceSpec &d, Phase phase,
                       int64_t rows, const RuntimeProfile &profile);

/// weft's own runtimes with the analytical model unchanged (every factor 1,
/// no overheads). Both are estimates: nothing in them was measured.
const RuntimeProfile &builtinCpuProfile();
const RuntimeProfile &builtinCudaProfile();
/// The built-in profile of a cluster: CPU when every device is a CPU.
const RuntimeProfile &builtinProfileFor(bool allCpu);

/// Parses a profile; errors name the file and field
/// ("p.json: kernels.decode.8: expected a positive number").
llvm::Expected<RuntimeProfile> profileFromJSON(const llvm::json::Value &v,
                                               llvm::StringRef file);
llvm::json::Object profileToJSON(const RuntimeProfile &p);
/// What a plan records of its profile: name, version, estimated, provenance.
llvm::json::Object profileSummaryJSON(const RuntimeProfile &p);

} // namespace weft::cost

#endif
