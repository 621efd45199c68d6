//===- KernelProfileFit.h - Runtime profile from timed kernels -*- C++ -*-===//
//
// `weft cost profile` runs weft-kernel-bench (runtime/profile), which times
// a serving backend's decoder-layer passes, LM head, embedding and stage
// hand-offs, and fits the kernel curves of a runtime profile to those
// samples: per phase, a decoder layer's time is linear in its weight
// elements (per bit-width), weight elements x rows (per bit-width),
// attended positions, elementwise values and a fixed overhead. The fit is
// bounded least squares on relative errors (BoundedLeastSquares.h). A term
// the samples cannot tell from a bit-width's own terms (with one model
// shape, `--quick`: the fixed and elementwise costs) is left at 0 and
// counted in each bit-width's terms; a decode layer's weight term is at
// least half its fastest sample's time per weight (small-batch decode
// streams its weights), so that noisy timings cannot fit it at 0.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_PLANNER_KERNELPROFILEFIT_H
#define WEFT_PLANNER_KERNELPROFILEFIT_H

#include "weft/CostModel/RuntimeProfile.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <string>
#include <vector>

namespace weft::plan {

/// One timed part of a stage ("layers", "head", "embed" or "transfer").
struct KernelSample {
  std::string part;
  cost::Phase phase = cost::Phase::Decode;
  int bits = 16;
  cost::ModelDesc model; // the shape it ran (hidden, FFN, heads, vocab)
  int layers = 0, seqs = 0, rows = 0, past = 0;
  int64_t bytes = 0;  // transfer only
  double ms = 0;      // the whole timed call
  double emptyMs = 0; // layers: the same pass without its layers
};

struct KernelSamples {
  int threads = 1;
  std::vector<KernelSample> samples;
};

/// Reads weft-kernel-bench's output; errors name the file and the field.
llvm::Expected<KernelSamples> readKernelSamples(llvm::StringRef path);
/// The same, from parsed JSON; errors name `file`.
llvm::Expected<KernelSamples> kernelSamplesFromJSON(const llvm::json::Value &v,
                                                    llvm::StringRef file);

struct KernelFitReport {
  cost::RuntimeProfile profile;
  /// [phase]: decoder-layer samples, their mean absolute relative error
  /// under the fitted curves, and that error when each model shape is
  /// predicted by curves fitted on the other shapes.
  std::array<int, 2> layerSamples{};
  std::array<double, 2> layerError{}, heldOutShapeError{};
  double headError = 0; // LM head + sampling samples
};

/// Fits curves, per-layer and per-stage overheads and the hand-off cost
/// to `samples`; the profile is named `name` for target `target` ("cpu" or
/// "cuda"), its curves apply to device type `device` ("cpu", "H200"), and
/// it is not estimated. Callers set the provenance. Fails when a phase has
/// too few layer samples to determine its curves.
llvm::Expected<KernelFitReport> fitKernelProfile(const KernelSamples &samples,
                                                 llvm::StringRef name,
                                                 llvm::StringRef target,
                                                 llvm::StringRef device);

} // namespace weft::plan

#endif
