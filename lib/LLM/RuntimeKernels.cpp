//===- RuntimeKernels.cpp - A model's stages as the runtime runs them -----===//
#include "weft/LLM/RuntimeKernels.h"
#include "weft/LLM/ModelIR.h"

using namespace mlir;

namespace weft::llm {
namespace {

bool isNorm(Operation *op) {
  return isa_and_nonnull<RMSNormOp, LayerNormOp>(op);
}

/// `add` sums `residual` and `branch`, in either order.
bool isResidual(Operation *add, Value residual, Value branch) {
  auto a = dyn_cast_or_null<AddOp>(add);
  return a && ((a.getLhs() == residual && a.getRhs() == branch) ||
               (a.getLhs() == branch && a.getRhs() == residual));
}

WeightOp weightNamed(Operation *op, StringRef role) {
  auto ref = op->getAttrOfType<FlatSymbolRefAttr>(role);
  return ref ? SymbolTable::lookupNearestSymbolFrom<WeightOp>(op, ref.getAttr())
             : WeightOp();
}

/// The one width the runtime stores the matrices `roles` of `op` at.
FailureOr<int64_t> partBits(Operation *op, ArrayRef<StringRef> roles,
                            StringRef part) {
  std::optional<std::pair<StringRef, int64_t>> first;
  for (StringRef role : roles) {
    WeightOp w = weightNamed(op, role);
    if (!w)
      continue;
    int64_t bits = w.getBits();
    Type element = w.getTensorType().getElementType();
    if (element.isBF16())
      return op->emitOpError()
             << role
             << " is stored as bf16, which the serving runtimes do "
                "not hold (run llm-quantize)";
    if (!first)
      first = {role, bits};
    else if (bits != first->second)
      return op->emitOpError()
             << role << " is stored at " << bits << " bits but " << first->first
             << " at " << first->second << ": the serving "
             << "runtimes store a layer's " << part << " weights at one width";
  }
  if (!first)
    return op->emitOpError() << "names no " << part << " weight";
  return first->second;
}

/// Matches the six ops of one decoder layer at ops[i]: x -> norm ->
/// attention -> add(x, .) -> norm -> ffn -> add(r, .).
std::optional<RuntimeKernel> matchLayer(ArrayRef<Operation *> ops, size_t i) {
  if (i + 6 > ops.size())
    return std::nullopt;
  Operation *norm1 = ops[i], *add1 = ops[i + 2], *norm2 = ops[i + 3],
            *add2 = ops[i + 5];
  auto attn = dyn_cast<AttentionOp>(ops[i + 1]);
  auto ffn = dyn_cast<FFNOp>(ops[i + 4]);
  if (!isNorm(norm1) || !attn || !isNorm(norm2) || !ffn ||
      norm1->getName() != norm2->getName())
    return std::nullopt;
  Value x = norm1->getOperand(0);
  if (attn.getInput() != norm1->getResult(0) ||
      !isResidual(add1, x, attn.getResult()) ||
      norm2->getOperand(0) != add1->getResult(0) ||
      ffn.getInput() != norm2->getResult(0) ||
      !isResidual(add2, add1->getResult(0), ffn.getResult()) ||
      attn.getLayer() != ffn.getLayer())
    return std::nullopt;
  RuntimeKernel k{RuntimeKernel::Kind::DecoderLayer, attn};
  k.layer = attn.getLayerAttr().getInt();
  return k;
}

FailureOr<SmallVector<RuntimeKernel>> matchKernels(ArrayRef<Operation *> ops) {
  SmallVector<RuntimeKernel> kernels;
  for (size_t i = 0; i < ops.size();) {
    Operation *op = ops[i];
    if (isa<EmbedOp>(op)) {
      kernels.push_back({RuntimeKernel::Kind::Embed, op});
      ++i;
    } else if (std::optional<RuntimeKernel> layer = matchLayer(ops, i)) {
      FailureOr<int64_t> attn =
          partBits(ops[i + 1], {"q", "k", "v", "qkv", "o"}, "attention");
      FailureOr<int64_t> ffn =
          partBits(ops[i + 4], {"gate", "up", "down"}, "FFN");
      if (failed(attn) || failed(ffn))
        return failure();
      layer->attnBits = *attn;
      layer->ffnBits = *ffn;
      kernels.push_back(*layer);
      i += 6;
    } else if (isNorm(op) && i + 1 < ops.size() && isa<LMHeadOp>(ops[i + 1]) &&
               ops[i + 1]->getOperand(0) == op->getResult(0)) {
      kernels.push_back({RuntimeKernel::Kind::FinalNorm, op});
      ++i;
    } else if (isa<LMHeadOp>(op)) {
      FailureOr<int64_t> bits = partBits(op, {"weight"}, "head");
      if (failed(bits))
        return failure();
      RuntimeKernel k{RuntimeKernel::Kind::LMHead, op};
      k.headBits = *bits;
      kernels.push_back(k);
      ++i;
    } else {
      return op->emitOpError()
             << "has no serving-runtime kernel here: a stage runs the "
                "embedding, whole decoder layers (norm, attention, residual "
                "add, norm, FFN, residual add), the final norm and the head, "
                "in that order";
    }
  }
  return kernels;
}

} // namespace

FailureOr<SmallVector<SmallVector<Operation *>>>
collectStageOps(ModelOp model) {
  SmallVector<SmallVector<Operation *>> stages;
  auto add = [&](Operation *op, int64_t stage) -> LogicalResult {
    // The same stage as the previous op, or the next one.
    int64_t last = int64_t(stages.size()) - 1;
    if (stage != last && stage != last + 1)
      return op->emitOpError()
             << "is on stage " << stage << " but the previous op is on stage "
             << last << ": stages must be numbered 0, 1, ... in order";
    if (stage == last + 1)
      stages.emplace_back();
    stages.back().push_back(op);
    return success();
  };
  SmallVector<func::FuncOp> stageFunctions;
  for (auto f : model.getBodyBlock().getOps<func::FuncOp>())
    if (getStage(f))
      stageFunctions.push_back(f);
  if (!stageFunctions.empty()) {
    llvm::sort(stageFunctions, [](func::FuncOp a, func::FuncOp b) {
      return *getStage(a) < *getStage(b);
    });
    for (func::FuncOp f : stageFunctions)
      for (Operation &op : f.getBody().front().without_terminator())
        if (failed(add(&op, *getStage(f))))
          return failure();
    return stages;
  }
  func::FuncOp forward = model.getFunction(kForwardFunction);
  if (!forward)
    return model.emitOpError()
           << "has neither stage functions nor @" << kForwardFunction;
  for (Operation &op : forward.getBody().front().without_terminator()) {
    std::optional<int64_t> s = getStage(&op);
    if (!s)
      return op.emitOpError()
             << "has no stage: the model must be planned (llm-plan) before "
                "it becomes a serving program";
    if (failed(add(&op, *s)))
      return failure();
  }
  return stages;
}

FailureOr<SmallVector<RuntimeStage>> matchRuntimeStages(ModelOp model) {
  FailureOr<SmallVector<SmallVector<Operation *>>> ops = collectStageOps(model);
  if (failed(ops))
    return failure();
  SmallVector<RuntimeStage> stages;
  int64_t next = 0; // first layer of a stage without layers
  for (ArrayRef<Operation *> stageOps : *ops) {
    FailureOr<SmallVector<RuntimeKernel>> kernels = matchKernels(stageOps);
    if (failed(kernels))
      return failure();
    RuntimeStage rs;
    rs.kernels = std::move(*kernels);
    rs.firstLayer = rs.endLayer = next;
    bool sawLayer = false;
    for (const RuntimeKernel &k : rs.kernels)
      if (k.kind == RuntimeKernel::Kind::DecoderLayer) {
        if (!sawLayer)
          rs.firstLayer = k.layer;
        if (k.layer != (sawLayer ? rs.endLayer : rs.firstLayer))
          return k.op->emitOpError()
                 << "is layer " << k.layer << " after layer " << rs.endLayer - 1
                 << ": a stage runs a contiguous range of layers";
        sawLayer = true;
        rs.endLayer = k.layer + 1;
      }
    next = rs.endLayer;
    stages.push_back(std::move(rs));
  }
  return stages;
}

FailureOr<std::vector<StageStorage>> stageStorage(ModelOp model) {
  FailureOr<SmallVector<RuntimeStage>> stages = matchRuntimeStages(model);
  if (failed(stages))
    return failure();
  std::optional<int64_t> groupSize;
  for (WeightOp w : model.getWeights())
    if (GroupQuantAttr q = w.getGroupQuant()) {
      if (groupSize && *groupSize != q.getGroupSize())
        return w.emitOpError()
               << "has groups of " << q.getGroupSize() << " inputs, other "
               << "weights of " << *groupSize
               << ": a stage file holds one group size";
      groupSize = q.getGroupSize();
    }
  std::vector<StageStorage> out;
  for (auto [k, rs] : llvm::enumerate(*stages)) {
    StageStorage s;
    s.model = model.getSymName().str();
    s.stage = int(k);
    s.numStages = int(stages->size());
    s.firstLayer = int(rs.firstLayer);
    s.endLayer = int(rs.endLayer);
    s.groupSize = int(groupSize.value_or(0));
    for (const RuntimeKernel &kernel : rs.kernels) {
      switch (kernel.kind) {
      case RuntimeKernel::Kind::Embed:
        s.hasEmbedding = true;
        break;
      case RuntimeKernel::Kind::DecoderLayer:
        s.attnBits.push_back(int(kernel.attnBits));
        s.ffnBits.push_back(int(kernel.ffnBits));
        break;
      case RuntimeKernel::Kind::LMHead:
        s.hasHead = true;
        s.headBits = int(kernel.headBits);
        break;
      case RuntimeKernel::Kind::FinalNorm:
        break;
      }
    }
    out.push_back(std::move(s));
  }
  return out;
}

} // namespace weft::llm
