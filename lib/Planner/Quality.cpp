//===- Quality.cpp - Per-layer quantisation sensitivity -------------------===//
#include "weft/Planner/Quality.h"

#include "weft/CostModel/Memory.h"

#include "weft_rt_checkpoint.h"
#include "weft_rt_hf_config.h"

#include <algorithm>
#include <cmath>
#include <optional>

using namespace llvm;
using weft::cost::ModelDesc;

namespace weft::plan {

double bitNoise(int bits) {
  if (bits >= 16)
    return 0; // fp16 weights are the reference, not a quantisation
  double levels = std::ldexp(1.0, bits) - 1;
  return 1.0 / (levels * levels);
}

double QualityModel::loss(ArrayRef<int> bitsPerLayer) const {
  double sum = 0;
  for (auto [l, b] : enumerate(bitsPerLayer))
    sum += layerLoss(int64_t(l), b);
  return sum;
}

double QualityModel::uniformLoss(int bits) const {
  double sum = 0;
  for (double s : sensitivity)
    sum += s * bitNoise(bits);
  return sum;
}

static void normalise(QualityModel &q) {
  double at4 = q.uniformLoss(4);
  for (double &s : q.sensitivity)
    s = at4 > 0 ? s / at4 : 0;
}

QualityModel qualityPrior(const ModelDesc &m) {
  QualityModel q;
  q.source = "prior";
  q.sensitivity.assign(m.layers, 1.0);
  q.sensitivity.front() = 2.0;
  q.sensitivity.back() = 2.0;
  normalise(q);
  return q;
}

namespace {

double meanSquare(ArrayRef<float> v) {
  double s = 0;
  for (float x : v)
    s += double(x) * x;
  return v.empty() ? 0 : s / v.size();
}

/// rows x cols matrix (one output row of `cols` inputs at a time):
/// rows*cols*inputVar * mean over groups of range^2 / 12.
double matrixNoise(ArrayRef<float> w, int64_t rows, int64_t cols,
                   double inputVar) {
  int64_t group = std::min<int64_t>(cost::kGroupSize, cols);
  double sum = 0;
  int64_t groups = 0;
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; c += group) {
      auto g = w.slice(r * cols + c, std::min(group, cols - c));
      auto [lo, hi] = std::minmax_element(g.begin(), g.end());
      sum += double(*hi - *lo) * double(*hi - *lo);
      ++groups;
    }
  return double(rows) * cols * inputVar * (sum / groups) / 12;
}

} // namespace

Expected<QualityModel> qualityFromWeights(const ModelDesc &m, StringRef path) {
  if (m.arch != "llama2c" && !rt::hasWeightReader(m.arch))
    return qualityPrior(m);
  rt::Checkpoint ckpt;
  std::string error;
  if (!ckpt.open(path.str(), &error, rt::Checkpoint::Use::Inspect))
    return createStringError(inconvertibleErrorCode(), error);
  const rt::LlamaConfig &c = ckpt.config();
  using rt::Tensor;
  // Each quantised matrix and the norm in front of it (none: input
  // variance 1).
  const std::pair<Tensor, std::optional<Tensor>> matrices[] = {
      {Tensor::Wq, Tensor::AttnNorm}, {Tensor::Wk, Tensor::AttnNorm},
      {Tensor::Wv, Tensor::AttnNorm}, {Tensor::Wo, std::nullopt},
      {Tensor::W1, Tensor::FfnNorm},  {Tensor::W3, Tensor::FfnNorm},
      {Tensor::W2, std::nullopt}};
  QualityModel q;
  q.source = "weights";
  std::vector<float> w, norm;
  for (int l = 0; l < c.layers; ++l) {
    double s = 0;
    for (auto [matrix, normTensor] : matrices) {
      if (!ckpt.has(matrix))
        continue; // OPT has no W3
      double inputVar = 1.0;
      if (normTensor) {
        if (!ckpt.read(*normTensor, l, norm, &error))
          return createStringError(inconvertibleErrorCode(), error);
        inputVar = meanSquare(norm);
      }
      if (!ckpt.read(matrix, l, w, &error))
        return createStringError(inconvertibleErrorCode(), error);
      rt::TensorShape shape = rt::tensorShape(c, matrix);
      s += matrixNoise(w, shape.rows, shape.cols, inputVar);
    }
    q.sensitivity.push_back(s);
  }
  normalise(q);
  return q;
}

} // namespace weft::plan
