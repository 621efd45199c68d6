//===- LLMToEmitC.cpp - A scheduled llm.model as a serving program --------===//
//
// The serving program is SPMD: rank k runs pipeline stage k. What differs
// between stages is decided here, at compile time, and spelled out as
// calls into the serving library (runtime/serve/weft_rt_serve.h):
//
// * weft_stage<k>_forward(server, batch): the runtime kernels of stage k's
//   function, in order (RuntimeKernels: embedding, decoder layers, final
//   norm, head);
// * weft_stage<k>_pipeline(server): loads the stage's weights at their
//   stored widths, states its predicted memory, and runs its llm.pipeline:
//   the prefill and decode loops and, per micro-batch, its input, the
//   forward call and its output (ScheduleToEmitC.cpp);
// * main: starts the library with the plan's stage count and micro-batch
//   sizes and runs the pipeline of the rank's stage.
//
//===----------------------------------------------------------------------===//
#include "ServeCalls.h"

#include "dialects/LLM/IR/LLMOps.h"
#include "weft/Conversion/Passes.h"
#include "weft/LLM/RuntimeKernels.h"
#include "weft/Support/SourceNames.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/EmitC/IR/EmitC.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

namespace weft {
#define GEN_PASS_DEF_CONVERTLLMTOEMITC
#include "weft/Conversion/Passes.h.inc"
} // namespace weft

using namespace mlir;
using namespace weft;
using llm::RuntimeKernel;
using llm::RuntimeStage;
using llm::ServeCalls;

namespace {

std::string pipelineName(int64_t stage) {
  return llvm::formatv("weft_stage{0}_pipeline", stage).str();
}

/// Names the arguments of `body` in the printed program.
void nameArguments(Block *body, Location loc, ArrayRef<StringRef> names) {
  for (auto [arg, name] : llvm::zip_first(body->getArguments(), names))
    arg.setLoc(withSourceName(loc, name));
}

/// `static void <name>(Server *[, Batch *])`, with its entry block.
emitc::FuncOp buildFunction(OpBuilder &b, Location loc, StringRef name,
                            bool takesBatch) {
  MLIRContext *ctx = b.getContext();
  SmallVector<Type> args = {llm::serverPointerType(ctx)};
  if (takesBatch)
    args.push_back(llm::batchPointerType(ctx));
  auto func = b.create<emitc::FuncOp>(loc, name, b.getFunctionType(args, {}));
  func.setSpecifiersAttr(b.getStrArrayAttr({"static"}));
  Block *body = func.addEntryBlock();
  nameArguments(body, loc, {"server", "batch"});
  return func;
}

/// `weft_stage<k>_forward`: the stage's kernels on one micro-batch.
void buildStageForward(OpBuilder &b, Location loc, int64_t k,
                       const RuntimeStage &stage) {
  emitc::FuncOp func =
      buildFunction(b, loc, llm::stageForwardName(k), /*takesBatch=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&func.getBody().front());
  ServeCalls calls(b, loc);
  Value server = func.getArgument(0), batch = func.getArgument(1);
  for (const RuntimeKernel &kernel : stage.kernels) {
    switch (kernel.kind) {
    case RuntimeKernel::Kind::Embed:
      calls.call("embed", {}, {server, batch});
      break;
    case RuntimeKernel::Kind::DecoderLayer:
      calls.call("decoderLayer", {}, {server, batch},
                 {calls.i32(kernel.layer)});
      break;
    case RuntimeKernel::Kind::FinalNorm:
      calls.call("finalNorm", {}, {server, batch});
      break;
    case RuntimeKernel::Kind::LMHead:
      calls.call("lmHead", {}, {server, batch});
      break;
    }
  }
  b.create<emitc::ReturnOp>(loc, Value());
}

/// The weights of a stage, part by part at their stored widths (checked by
/// the library against the stage's file), and its predicted memory.
void buildLoads(ServeCalls &calls, Value server, const RuntimeStage &stage,
                int64_t memory) {
  calls.call("openStage", {}, server,
             {calls.i32(stage.firstLayer), calls.i32(stage.endLayer)});
  for (const RuntimeKernel &k : stage.kernels) {
    if (k.kind == RuntimeKernel::Kind::Embed)
      calls.call("loadEmbedding", {}, server);
    else if (k.kind == RuntimeKernel::Kind::DecoderLayer)
      calls.call(
          "loadDecoderLayer", {}, server,
          {calls.i32(k.layer), calls.i32(k.attnBits), calls.i32(k.ffnBits)});
    else if (k.kind == RuntimeKernel::Kind::LMHead)
      calls.call("loadHead", {}, server, {calls.i32(k.headBits)});
  }
  calls.call("setPredictedMemory", {}, server, {calls.i64(memory)});
}

/// `weft_stage<k>_pipeline`: loads, then the stage's schedule.
LogicalResult buildStagePipeline(OpBuilder &b, Location loc, int64_t k,
                                 const RuntimeStage &stage,
                                 llm::PipelineOp pipeline, int64_t memory,
                                 llm::ModelOp model) {
  emitc::FuncOp func =
      buildFunction(b, loc, pipelineName(k), /*takesBatch=*/false);
  Block &body = func.getBody().front();
  Value server = func.getArgument(0);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&body);
  ServeCalls calls(b, loc);
  buildLoads(calls, server, stage, memory);
  calls.call("startPipeline", {}, server);
  body.getOperations().splice(body.end(),
                              pipeline.getBodyBlock().getOperations());
  b.setInsertionPointToEnd(&body);
  calls.call("endPipeline", {}, server);
  b.create<emitc::ReturnOp>(loc, Value());

