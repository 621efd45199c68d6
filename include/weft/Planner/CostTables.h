//===- CostTables.h - Per-device costs of one planning case -----*- C++ -*-===//
//
// Every decoder layer of a model has the same shape, so a stage's time and
// memory depend only on how many layers it runs at each bit-width. These
// tables hold the per-layer numbers for one (problem, micro-batch sizes)
// pair; the evaluator and all planners read the same tables.
//
// The tables already include the problem's runtime profile: kernel factors
// and per-layer overheads in the layer times, a stage's fixed overhead with
// its outgoing hop (the last stage: with its LM head), so every planner
// optimises what the evaluator predicts.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_PLANNER_COSTTABLES_H
#define WEFT_PLANNER_COSTTABLES_H

#include "weft/Planner/Plan.h"

#include <array>

namespace weft::plan {

constexpr std::array<int, 4> kBitMenu = {16, 8, 4, 3};
int bitIndex(int bits); // position in kBitMenu, -1 if unsupported

struct CostTables {
  CostTables(const Problem &p, int64_t prefillMicrobatch,
             int64_t decodeMicrobatch);

  const Problem &problem;
  int64_t mp, md;
  // [device][bit index]
  std::vector<std::array<double, 4>> prefillLayerMs, decodeLayerMs;
  std::array<int64_t, 4> weightBytes;
  std::vector<double> prefillFirstMs, prefillLastMs; // embedding / LM head
  std::vector<double> decodeFirstMs, decodeLastMs;
  std::vector<int64_t> usable;
  // [device]: KV cache of one layer, peak activations.
  std::vector<int64_t> kvPerLayer, activation;
  int64_t firstBytes = 0, lastBytes = 0,
          bothBytes = 0; // embedding, LM head, both on one device

  double prefillSendMs(int from, int to) const;
  double decodeSendMs(int from, int to) const;
  /// The sampled tokens going from the last stage back to the first.
  double returnSendMs(int from, int to) const;
  /// Bytes of those three messages.
  int64_t prefillSendBytes() const;
  int64_t decodeSendBytes() const;
  int64_t returnSendBytes() const;
  /// Bytes of a stage with `layers` layers and weight bytes `weights`.
  int64_t stageBytes(int device, int64_t layers, int64_t weights, bool first,
                     bool last) const;
};

/// evaluate() on prebuilt tables (the tables' micro-batch sizes are used).
Prediction evaluateWith(const CostTables &t, const Plan &plan);

} // namespace weft::plan

#endif
