//===- ReferenceOpt.h - Independent fp32 OPT forward for tests --*- C++ -*-===//
//
// HuggingFace OPTForCausalLM (pre-LayerNorm) one token at a time, in plain
// loops, reading the F32 HuggingFace directories the tests write with its
// own minimal config.json and safetensors parsing. Like ReferenceLlama it
// shares no code with runtime/cpu: the runtime is checked against it.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_TEST_RUNTIME_REFERENCEOPT_H
#define WEFT_TEST_RUNTIME_REFERENCEOPT_H

#include <string>
#include <vector>

namespace weft::rt::test {

class ReferenceOpt {
public:
  /// Loads config.json and the F32 *.safetensors shards of `dir`.
  bool load(const std::string &dir, std::string &error);
  /// Feeds one token at the next position; returns its logits.
  std::vector<float> step(int token);
  void reset() { pos = 0; }
  int vocabSize() const { return vocab; }

private:
  struct Layer {
    std::vector<float> ln1w, ln1b, wq, bq, wk, bk, wv, bv, wo, bo, ln2w, ln2b,
        w1, b1, w2, b2;
  };
  int dim = 0, ffn = 0, layers = 0, heads = 0, vocab = 0, maxPos = 0, pos = 0;
  bool gelu = false;
  std::vector<float> emb, posEmb, lnfw, lnfb, lmHead;
  std::vector<Layer> layer;
  std::vector<float> keyCache, valueCache; // [layer][pos][dim]
};

} // namespace weft::rt::test

#endif