  TypeConverter converter;
  llm::addScheduleTypeConversions(converter);
  RewritePatternSet patterns(b.getContext());
  llm::populateScheduleToEmitCPatterns(converter, patterns, model);
  ConversionTarget target(*b.getContext());
  target.addLegalDialect<emitc::EmitCDialect>();
  target.addIllegalDialect<llm::LLMDialect, scf::SCFDialect,
                           arith::ArithDialect>();
  target.addIllegalOp<func::CallOp>();
  return applyPartialConversion(func, target, std::move(patterns));
}

/// `int main(int argc, char **argv)`: the library, then the rank's stage.
void buildMain(OpBuilder &b, Location loc, llm::ModelOp model,
               llm::PlanAttr plan, ArrayRef<RuntimeStage> stages) {
  MLIRContext *ctx = b.getContext();
  Type i32 = b.getI32Type();
  Type argvType = emitc::PointerType::get(
      emitc::PointerType::get(emitc::OpaqueType::get(ctx, "char")));
  auto main = b.create<emitc::FuncOp>(
      loc, "main", b.getFunctionType({i32, argvType}, {i32}));
  Block *body = main.addEntryBlock();
  nameArguments(body, loc, {"argc", "argv"});
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(body);
  ServeCalls calls(b, loc);
  Value argcRef = b.create<emitc::ApplyOp>(loc, emitc::PointerType::get(i32),
                                           "&", body->getArgument(0));
  Value argvRef = b.create<emitc::ApplyOp>(
      loc, emitc::PointerType::get(argvType), "&", body->getArgument(1));
  calls.comment(llvm::formatv(
      "{0}: {1} pipeline stages, micro-batches of {2} (prefill) and {3} "
      "(decode) sequences",
      model.getSymName(), stages.size(), plan.getPrefillMicrobatch(),
      plan.getDecodeMicrobatch()));
  Value server =
      calls.call("init", llm::serverPointerType(ctx), {argcRef, argvRef},
                 {calls.literal(("\"" + model.getSymName() + "\"").str()),
                  calls.i32(int64_t(stages.size())),
                  calls.i32(plan.getPrefillMicrobatch()),
                  calls.i32(plan.getDecodeMicrobatch())});
  server.getDefiningOp()->setLoc(withSourceName(loc, "server"));
  Value stage = calls.call("stageIndex", i32, server);
  stage.getDefiningOp()->setLoc(withSourceName(loc, "stage"));
  SmallVector<llm::StageAttr> placement = plan.getStageList();
  for (auto [k, rs] : llvm::enumerate(stages)) {
    Value index = b.create<emitc::ConstantOp>(loc, i32, calls.i32(k));
    Value here = b.create<emitc::CmpOp>(loc, b.getI1Type(),
                                        emitc::CmpPredicate::eq, stage, index);
    // Outside the `if`: the 19 emitter ends statements inside one with ';'.
    calls.comment(llvm::formatv(
        "stage {0}: layers [{1}, {2}) on {3} ({4})", k, rs.firstLayer,
        rs.endLayer, placement[k].getDevice(), placement[k].getDeviceType()));
    auto ifOp = b.create<emitc::IfOp>(loc, here);
    OpBuilder::InsertionGuard inIf(b);
    b.setInsertionPoint(ifOp.getThenRegion().front().getTerminator());
    calls.call(pipelineName(int64_t(k)), {}, server, {}, /*qualify=*/false);
  }
  Value rc = calls.call("finish", i32, server);
  b.create<emitc::ReturnOp>(loc, rc);
}

