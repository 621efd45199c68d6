//===- weft_rt_serve_cpu.cpp - The CPU backend of a serving stage ---------===//
//
// Weights stay in their stored formats (fp16 embedding rows are widened when
// looked up); KV caches are fp32, one pair per (sequence, layer of the
// stage), each of maxContext positions; one activation buffer and one
// LlamaScratch sized for the largest micro-batch.
//
//===----------------------------------------------------------------------===//
#include "weft_rt_serve_backend.h"

#include "weft_rt_half.h"
#include "weft_rt_llama.h"
#include "weft_rt_norm.h"
#include "weft_rt_opt.h"

#include <cstring>

namespace weft::rt::serve {

namespace {
class CpuBackend : public Backend {
public:
  bool init(StageWeights weights, int maxSeqs, int maxContext, int maxRows,
            std::string *error) override {
    w = std::move(weights);
    const LlamaConfig &c = w.config;
    if (maxSeqs < 1 || maxContext < 1 || maxRows < 1) {
      if (error)
        *error = "cpu backend: empty KV cache or batch size";
      return false;
    }
    context = maxContext;
    numLayers = int(w.layers.size());
    const size_t cache = size_t(maxContext) * c.kvDim();
    keys.assign(size_t(maxSeqs) * numLayers, std::vector<float>(cache));
    values = keys;
    x.assign(size_t(maxRows) * c.dim, 0.0f);
    gathered.assign(size_t(maxRows) * c.dim, 0.0f);
    scratch = std::make_unique<LlamaScratch>(c, maxRows);
    capacityRows = maxRows;
    numSeqs = maxSeqs;
    return true;
  }

  void begin(const SeqRows *s, int n) override {
    spans.assign(s, s + n);
    rows = 0;
    for (const SeqRows &sp : spans)
      rows += sp.rows;
  }

  void embed(const int *tokens) override {
    const int D = w.config.dim;
    for (int t = 0; t < rows; ++t)
      halfToFloatArray(w.embeddingF16.data() + int64_t(tokens[t]) * D,
                       x.data() + int64_t(t) * D, size_t(D));
    if (!w.config.isOpt())
      return;
    // Learned positions: each sequence's rows at its own positions.
    int64_t row = 0;
    for (const SeqRows &sp : spans) {
      optAddPositions(w.config, w.positionEmbeddingF16.data(), sp.pos, sp.rows,
                      x.data() + row * D);
      row += sp.rows;
    }
  }

  void setHidden(const float *h) override {
    std::memcpy(x.data(), h, sizeof(float) * size_t(rows) * w.config.dim);
  }
  void getHidden(float *h) override {
    std::memcpy(h, x.data(), sizeof(float) * size_t(rows) * w.config.dim);
  }

  void decoderLayer(int layer) override {
    const int local = layer - w.spec.firstLayer;
    std::vector<LlamaSeqSpan> seqSpans(spans.size());
    for (size_t i = 0; i < spans.size(); ++i) {
      size_t cache = size_t(spans[i].seq) * numLayers + local;
      seqSpans[i] = {spans[i].rows, spans[i].pos, keys[cache].data(),
                     values[cache].data()};
    }
    llamaDecoderLayerBatched(w.config, w.layers[local], x.data(),
                             seqSpans.data(), int(seqSpans.size()), *scratch);
  }

  void finalNorm() override {
    if (w.config.isOpt())
      return layerNorm(x.data(), w.rmsFinal.data(), w.normFinalBias.data(),
                       x.data(), rows, w.config.dim, w.config.rmsEps);
    rmsNorm(x.data(), w.rmsFinal.data(), x.data(), rows, w.config.dim,
            w.config.rmsEps);
  }

  void lmHead(const int *rowIds, int n, float *logits) override {
    const int D = w.config.dim;
    for (int i = 0; i < n; ++i)
      std::memcpy(gathered.data() + int64_t(i) * D,
                  x.data() + int64_t(rowIds[i]) * D, sizeof(float) * D);
    w.classifier.apply(gathered.data(), logits, n);
  }

  std::string error() const override { return ""; }
  int64_t weightBytes() const override { return w.storageBytes(); }
  int64_t kvCacheBytes() const override {
    int64_t bytes = 0;
    for (const auto &k : keys)
      bytes += int64_t(k.size()) * 4;
    return 2 * bytes;
  }
  int64_t activationBytes() const override {
    const LlamaScratch &s = *scratch;
    int64_t floats = int64_t(x.size() + gathered.size() + s.norm.size() +
                             s.q.size() + s.k.size() + s.v.size() +
                             s.att.size() + s.proj.size() + s.ffn.a.size() +
                             s.ffn.b.size());
    return floats * 4;
  }
  const char *name() const override { return "cpu"; }

private:
  StageWeights w;
  int context = 0, numLayers = 0, capacityRows = 0, numSeqs = 0, rows = 0;
  std::vector<std::vector<float>> keys, values; ///< [seq * numLayers + l]
  std::vector<float> x, gathered;
  std::unique_ptr<LlamaScratch> scratch;
  std::vector<SeqRows> spans;
};
} // namespace

std::unique_ptr<Backend> makeBackend() { return std::make_unique<CpuBackend>(); }

} // namespace weft::rt::serve
