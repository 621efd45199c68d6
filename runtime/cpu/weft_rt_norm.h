//===- weft_rt_norm.h - RMSNorm, LayerNorm and softmax ----------*- C++ -*-===//
#ifndef WEFT_RT_NORM_H
#define WEFT_RT_NORM_H

namespace weft::rt {

/// out[t][i] = x[t][i] / sqrt(mean(x[t]^2) + eps) * weight[i] for m rows of
/// n values. out may alias x.
void rmsNorm(const float *x, const float *weight, float *out, int m, int n,
             float eps);

/// out = (x - mean) / sqrt(var + eps) * weight + bias per row; bias may be
/// null. out may alias x.
void layerNorm(const float *x, const float *weight, const float *bias,
               float *out, int m, int n, float eps);

/// In-place numerically stable softmax of n values.
void softmax(float *x, int n);

} // namespace weft::rt

#endif
