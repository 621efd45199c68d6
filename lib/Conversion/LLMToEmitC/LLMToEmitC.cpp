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

/// The parts of one pipeline stage, in execution order.
struct StageParts {
  SmallVector<Operation *> parts;
  int64_t firstLayer = -1, endLayer = -1;
  std::string device, deviceType;
};

/// Groups the model's parts by their `stage` attribute; stages must be
/// 0, 1, ..., S-1 with no gap (the model verifier already ensures the
/// order).
FailureOr<SmallVector<StageParts>> collectStages(llm::ModelOp model) {
  SmallVector<StageParts> stages;
  for (Operation &op : model.getBody().front()) {
    auto stage = op.getAttrOfType<IntegerAttr>("stage");
    if (!stage)
      return op.emitOpError()
             << "has no stage: the model must be planned (weft plan) before "
                "it becomes a serving program";
    int64_t s = stage.getInt();
    // The same stage as the previous part, or the next one.
    int64_t last = int64_t(stages.size()) - 1;
    if (s != last && s != last + 1)
      return op.emitOpError() << "is on stage " << s << " but the previous "
                              << "part is on stage " << last
                              << ": stages must be numbered 0, 1, ... in order";
    if (s == last + 1)
      stages.emplace_back();
    StageParts &sp = stages.back();
    sp.parts.push_back(&op);
    if (auto device = op.getAttrOfType<StringAttr>("device"))
      sp.device = device.str();
    if (auto type = op.getAttrOfType<StringAttr>("device_type"))
      sp.deviceType = type.str();
    if (auto layer = dyn_cast<llm::DecoderLayerOp>(op)) {
      int64_t index = layer.getIndexAttr().getInt();
      if (sp.firstLayer < 0)
        sp.firstLayer = index;
      sp.endLayer = index + 1;
    }
  }
  for (StageParts &sp : stages)
    if (sp.firstLayer < 0) { // a stage of only embedding or head parts
      int64_t next = 0;
      for (StageParts &other : stages)
        if (&other == &sp)
          break;
        else if (other.endLayer >= 0)
          next = other.endLayer;
      sp.firstLayer = sp.endLayer = next;
    }
  return stages;
}

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
                       const StageParts &sp) {
  ServeCalls calls(b, loc);
  auto type = b.getFunctionType({calls.serverType(), calls.batchType()}, {});
  auto func = b.create<emitc::FuncOp>(loc, forwardName(stage), type);
  func.setSpecifiersAttr(b.getStrArrayAttr({"static"}));
  Block *body = func.addEntryBlock();
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(body);
  ServeCalls inBody(b, loc);
  Value server = body->getArgument(0), batch = body->getArgument(1);
  for (Operation *part : sp.parts) {
    if (isa<llm::EmbeddingOp>(part))
      inBody.call("embed", {}, {server, batch});
    else if (auto layer = dyn_cast<llm::DecoderLayerOp>(part))
      inBody.call("decoderLayer", {}, {server, batch},
                  {inBody.i32(layer.getIndexAttr().getInt())});
    else if (isa<llm::FinalNormOp>(part))
      inBody.call("finalNorm", {}, {server, batch});
    else if (isa<llm::LMHeadOp>(part))
      inBody.call("lmHead", {}, {server, batch});
  }
  b.create<emitc::ReturnOp>(loc, Value());
}

std::string stageComment(int64_t stage, const StageParts &sp) {
  std::string where;
  if (!sp.device.empty())
    where = " on " + sp.device + " (" + sp.deviceType + ")";
  return llvm::formatv("stage {0}: layers [{1}, {2}){3}", stage, sp.firstLayer,
                       sp.endLayer, where);
}

/// Inside `if (stage == k)`: load the stage's weights part by part and run
/// the pipeline.
void buildStageMain(ServeCalls &calls, Value server, int64_t stage,
                    const StageParts &sp, std::optional<int64_t> memory) {
  calls.call("openStage", {}, server,
             {calls.i32(sp.firstLayer), calls.i32(sp.endLayer)});
  for (Operation *part : sp.parts) {
    if (isa<llm::EmbeddingOp>(part))
      calls.call("loadEmbedding", {}, server);
    else if (auto layer = dyn_cast<llm::DecoderLayerOp>(part))
      calls.call("loadDecoderLayer", {}, server,
                 {calls.i32(layer.getIndexAttr().getInt()),
                  calls.i32(layer.getAttnBits()),
                  calls.i32(layer.getFfnBits())});
    else if (isa<llm::LMHeadOp>(part))
      calls.call("loadHead", {}, server, {calls.i32(16)});
  }
  if (memory)
    calls.call("setPredictedMemory", {}, server, {calls.i64(*memory)});
  calls.call("run", {}, server, {calls.literal(forwardName(stage))});
}

LogicalResult lowerModel(llm::ModelOp model) {
  if (!model.getPrefillMicrobatch() || !model.getDecodeMicrobatch())
    return model.emitOpError()
           << "has no micro-batch sizes: the model must be planned";
  FailureOr<SmallVector<StageParts>> stages = collectStages(model);
  if (failed(stages))
    return failure();
  std::optional<ArrayRef<int64_t>> memory = model.getStageMemory();
  if (memory && memory->size() != stages->size())
    return model.emitOpError() << "has stage_memory for " << memory->size()
                               << " stages but " << stages->size() << " stages";

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
      model.getSymName(), stages->size(), *model.getPrefillMicrobatch(),
      *model.getDecodeMicrobatch()));
  Value server =
      calls.call("init", calls.serverType(), {argcRef, argvRef},
                 {calls.literal(("\"" + model.getSymName() + "\"").str()),
                  calls.i32(int64_t(stages->size())),
                  calls.i32(int64_t(*model.getPrefillMicrobatch())),
                  calls.i32(int64_t(*model.getDecodeMicrobatch()))});
  Value stage = calls.call("stageIndex", i32, server);
  for (auto [k, sp] : llvm::enumerate(*stages)) {
    Value index = b.create<emitc::ConstantOp>(loc, i32, calls.i32(k));
    Value here = b.create<emitc::CmpOp>(loc, b.getI1Type(),
                                        emitc::CmpPredicate::eq, stage, index);
    // Outside the `if`: the 19 emitter ends statements inside one with ';'.
    calls.comment(stageComment(int64_t(k), sp));
    auto ifOp = b.create<emitc::IfOp>(loc, here);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(ifOp.getThenRegion().front().getTerminator());
    buildStageMain(calls, server, int64_t(k), sp,
                   memory ? std::optional<int64_t>((*memory)[k])
                          : std::nullopt);
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