LogicalResult lowerModel(llm::ModelOp model) {
  std::optional<llm::PlanAttr> plan = model.getPlan();
  if (!plan)
    return model.emitOpError() << "has no plan: the model must be planned "
                                  "(llm-plan) before it becomes a serving "
                                  "program";
  FailureOr<SmallVector<RuntimeStage>> stages = llm::matchRuntimeStages(model);
  if (failed(stages))
    return failure();
  if (plan->getNumStages() != int64_t(stages->size()))
    return model.emitOpError() << "has a plan of " << plan->getNumStages()
                               << " stages but its ops use " << stages->size();
  SmallVector<llm::PipelineOp> pipelines(stages->size());
  for (auto p : model.getBodyBlock().getOps<llm::PipelineOp>())
    pipelines[p.getStageAttr().getInt()] = p;
  for (auto [k, p] : llvm::enumerate(pipelines))
    if (!p)
      return model.emitOpError()
             << "has no llm.pipeline for stage " << k
             << ": its schedule must be written (llm-schedule) first";

  Location loc = model.getLoc();
  OpBuilder b(model);
  b.create<emitc::VerbatimOp>(
      loc, "// Generated by `weft build-model`: the serving program of one "
           "plan.\n// Rank k runs pipeline stage k; see docs/serving.md.");
  b.create<emitc::IncludeOp>(loc, "weft_rt_serve.h", false);
  for (auto [k, stage] : llvm::enumerate(*stages))
    buildStageForward(b, loc, int64_t(k), stage);
  SmallVector<llm::StageAttr> placement = plan->getStageList();
  for (auto [k, stage] : llvm::enumerate(*stages))
    if (failed(buildStagePipeline(b, loc, int64_t(k), stage, pipelines[k],
                                  placement[k].getMemoryBytes(), model)))
      return failure();
  buildMain(b, loc, model, *plan, *stages);
  model.erase();
  return success();
}

struct ConvertLLMToEmitCPass
    : public weft::impl::ConvertLLMToEmitCBase<ConvertLLMToEmitCPass> {
  void runOnOperation() override {
    SmallVector<llm::ModelOp> models(getOperation().getOps<llm::ModelOp>());
    if (models.size() > 1) {
      models[1].emitOpError()
          << "is a second model: a serving program runs exactly one";
      return signalPassFailure();
    }
    if (models.empty()) {
      getOperation().emitError("no llm.model to lower");
      return signalPassFailure();
    }
    if (failed(lowerModel(models.front())))
      signalPassFailure();
  }
};

} // namespace
