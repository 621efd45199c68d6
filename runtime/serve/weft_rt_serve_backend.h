//===- weft_rt_serve_backend.h - Compute of one stage, per target -*- C++ -*-===//
//
// The serving library (weft_rt_serve.cpp) schedules micro-batches and moves
// hidden states between ranks in host memory; a Backend runs the stage's
// parts on its device. The CPU backend is weft_rt_serve_cpu.cpp, the CUDA
// backend runtime/cuda/weft_rt_cuda_serve.cu; a generated program links
// exactly one of them, which defines makeBackend().
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_RT_SERVE_BACKEND_H
#define WEFT_RT_SERVE_BACKEND_H

#include "weft_rt_stage_file.h"

#include <cstdint>
#include <memory>
#include <string>

namespace weft::rt::serve {

/// Sequence `seq` contributes `rows` consecutive rows of a micro-batch, for
/// its tokens at positions pos .. pos+rows-1.
struct SeqRows {
  int seq = 0, pos = 0, rows = 0;
};

class Backend {
public:
  virtual ~Backend() = default;
  /// Takes this stage's weights (copying them to the device if it has
  /// one), and sizes KV caches for maxSeqs sequences of maxContext
  /// positions and activation buffers for maxRows rows.
  virtual bool init(StageWeights weights, int maxSeqs, int maxContext,
                    int maxRows, std::string *error) = 0;
  /// Starts a micro-batch made of these sequences' rows, in this order.
  virtual void begin(const SeqRows *spans, int numSpans) = 0;
  /// Hidden states from token ids (stage 0), tokens[rows].
  virtual void embed(const int *tokens) = 0;
  /// Hidden states from / to host memory, [rows][dim] fp32.
  virtual void setHidden(const float *x) = 0;
  virtual void getHidden(float *x) = 0;
  /// Decoder layer `layer` (global index) in place; appends to the
  /// sequences' KV caches of that layer.
  virtual void decoderLayer(int layer) = 0;
  virtual void finalNorm() = 0;
  /// Logits of the given batch rows into host logits[n][vocab].
  virtual void lmHead(const int *rows, int n, float *logits) = 0;
  /// First asynchronous failure (a CUDA error, say), or an empty string.
  virtual std::string error() const = 0;
  /// Bytes the backend allocated, for --stats against the plan.
  virtual int64_t weightBytes() const = 0;
  virtual int64_t kvCacheBytes() const = 0;
  virtual int64_t activationBytes() const = 0;
  virtual const char *name() const = 0; ///< "cpu" or "cuda"
};

/// Defined by the one backend linked into the program.
std::unique_ptr<Backend> makeBackend();

} // namespace weft::rt::serve

#endif
