//===- weft_rt_ffn_block.h - Whole feed-forward blocks -----------*- C++
//-*-===//
//
// The two FFN shapes of decoder LLMs, over weights in any format (Linear):
// gated (LLaMA/Mistral SwiGLU: down(silu(gate x) * up x)) and plain with
// biases (OPT ReLU, BLOOM/GPT GELU: fc2(act(fc1 x + b1)) + b2).
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_RT_FFN_BLOCK_H
#define WEFT_RT_FFN_BLOCK_H

#include "weft_rt_linear.h"

namespace weft::rt {

enum class Activation { SiLU, GELU, ReLU };

/// Hidden-size buffers for up to maxRows tokens.
struct FfnScratch {
  std::vector<float> a, b;
  FfnScratch(int hidden, int maxRows)
      : a(size_t(hidden) * maxRows), b(size_t(hidden) * maxRows) {}
};

/// out[m][dim] = down(silu(gate x) * up x); gate/up are [hidden][dim],
/// down [dim][hidden].
void ffnGated(const Linear &gate, const Linear &up, const Linear &down,
              const float *x, float *out, int m, FfnScratch &scratch);

/// out[m][dim] = fc2(act(fc1 x + b1)) + b2; biases may be null; act is GELU
/// or ReLU (SiLU also works).
void ffnPlain(const Linear &fc1, const float *b1, const Linear &fc2,
              const float *b2, Activation act, const float *x, float *out,
              int m, FfnScratch &scratch);

/// y[t][j] += bias[j] for m rows of n values.
void addBias(float *y, const float *bias, int m, int n);

} // namespace weft::rt

#endif
