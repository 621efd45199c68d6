//===- weft_rt_serve_state.h - State of a serving rank (private) -*- C++
//-*-===//
//
// What the serving library keeps for this rank's stage: the command line,
// the weights the generated code declared, the backend, and the running
// pipeline (schedule, message buffers, requests). Shared by
// weft_rt_serve.cpp (set-up, weights, parts, results) and
// weft_rt_serve_pipeline.cpp (the schedule's helpers); not for generated
// code, which sees only weft_rt_serve.h.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_RT_SERVE_STATE_H
#define WEFT_RT_SERVE_STATE_H

#include "weft_rt_sample.h"
#include "weft_rt_serve.h"
#include "weft_rt_serve_args.h"
#include "weft_rt_serve_backend.h"

// The C API only: OpenMPI's C++ bindings warn under -Wextra.
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

namespace weft::rt::serve {

constexpr int kHiddenTag = 101, kTokenTag = 102, kErrorTag = 103;

/// One micro-batch of the schedule.
struct MicroBatch {
  bool prefill = false;
  int step = 0; ///< decode: feeds the step-th generated token (1-based)
  std::vector<int> seqs;
  int rows = 0;
};

struct Batch {
  int index = -1; ///< position in the schedule
  std::vector<SeqRows> spans;
  int rows = 0;
  bool prefill = false;
  const int *tokens = nullptr; ///< stage 0: the rows' token ids
  std::vector<int> headRows;   ///< rows whose logits lmHead computes
  float *logits = nullptr;     ///< [headRows][vocab]
  bool embedded = false, headDone = false;
};

/// The pipeline while it runs: every rank derives the same schedule, so
/// messages need no headers; stage k receives micro-batch i's hidden
/// states from k-1 with tag kHiddenTag, and stage 0 the tokens sampled for
/// micro-batch i from the last stage with tag kTokenTag, both in schedule
/// order (MPI keeps order per sender and tag).
struct Pipeline {
  bool running = false; ///< started, and every rank agreed it may
  std::vector<MicroBatch> schedule;
  int numPrefill = 0, numDecode = 0, steps = 0; ///< per phase / step
  int maxRows = 1, next = 0;                    ///< next schedule index
  Batch batch;                                  ///< the current one
  std::vector<float> sendBuf[2], recvBuf[2];
  MPI_Request sendReq[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  MPI_Request recvReq[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  /// Tokens of every micro-batch travel last stage -> stage 0.
  std::vector<std::vector<int>> tokenMsg;
  std::vector<MPI_Request> tokenReq, tokenSendReq;
  bool remoteTokens = false, wantLogits = false;
  int tokensApplied = 0; ///< stage 0: token messages applied, in order
  std::vector<float> logits, promptLogits, sampleScratch;
  std::vector<int> tokens;
  Rng rng{0};
  std::chrono::steady_clock::time_point start, prefillEnd;
  bool prefillDone = false;
};

/// The command line (ServeArgs) and the state of this rank's stage.
struct Server : ServeArgs {
  int rank = 0, size = 1, numStages = 1;
  std::string model;
  // First error; `global` when every rank records the same one.
  std::string error;
  bool global = false;
  // This stage's weights, as the generated code declares them.
  std::string path;
  StageWeights weights;
  LlamaConfig config; ///< the model's, kept when weights move to the backend
  bool opened = false, embeddingLoaded = false, headLoaded = false;
  int firstLayer = 0, endLayer = 0, loadedLayers = 0;
  int64_t predicted = -1;
  std::unique_ptr<Backend> backend;
  Pipeline pipeline;
  // Results.
  std::vector<std::vector<int>> generated; ///< stage 0 (and the last stage)
  int numSeqs = 0;
  double prefillSeconds = 0, decodeSeconds = 0;
  int64_t decodeTokens = 0, libraryBytes = 0;
  bool ran = false;

  bool first() const { return rank == 0; }
  bool last() const { return rank == numStages - 1; }
  const std::vector<int> &promptOf(int seq) const {
    return prompts[size_t(seq) % prompts.size()];
  }
};

/// Records the first error; `global` when every rank records the same one.
void fail(Server *s, const std::string &what, bool global = false);
inline bool usable(Server *s) { return s && s->error.empty(); }

} // namespace weft::rt::serve

#endif
