//===- weft_rt_serve.h - What generated serving programs call ---*- C++ -*-===//
//
// `weft build-model` lowers a planned `llm.model` to a C++ `main` (through
// EmitC) that calls these functions: one SPMD program, rank r runs
// pipeline stage r. The generated code states the plan (stage count,
// micro-batch sizes, per-stage layer ranges and bits) and, per stage, the
// sequence of parts its forward function runs; this library does the
// rest: argument parsing, weight loading, the micro-batched pipeline
// schedule with non-blocking MPI between stages, sampling, statistics.
//
// Errors never abort the process: a failing call records the first error
// on the Server and later calls do nothing; run() agrees across ranks
// that something failed, and finish() prints the error and returns 1.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_RT_SERVE_H
#define WEFT_RT_SERVE_H

#include <cstdint>

namespace weft::rt::serve {

struct Server; ///< this rank's stage: arguments, MPI, weights, KV caches
struct Batch;  ///< one micro-batch passing through this stage

/// MPI_Init, then parses the command line:
///   --prompt "ID ID ..."        (required; may repeat: one sequence each)
///   --max-new-tokens K          (default 16)
///   --batch N                   (repeat the prompts cyclically to N sequences)
///   --prefill-microbatch M, --decode-microbatch M  (default: the plan's)
///   --temperature T --seed S    (default greedy)
///   --logits-out FILE           (float32 [prompt length][vocab] of sequence 0)
///   --weights DIR               (default: the `weights` folder next to the
///                                executable)
///   --stats                     (summary on stderr)
/// and checks that the world size is `numStages`. Never returns null.
Server *init(int *argc, char ***argv, const char *model, int numStages,
             int prefillMicrobatch, int decodeMicrobatch);
/// This rank's stage index (its MPI rank).
int stageIndex(Server *server);

/// Declares this stage's layers [firstLayer, endLayer) and opens its weight
/// file (weights/stage<k>.weft); the load calls below must then follow the
/// file's order and match what it holds, or they record an error.
void openStage(Server *server, int firstLayer, int endLayer);
void loadEmbedding(Server *server);
void loadDecoderLayer(Server *server, int layer, int attnBits, int ffnBits);
void loadHead(Server *server, int headBits);
/// The plan's predicted memory for this stage (bytes), printed by --stats
/// next to what the stage allocated.
void setPredictedMemory(Server *server, int64_t bytes);

/// Parts of the forward pass, run on the micro-batch in order.
void embed(Server *server, Batch *batch);
void decoderLayer(Server *server, Batch *batch, int layer);
void finalNorm(Server *server, Batch *batch);
void lmHead(Server *server, Batch *batch);

using StageForward = void (*)(Server *, Batch *);
/// Runs prefill and decode: every micro-batch that reaches this stage goes
/// through `forward`, hidden states move to the next stage with
/// MPI_Isend/MPI_Irecv while the stage computes the next micro-batch, and
/// the last stage samples and returns tokens to stage 0. Returns 0, or 1
/// when any rank failed (after all ranks agree on it).
int run(Server *server, StageForward forward);
/// Prints the generated ids (stage 0, one line per sequence) and --stats,
/// reports a recorded error, MPI_Finalize; returns the exit code.
int finish(Server *server);

} // namespace weft::rt::serve

#endif
