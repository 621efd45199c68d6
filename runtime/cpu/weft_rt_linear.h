//===- weft_rt_linear.h - A linear layer's weight in any format -*- C++ -*-===//
//
// One weight matrix [N][K] stored as fp32, fp16 or group-quantized codes,
// chosen per layer by the serving plan's bit width; apply() picks the
// matching kernel.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_RT_LINEAR_H
#define WEFT_RT_LINEAR_H

#include "weft_rt_quant.h"

#include <cstdint>
#include <string>
#include <vector>

namespace weft::rt {

struct Linear {
  int rows = 0, cols = 0;
  int bits = 32; ///< 32 (fp32), 16 (fp16) or a quantized width in [2, 8]
  std::vector<float> f32;
  std::vector<uint16_t> f16;
  QuantMatrix quant;

  /// y[m][rows] = x[m][cols] * W^T.
  void apply(const float *x, float *y, int m) const;
  /// Bytes of weight storage.
  int64_t storageBytes() const;
};

/// Stores w[rows][cols] at `bits` (32, 16 or 2..8, quantized with
/// round-to-nearest in groups of groupSize). Returns false and sets *error
/// for an unsupported width or group size.
bool makeLinear(const float *w, int rows, int cols, int bits, int groupSize,
                Linear &out, std::string *error);

} // namespace weft::rt

#endif
