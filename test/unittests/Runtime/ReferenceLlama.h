//===- ReferenceLlama.h - Independent fp32 LLaMA forward for tests --------===//
//
// Deliberately simple and separate from runtime/cpu: its own file parsing
// and plain loops, one token at a time, after llama2.c's run.c. The runtime
// is checked against it; it shares no code with the runtime.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_TEST_RUNTIME_REFERENCELLAMA_H
#define WEFT_TEST_RUNTIME_REFERENCELLAMA_H

#include <string>
#include <vector>

namespace weft::rt::test {

class ReferenceLlama {
public:
  /// Loads a llama2.c file; returns false (and sets error) when it cannot.
  bool load(const std::string &path, std::string &error);
  /// Feeds one token at the next position; returns its logits.
  std::vector<float> step(int token);
  void reset() { pos = 0; }
  int vocabSize() const { return vocab; }

private:
  int dim = 0, hidden = 0, layers = 0, heads = 0, kvHeads = 0, vocab = 0;
  int seqLen = 0, pos = 0;
  std::vector<float> emb, rmsAtt, wq, wk, wv, wo, rmsFfn, w1, w2, w3, rmsFinal,
      wcls;
  std::vector<float> keyCache, valueCache; // [layer][pos][kvDim]
};

} // namespace weft::rt::test

#endif
