//===- LLMToEmitC.cpp - A planned llm.model as a serving program ----------===//
//
// The serving program is SPMD: rank k runs pipeline stage k. What differs
// between stages (which parts run, which weights load at which bits, how
// much memory the plan gave them) is decided here, at compile time, and
// spelled out as straight-line calls into the serving library; the library
// owns what every stage shares (arguments, MPI, the micro-batch schedule).
//
//===----------------------------------------------------------------------===//
#include "weft/Conversion/Passes.h"

#include "dialects/LLM/IR/LLMOps.h"
#include "weft/LLM/RuntimeKernels.h"

#include "mlir/Dialect/EmitC/IR/EmitC.h"
#include "mlir/IR/Builders.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

namespace weft {
#define GEN_PASS_DEF_CONVERTLLMTOEMITC
#include "weft/Conversion/Passes.h.inc"
} // namespace weft

using namespace mlir;
using namespace weft;

namespace {

/// Builds calls into weft::rt::serve.
class ServeCalls {
public:
  ServeCalls(OpBuilder &b, Location loc) : b(b), loc(loc) {
    MLIRContext *ctx = b.getContext();
    serverPtr = emitc::PointerType::get(
        emitc::OpaqueType::get(ctx, "weft::rt::serve::Server"));
    batchPtr = emitc::PointerType::get(
        emitc::OpaqueType::get(ctx, "weft::rt::serve::Batch"));
  }

  Type serverType() const { return serverPtr; }
  Type batchType() const { return batchPtr; }

  /// `weft::rt::serve::<fn>(operands..., literals...)`; operands come first.
  Value call(StringRef fn, TypeRange results, ValueRange operands,
             ArrayRef<Attribute> literals = {}) {
    SmallVector<Attribute> args;
    for (unsigned i = 0; i < operands.size(); ++i)
      args.push_back(b.getIndexAttr(i));
    llvm::append_range(args, literals);
    auto op = b.create<emitc::CallOpaqueOp>(
        loc, results, ("weft::rt::serve::" + fn).str(), operands,
        b.getArrayAttr(args), ArrayAttr());
    return results.empty() ? Value() : op.getResult(0);
  }

