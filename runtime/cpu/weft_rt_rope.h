//===- weft_rt_rope.h - Rotary position embedding ---------------*- C++ -*-===//
//
// llama2.c convention: within each head, consecutive pairs (2i, 2i+1) are
// rotated by angle pos * theta^(-2i / headSize) (theta = 10000 for LLaMA).
// HuggingFace checkpoints use the "half split" pairing instead; converters
// permute wq/wk so that this kernel applies to both.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_RT_ROPE_H
#define WEFT_RT_ROPE_H

namespace weft::rt {

/// Rotates m rows of `heads * headSize` values in place; row t is at
/// absolute position firstPos + t.
void rope(float *x, int m, int heads, int headSize, int firstPos,
          float theta = 10000.0f);

} // namespace weft::rt

#endif
