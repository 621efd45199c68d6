//===- weft_rt_serve.h - What generated serving programs call ---*- C++ -*-===//
//
// `weft build-model` lowers a planned `llm.model` to a C++ program
// (through EmitC) that calls these functions: one SPMD program, rank r runs
// pipeline stage r. The generated code states the plan (stage count,
// micro-batch sizes, per-stage layer ranges and bits), each stage's forward
// function (the parts it runs on a micro-batch) and each stage's schedule:
// the loop over prefill micro-batches and the loop over decode steps and
// their micro-batches, and for each micro-batch where its input comes from
// (tokens, or the previous stage) and where its output goes (the next
// stage, or sampling and back to stage 0). This library does the rest:
// argument parsing, weight loading, the non-blocking MPI behind each step,
// sampling, statistics.
//
// Errors never abort the process: a failing call records the first error
// on the Server and later calls do nothing; startPipeline() and
// endPipeline() agree across ranks that something failed, and finish()
// prints the error and returns 1.
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

/// Starts this stage's pipeline: checks the loaded weights and the prompts,
/// derives the schedule every rank shares (prompts cycled to --batch
/// sequences, micro-batches of the --prefill/--decode-microbatch sizes,
/// --max-new-tokens - 1 decode steps), allocates KV caches and buffers and
/// agrees with the other ranks that all of it worked. After a failure the
/// counts below are 0, so the schedule's loops do nothing.
void startPipeline(Server *server);
/// Micro-batches of prefill (all prompt rows of up to
/// --prefill-microbatch sequences each).
int64_t prefillMicroBatches(Server *server);
/// Decode steps, and micro-batches of each step (one row for each of up to
/// --decode-microbatch sequences).
int64_t decodeSteps(Server *server);
int64_t decodeMicroBatches(Server *server);
/// The i-th prefill micro-batch, and micro-batch j of decode step `step`
/// (0-based): the next one of the schedule, which the generated loops run
/// in order (an error otherwise).
Batch *prefillMicroBatch(Server *server, int64_t i);
Batch *decodeMicroBatch(Server *server, int64_t j, int64_t step);

/// Where a micro-batch comes from: its token ids (stage 0: prompt rows in
/// prefill, then the tokens the last stage sampled in the step before), or
/// the hidden states stage `from` (this stage - 1) sends.
void inputTokens(Server *server, Batch *batch);
void recvHidden(Server *server, Batch *batch, int from);
/// Where it goes: its hidden states to stage `to` (this stage + 1), or
/// (the last stage) sampled tokens, sent to stage `to` (0), which feeds
/// them in the next decode step.
void sendHidden(Server *server, Batch *batch, int to);
void sampleTokens(Server *server, Batch *batch);
void returnTokens(Server *server, Batch *batch, int to);
/// Waits for this stage's messages, times the phases, writes --logits-out
/// and agrees with the other ranks on failures. Returns 0, or 1 when any
/// rank failed.
int endPipeline(Server *server);

/// Prints the generated ids (stage 0, one line per sequence) and --stats,
/// reports a recorded error, MPI_Finalize; returns the exit code.
int finish(Server *server);

} // namespace weft::rt::serve

#endif