  Attribute i32(int64_t v) { return b.getI32IntegerAttr(v); }
  Attribute i64(int64_t v) { return b.getI64IntegerAttr(v); }
  Attribute literal(StringRef text) {
    return emitc::OpaqueAttr::get(b.getContext(), text);
  }
  void comment(const Twine &text) {
    b.create<emitc::VerbatimOp>(loc, ("// " + text).str());
  }

private:
  OpBuilder &b;
  Location loc;
  Type serverPtr, batchPtr;
};

std::string forwardName(int64_t stage) {
  return llvm::formatv("weft_stage{0}_forward", stage).str();
}

/// `static void weft_stage<k>_forward(Server *, Batch *)`: the stage's
/// parts on one micro-batch.
void buildStageForward(OpBuilder &b, Location loc, int64_t stage,
                       const llm::RuntimeStage &sp) {
  ServeCalls calls(b, loc);
  auto type = b.getFunctionType({calls.serverType(), calls.batchType()}, {});
  auto func = b.create<emitc::FuncOp>(loc, forwardName(stage), type);
  func.setSpecifiersAttr(b.getStrArrayAttr({"static"}));
  Block *body = func.addEntryBlock();
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(body);
  ServeCalls inBody(b, loc);
  Value server = body->getArgument(0), batch = body->getArgument(1);
  using Kind = llm::RuntimeKernel::Kind;
  for (const llm::RuntimeKernel &k : sp.kernels) {
    switch (k.kind) {
    case Kind::Embed:
      inBody.call("embed", {}, {server, batch});
      break;
    case Kind::DecoderLayer:
      inBody.call("decoderLayer", {}, {server, batch}, {inBody.i32(k.layer)});
      break;
    case Kind::FinalNorm:
      inBody.call("finalNorm", {}, {server, batch});
      break;
    case Kind::LMHead:
      inBody.call("lmHead", {}, {server, batch});
      break;
    }
  }
  b.create<emitc::ReturnOp>(loc, Value());
}

std::string stageComment(int64_t stage, const llm::RuntimeStage &sp,
                         llm::StageAttr where) {
  return llvm::formatv("stage {0}: layers [{1}, {2}) on {3} ({4})", stage,
                       sp.firstLayer, sp.endLayer, where.getDevice(),
                       where.getDeviceType());
}

/// Inside `if (stage == k)`: load the stage's weights part by part and run
/// the pipeline.
LogicalResult buildStageMain(ServeCalls &calls, Value server, int64_t stage,
                             const llm::RuntimeStage &sp, int64_t memory) {
  using Kind = llm::RuntimeKernel::Kind;
  calls.call("openStage", {}, server,
             {calls.i32(sp.firstLayer), calls.i32(sp.endLayer)});
  for (const llm::RuntimeKernel &k : sp.kernels) {
    if (k.kind == Kind::Embed) {
      calls.call("loadEmbedding", {}, server);
    } else if (k.kind == Kind::DecoderLayer) {
      calls.call(
          "loadDecoderLayer", {}, server,
          {calls.i32(k.layer), calls.i32(k.attnBits), calls.i32(k.ffnBits)});
    } else if (k.kind == Kind::LMHead) {
      calls.call("loadHead", {}, server, {calls.i32(k.headBits)});
    }
  }
  calls.call("setPredictedMemory", {}, server, {calls.i64(memory)});
  calls.call("run", {}, server, {calls.literal(forwardName(stage))});
  return success();
}

LogicalResult lowerModel(llm::ModelOp model) {
  std::optional<llm::PlanAttr> plan = model.getPlan();
  if (!plan)
    return model.emitOpError() << "has no plan: the model must be planned "
                                  "(llm-plan) before it becomes a serving "
                                  "program";
  FailureOr<SmallVector<llm::RuntimeStage>> stages =
      llm::matchRuntimeStages(model);
  if (failed(stages))
    return failure();
  SmallVector<llm::StageAttr> placement = plan->getStageList();
  if (placement.size() != stages->size())
    return model.emitOpError() << "has a plan of " << placement.size()
                               << " stages but its ops use " << stages->size();

  Location loc = model.getLoc();
  OpBuilder b(model);
  b.create<emitc::IncludeOp>(loc, "weft_rt_serve.h", false);
  for (auto [k, sp] : llvm::enumerate(*stages))
    buildStageForward(b, loc, int64_t(k), sp);

  // int main(int argc, char **argv)
  MLIRContext *ctx = b.getContext();
  Type i32 = b.getI32Type();
  Type argvType = emitc::PointerType::get(
      emitc::PointerType::get(emitc::OpaqueType::get(ctx, "char")));
  auto main = b.create<emitc::FuncOp>(
      loc, "main", b.getFunctionType({i32, argvType}, {i32}));
  Block *body = main.addEntryBlock();
  b.setInsertionPointToStart(body);
  ServeCalls calls(b, loc);
  Value argcRef = b.create<emitc::ApplyOp>(loc, emitc::PointerType::get(i32),
                                           "&", body->getArgument(0));
  Value argvRef = b.create<emitc::ApplyOp>(
      loc, emitc::PointerType::get(argvType), "&", body->getArgument(1));
  calls.comment(llvm::formatv(
      "{0}: {1} pipeline stages, micro-batches of {2} (prefill) and {3} "
      "(decode) sequences",
      model.getSymName(), stages->size(), plan->getPrefillMicrobatch(),
      plan->getDecodeMicrobatch()));
  Value server =
      calls.call("init", calls.serverType(), {argcRef, argvRef},
                 {calls.literal(("\"" + model.getSymName() + "\"").str()),
                  calls.i32(int64_t(stages->size())),
                  calls.i32(plan->getPrefillMicrobatch()),
                  calls.i32(plan->getDecodeMicrobatch())});
  Value stage = calls.call("stageIndex", i32, server);
  for (auto [k, sp] : llvm::enumerate(*stages)) {
    Value index = b.create<emitc::ConstantOp>(loc, i32, calls.i32(k));
    Value here = b.create<emitc::CmpOp>(loc, b.getI1Type(),
                                        emitc::CmpPredicate::eq, stage, index);
    // Outside the `if`: the 19 emitter ends statements inside one with ';'.
    calls.comment(stageComment(int64_t(k), sp, placement[k]));
    auto ifOp = b.create<emitc::IfOp>(loc, here);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(ifOp.getThenRegion().front().getTerminator());
    if (failed(buildStageMain(calls, server, int64_t(k), sp,
                              placement[k].getMemoryBytes())))
      return failure();
  }
  Value rc = calls.call("finish", i32, server);
  b.create<emitc::ReturnOp>(loc, rc);
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
