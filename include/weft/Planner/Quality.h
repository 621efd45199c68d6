//===- Quality.h - Per-layer quantisation sensitivity -----------*- C++ -*-===//
//
// omega(l, b) = S_l * g(b) with g(b) = 1 / (2^b - 1)^2: the variance of
// uniform b-bit round-to-nearest noise (LLM-PQ's variance indicator). S_l
// comes from the weights when we have them and from a prior otherwise; it is
// normalised so that quantising every layer to 4 bits scores 1.0. Every plan
// of a model is therefore on the same scale.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_PLANNER_QUALITY_H
#define WEFT_PLANNER_QUALITY_H

#include "weft/CostModel/ModelDesc.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace weft::plan {

/// Relative noise variance of b-bit weights (0 for 16: the reference).
double bitNoise(int bits);

struct QualityModel {
  std::vector<double> sensitivity; // S_l, normalised (sum S_l g(4) == 1)
  std::string source;              // "weights" or "prior"

  double layerLoss(int64_t layer, int bits) const {
    return sensitivity[layer] * bitNoise(bits);
  }
  double loss(llvm::ArrayRef<int> bitsPerLayer) const;
  /// Loss of quantising every layer to `bits`.
  double uniformLoss(int bits) const;
};

/// Prior when no weights are given: every layer equally sensitive except
/// the first and last, which count double (they see the raw embedding and
/// feed the classifier; both are the most sensitive layers in published
/// per-layer sensitivity studies, LLM-PQ included).
QualityModel qualityPrior(const cost::ModelDesc &m);

/// The variance indicator from a checkpoint's weights (a llama2.c file or
/// a HuggingFace directory, read one tensor at a time through
/// weft_rt_checkpoint.h): per matrix, (rows x in-features) x Var(input) x
/// mean over 128-groups of (max - min)^2 / 12, where Var(input) is the
/// mean squared gain of the norm in front (1 for the output and down
/// projections). Architectures the checkpoint reader does not know (BLOOM,
/// Mixtral) get the prior. Errors name the file and the tensor.
llvm::Expected<QualityModel> qualityFromWeights(const cost::ModelDesc &m,
                                                llvm::StringRef path);

} // namespace weft::plan

#endif
