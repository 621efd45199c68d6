//===- weft_rt_ffn.h - Activations and fused FFN gates ----------*- C++ -*-===//
#ifndef WEFT_RT_FFN_H
#define WEFT_RT_FFN_H

#include <cstdint>

namespace weft::rt {

/// gate[i] = silu(gate[i]) * up[i] (LLaMA SwiGLU), n values.
void swiglu(float *gate, const float *up, int64_t n);
/// x[i] = gelu(x[i]), tanh approximation (GPT-2 / BLOOM / OPT style).
void gelu(float *x, int64_t n);
/// x[i] = max(x[i], 0).
void relu(float *x, int64_t n);
/// x[i] += y[i] (residual connections).
void addInPlace(float *x, const float *y, int64_t n);

} // namespace weft::rt

#endif
