//===- serve_harness.cpp - A hand-written `weft build-model` main ---------===//
//
// What the generated serve.cpp does for the plan in serve_plan.h with
// WEFT_TEST_STAGES stages (the generated code unrolls the loops below).
//
//===----------------------------------------------------------------------===//
#include "serve_plan.h"
#include "weft_rt_serve.h"

namespace serve = weft::rt::serve;

static int first, end, stages = WEFT_TEST_STAGES, stage;

static void forward(serve::Server *s, serve::Batch *b) {
  if (stage == 0)
    serve::embed(s, b);
  for (int l = first; l < end; ++l)
    serve::decoderLayer(s, b, l);
  if (stage == stages - 1) {
    serve::finalNorm(s, b);
    serve::lmHead(s, b);
  }
}

/// One micro-batch through this stage: its input, the forward function,
/// its output (the generated code states each stage's role instead).
static void step(serve::Server *s, serve::Batch *b) {
  if (stage == 0)
    serve::inputTokens(s, b);
  else
    serve::recvHidden(s, b, stage - 1);
  forward(s, b);
  if (stage + 1 < stages) {
    serve::sendHidden(s, b, stage + 1);
  } else {
    serve::sampleTokens(s, b);
    serve::returnTokens(s, b, 0);
  }
}

/// The schedule: prefill micro-batches, then decode steps.
static int runSchedule(serve::Server *s) {
  serve::startPipeline(s);
  for (int64_t i = 0; i < serve::prefillMicroBatches(s); ++i)
    step(s, serve::prefillMicroBatch(s, i));
  for (int64_t t = 0; t < serve::decodeSteps(s); ++t)
    for (int64_t j = 0; j < serve::decodeMicroBatches(s); ++j)
      step(s, serve::decodeMicroBatch(s, j, t));
  return serve::endPipeline(s);
}

int main(int argc, char **argv) {
  serve::Server *s =
      serve::init(&argc, &argv, WEFT_TEST_MODEL, stages, /*prefill mb*/ 2,
                  /*decode mb*/ 2);
  stage = serve::stageIndex(s);
  int rc = 1;
  if (stage >= 0 && stage < stages) {
    first = kPlanSplit[stages - 1][stage];
    end = kPlanSplit[stages - 1][stage + 1];
    serve::openStage(s, first, end);
    if (stage == 0)
      serve::loadEmbedding(s);
    for (int l = first; l < end; ++l)
      serve::loadDecoderLayer(s, l, kPlanBits[l], kPlanBits[l]);
    if (stage == stages - 1)
      serve::loadHead(s, kPlanHeadBits);
    serve::setPredictedMemory(s, 1000000 + stage);
    rc = runSchedule(s);
  }
  (void)rc;
  return serve::finish(s);
}
