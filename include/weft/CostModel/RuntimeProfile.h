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
#include <string>

namespace weft::cost {

/// The profile file format this code reads and writes.
constexpr int kRuntimeProfileVersion = 1;

/// Bit-widths a profile has kernel factors for, in this order.
constexpr std::array<int, 4> kProfileBits = {16, 8, 4, 3};

/// Index into per-phase arrays.
inline int phaseIndex(Phase p) { return p == Phase::Prefill ? 0 : 1; }

/// Where a profile's numbers come from.
struct ProfileProvenance {
  std::string measured; // what was measured (or "nothing: ...")
  std::string where;    // machine, runtime, data set
  std::string when;     // ISO date
  std::string command;  // the command that produced the profile
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

  /// Multiplier on the kernels of `device` at `bits` in `phase`: the
  /// bit-width's factor times the device type's.
  double kernelScale(Phase phase, int bits, llvm::StringRef device) const;
  /// The device type's part of it (1 when the type is not listed).
  double deviceScale(Phase phase, llvm::StringRef device) const;
  /// Extra time of one stage-to-stage message of `bytes` (ms).
  double transferExtraMs(int64_t bytes) const;
};

/// One decoder layer's latency under `profile` (ms): the analytical time
/// scaled by the profile's kernel factor, plus its per-layer overhead.
double layerLatencyMs(const ModelDesc &m, const DeviceSpec &d,
                      const LayerQuery &q, const RuntimeProfile &profile);

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
