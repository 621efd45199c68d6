//===- LLMOps.cpp - llm dialect operations --------------------------------===//
//
// Verifiers check what each op can check alone (head counts, norms' eps,
// stage order); verifySymbolUses checks every weight an op names against
// the shape the op needs and, for weights the runtimes fuse into one GEMM
// (Q/K/V, gate/up), that they are stored alike.
//
//===----------------------------------------------------------------------===//
#include "dialects/LLM/IR/LLMOps.h"

#include "llvm/ADT/STLExtras.h"

#include <cmath>

using namespace mlir;
using namespace weft::llm;

#define GET_OP_CLASSES
#include "dialects/LLM/IR/LLMOps.cpp.inc"

namespace weft::llm {

void forEachWeightRef(Operation *op,
                      function_ref<void(StringRef, FlatSymbolRefAttr)> fn) {
  if (!isa<LLMDialect>(op->getDialect()))
    return;
  for (NamedAttribute attr : op->getAttrs())
    if (auto ref = dyn_cast<FlatSymbolRefAttr>(attr.getValue()))
      fn(attr.getName().getValue(), ref);
}

} // namespace weft::llm

//===----------------------------------------------------------------------===//
// Weight references
//===----------------------------------------------------------------------===//

namespace {

std::string shapeString(ArrayRef<int64_t> shape) {
  std::string s;
  for (auto [i, d] : llvm::enumerate(shape))
    s += (i ? "x" : "") + std::to_string(d);
  return s;
}

/// The weight `name` of `op` refers to, checked to have `shape` (and a float
/// element type unless `mayBeQuantized`); null after an error.
WeightOp checkedWeight(Operation *op, SymbolTableCollection &tables,
                       StringRef name, ArrayRef<int64_t> shape,
                       bool mayBeQuantized = true) {
  auto ref = op->getAttrOfType<FlatSymbolRefAttr>(name);
  if (!ref)
    return nullptr; // optional and absent; callers check presence
  auto weight = tables.lookupNearestSymbolFrom<WeightOp>(op, ref.getAttr());
  if (!weight) {
    op->emitOpError() << name << " " << ref << " does not name an llm.weight";
    return nullptr;
  }
  RankedTensorType type = weight.getTensorType();
  if (type.getShape() != shape) {
    op->emitOpError() << name << " " << ref << " has shape "
                      << shapeString(type.getShape()) << ", expected "
                      << shapeString(shape);
    return nullptr;
  }
  if (!mayBeQuantized && weight.getGroupQuant()) {
    op->emitOpError() << name << " " << ref
                      << " must be stored as floats, not quantised";
    return nullptr;
  }
  return weight;
}

/// Checks the weights of `op` named in `roles` against their shapes.
LogicalResult
checkWeights(Operation *op, SymbolTableCollection &tables,
             ArrayRef<std::pair<StringRef, SmallVector<int64_t, 2>>> roles,
             bool mayBeQuantized = true) {
  for (const auto &[name, shape] : roles)
    if (op->getAttr(name) &&
        !checkedWeight(op, tables, name, shape, mayBeQuantized))
      return failure();
  return success();
}

/// Weights the runtimes multiply in one GEMM must share their storage
/// (element type and encoding).
LogicalResult checkFusedGroup(Operation *op, SymbolTableCollection &tables,
                              ArrayRef<StringRef> names, StringRef group) {
  std::optional<std::pair<StringRef, RankedTensorType>> first;
  for (StringRef name : names) {
    auto ref = op->getAttrOfType<FlatSymbolRefAttr>(name);
    if (!ref)
      continue;
    RankedTensorType type =
        tables.lookupNearestSymbolFrom<WeightOp>(op, ref.getAttr())
            .getTensorType();
    if (!first) {
      first = {name, type};
      continue;
    }
    if (type.getElementType() != first->second.getElementType() ||
        type.getEncoding() != first->second.getEncoding())
      return op->emitOpError()
             << name << " is stored as " << type.getElementType() << " but "
             << first->first << " as " << first->second.getElementType() << ": "
             << group << " are one fused GEMM and must be quantised alike";
  }
  return success();
}

LogicalResult checkEps(Operation *op, FloatAttr eps) {
  double v = eps.getValueAsDouble();
  if (!(v > 0) || !std::isfinite(v))
    return op->emitOpError() << "eps must be positive and finite, got " << v;
  return success();
}

int64_t dimOf(Value v) { return cast<HiddenType>(v.getType()).getDim(); }

//===----------------------------------------------------------------------===//
// Custom assembly: `weights(role = @sym, ...)` and `biases(...)`
//===----------------------------------------------------------------------===//

/// A role keyword and the attribute that holds its weight.
struct Role {
  StringRef keyword, attr;
};

ParseResult parseRoles(OpAsmParser &p, OperationState &state,
                       StringRef listKeyword, ArrayRef<Role> roles) {
  if (failed(p.parseOptionalKeyword(listKeyword)))
    return success();
  return p.parseCommaSeparatedList(
      OpAsmParser::Delimiter::Paren, [&]() -> ParseResult {
        SMLoc loc = p.getCurrentLocation();
        StringRef keyword;
        FlatSymbolRefAttr ref;
        if (p.parseKeyword(&keyword) || p.parseEqual() || p.parseAttribute(ref))
          return failure();
        const Role *role = llvm::find_if(
            roles, [&](const Role &r) { return r.keyword == keyword; });
        if (role == roles.end())
          return p.emitError(loc)
                 << "unknown role '" << keyword << "' in " << listKeyword;
        if (state.attributes.get(role->attr))
          return p.emitError(loc) << "role '" << keyword << "' given twice";
        state.addAttribute(role->attr, ref);
        return success();
      });
}

void printRoles(OpAsmPrinter &p, Operation *op, StringRef listKeyword,
                ArrayRef<Role> roles) {
  SmallVector<std::pair<StringRef, Attribute>> present;
  for (const Role &r : roles)
    if (Attribute a = op->getAttr(r.attr))
      present.push_back({r.keyword, a});
  if (present.empty())
    return;
  p << " " << listKeyword << "(";
  llvm::interleaveComma(present, p, [&](auto &kv) {
    p << kv.first << " = ";
    p.printAttribute(kv.second);
  });
  p << ")";
}

SmallVector<StringRef> roleAttrs(ArrayRef<Role> roles) {
  return llvm::to_vector(llvm::map_range(roles, [](Role r) { return r.attr; }));
}

const Role kAttentionWeights[] = {
    {"q", "q"}, {"k", "k"}, {"v", "v"}, {"qkv", "qkv"}, {"o", "o"}};
const Role kAttentionBiases[] = {{"q", "q_bias"},
                                 {"k", "k_bias"},
                                 {"v", "v_bias"},
                                 {"qkv", "qkv_bias"},
                                 {"o", "o_bias"}};
const Role kFFNWeights[] = {{"gate", "gate"}, {"up", "up"}, {"down", "down"}};
const Role kFFNBiases[] = {{"up", "up_bias"}, {"down", "down_bias"}};

/// `%x layer N` (common prefix of attention and FFN).
ParseResult parseInputAndLayer(OpAsmParser &p, OperationState &state,
                               OpAsmParser::UnresolvedOperand &input) {
  int64_t layer;
  if (p.parseOperand(input) || p.parseKeyword("layer") || p.parseInteger(layer))
    return failure();
  state.addAttribute("layer", p.getBuilder().getI64IntegerAttr(layer));
  return success();
}

/// `attr-dict : !llm.hidden<D>` (common suffix).
ParseResult parseDictAndType(OpAsmParser &p, OperationState &state,
                             OpAsmParser::UnresolvedOperand input) {
  Type type;
  if (p.parseOptionalAttrDict(state.attributes) || p.parseColonType(type) ||
      p.resolveOperand(input, type, state.operands))
    return failure();
  state.addTypes(type);
  return success();
}

} // namespace

//===----------------------------------------------------------------------===//
// ModelOp
//===----------------------------------------------------------------------===//

func::FuncOp ModelOp::getFunction(StringRef name) {
  return dyn_cast_or_null<func::FuncOp>(lookupSymbol(name));
}

LogicalResult ModelOp::verify() {
  if (getMaxPositionsAttr().getInt() < 1)
    return emitOpError() << "max_positions must be positive, got "
                         << getMaxPositionsAttr().getInt();
  llvm::SmallDenseMap<int64_t, PipelineOp> pipelines;
  for (Operation &op : getBodyBlock()) {
    if (!isa<WeightOp, func::FuncOp, PipelineOp>(op))
      return op.emitOpError() << "cannot be part of an llm.model (weights, "
                                 "functions and pipelines only)";
    if (auto p = dyn_cast<PipelineOp>(op)) {
      auto [it, inserted] = pipelines.insert({p.getStageAttr().getInt(), p});
      if (!inserted)
        return p.emitOpError()
               << "is a second pipeline of stage " << p.getStageAttr().getInt();
    }
  }
  if (std::optional<PlanAttr> plan = getPlan()) {
    int64_t stages = plan->getNumStages();
    WalkResult r = walk([&](Operation *op) {
      std::optional<int64_t> s = getStage(op);
      if (auto p = dyn_cast<PipelineOp>(op))
        s = p.getStageAttr().getInt();
      if (s && *s >= stages) {
        op->emitOpError() << "is on stage " << *s << " but the plan has "
                          << stages << " stage" << (stages == 1 ? "" : "s");
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (r.wasInterrupted())
      return failure();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// WeightOp
//===----------------------------------------------------------------------===//

int64_t WeightOp::getBits() {
  Type element = getTensorType().getElementType();
  if (auto quant = dyn_cast<quant::QuantizedType>(element))
    return quant.getStorageTypeIntegralWidth();
  return element.getIntOrFloatBitWidth();
}

int64_t WeightOp::getStorageBytes() {
  RankedTensorType type = getTensorType();
  if (GroupQuantAttr quant = getGroupQuant()) {
    int64_t rows = type.getDimSize(0), cols = type.getDimSize(1);
    int64_t groups = llvm::divideCeil(cols, quant.getGroupSize());
    return rows * (llvm::divideCeil(cols, 8) * getBits() + groups * (2 + 1));
  }
  return type.getNumElements() * getBits() / 8;
}

LogicalResult WeightOp::verify() {
  RankedTensorType type = getTensorType();
  if (type.getRank() != 1 && type.getRank() != 2)
    return emitOpError() << "must be a vector or a matrix, got rank "
                         << type.getRank();
  if (llvm::any_of(type.getShape(), [](int64_t d) { return d <= 0; }))
    return emitOpError() << "must have positive sizes, got "
                         << shapeString(type.getShape());
  Type element = type.getElementType();
  if (isa<quant::QuantizedType>(element)) {
    if (!getGroupQuant())
      return emitOpError() << "is quantised but has no #llm.group_quant "
                              "encoding";
    return success(); // the encoding verified the element type
  }
  if (!element.isF32() && !element.isF16() && !element.isBF16())
    return emitOpError() << "must be stored as f32, f16, bf16 or group-wise "
                            "quantised codes, got "
                         << element;
  if (type.getEncoding())
    return emitOpError() << "of float elements cannot have an encoding";
  return success();
}

//===----------------------------------------------------------------------===//
// EmbedOp
//===----------------------------------------------------------------------===//

LogicalResult EmbedOp::verify() {
  if (getOffsetAttr().getInt() < 0)
    return emitOpError() << "position offset must be non-negative";
  if (getOffsetAttr().getInt() != 0 && !getPositions())
    return emitOpError() << "has a position offset but no positions table";
  return success();
}

LogicalResult EmbedOp::verifySymbolUses(SymbolTableCollection &tables) {
  int64_t dim = cast<HiddenType>(getType()).getDim();
  auto table = tables.lookupNearestSymbolFrom<WeightOp>(*this, getTableAttr());
  if (!table)
    return emitOpError() << "table " << getTableAttr()
                         << " does not name an llm.weight";
  int64_t vocab = table.getTensorType().getRank() == 2
                      ? table.getTensorType().getDimSize(0)
                      : 0;
  if (failed(checkWeights(*this, tables, {{"table", {vocab, dim}}},
                          /*mayBeQuantized=*/false)))
    return failure();
  if (auto positions = getPositionsAttr()) {
    auto w = tables.lookupNearestSymbolFrom<WeightOp>(*this, positions);
    int64_t rows = w && w.getTensorType().getRank() == 2
                       ? w.getTensorType().getDimSize(0)
                       : 0;
    if (failed(checkWeights(*this, tables, {{"positions", {rows, dim}}},
                            /*mayBeQuantized=*/false)))
      return failure();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Norms
//===----------------------------------------------------------------------===//

LogicalResult RMSNormOp::verify() { return checkEps(*this, getEpsAttr()); }

LogicalResult RMSNormOp::verifySymbolUses(SymbolTableCollection &tables) {
  return checkWeights(*this, tables, {{"weight", {dimOf(getInput())}}},
                      /*mayBeQuantized=*/false);
}

LogicalResult LayerNormOp::verify() { return checkEps(*this, getEpsAttr()); }

LogicalResult LayerNormOp::verifySymbolUses(SymbolTableCollection &tables) {
  int64_t dim = dimOf(getInput());
  return checkWeights(*this, tables, {{"weight", {dim}}, {"bias", {dim}}},
                      /*mayBeQuantized=*/false);
}

//===----------------------------------------------------------------------===//
// AttentionOp
//===----------------------------------------------------------------------===//

ParseResult AttentionOp::parse(OpAsmParser &p, OperationState &state) {
  OpAsmParser::UnresolvedOperand input;
  int64_t heads, kvHeads;
  Builder &b = p.getBuilder();
  if (parseInputAndLayer(p, state, input) || p.parseKeyword("heads") ||
      p.parseInteger(heads) || p.parseKeyword("kv_heads") ||
      p.parseInteger(kvHeads))
    return failure();
  state.addAttribute("heads", b.getI64IntegerAttr(heads));
  state.addAttribute("kv_heads", b.getI64IntegerAttr(kvHeads));
  if (succeeded(p.parseOptionalKeyword("rope"))) {
    FloatAttr theta;
    if (p.parseAttribute(theta, b.getF32Type()))
      return failure();
    state.addAttribute("rope_theta", theta);
  } else if (succeeded(p.parseOptionalKeyword("alibi"))) {
    state.addAttribute("alibi", b.getUnitAttr());
  }
  if (parseRoles(p, state, "weights", kAttentionWeights) ||
      parseRoles(p, state, "biases", kAttentionBiases))
    return failure();
  return parseDictAndType(p, state, input);
}

void AttentionOp::print(OpAsmPrinter &p) {
  p << " " << getInput() << " layer " << getLayer() << " heads " << getHeads()
    << " kv_heads " << getKvHeads();
  if (FloatAttr theta = getRopeThetaAttr()) {
    p << " rope ";
    p.printAttributeWithoutType(theta);
  } else if (getAlibi()) {
    p << " alibi";
  }
  printRoles(p, *this, "weights", kAttentionWeights);
  printRoles(p, *this, "biases", kAttentionBiases);
  SmallVector<StringRef> elided = {"layer", "heads", "kv_heads", "rope_theta",
                                   "alibi"};
  llvm::append_range(elided, roleAttrs(kAttentionWeights));
  llvm::append_range(elided, roleAttrs(kAttentionBiases));
  p.printOptionalAttrDict((*this)->getAttrs(), elided);
  p << " : " << getType();
}

LogicalResult AttentionOp::verify() {
  int64_t dim = dimOf(getInput());
  int64_t heads = getHeadsAttr().getInt(), kv = getKvHeadsAttr().getInt();
  if (getLayerAttr().getInt() < 0)
    return emitOpError() << "layer must be non-negative";
  if (heads < 1 || kv < 1)
    return emitOpError() << "head counts must be positive";
  if (dim % heads || heads % kv)
    return emitOpError() << "heads (" << heads << ") must divide the width ("
                         << dim << ") and kv_heads (" << kv
                         << ") must divide heads";
  if (getRopeThetaAttr() && getAlibi())
    return emitOpError() << "cannot use both rope and alibi";
  if (FloatAttr theta = getRopeThetaAttr())
    if (!(theta.getValueAsDouble() > 0) ||
        !std::isfinite(theta.getValueAsDouble()))
      return emitOpError() << "rope theta must be positive and finite";
  bool separate = getQ() || getK() || getV();
  if (getQkv() ? separate : !(getQ() && getK() && getV()))
    return emitOpError()
           << "needs either q, k and v weights or one fused qkv weight";
  if (getQkvBias() ? bool(getQBias() || getKBias() || getVBias()) : false)
    return emitOpError() << "cannot have both a fused qkv bias and q, k or v "
                            "biases";
  if ((getQkvBias() && !getQkv()) ||
      ((getQBias() || getKBias() || getVBias()) && getQkv()))
    return emitOpError() << "biases must follow the weights' form (fused "
                            "qkv or separate q, k, v)";
  return success();
}

LogicalResult AttentionOp::verifySymbolUses(SymbolTableCollection &tables) {
  int64_t dim = dimOf(getInput());
  int64_t kvDim = dim / getHeadsAttr().getInt() * getKvHeadsAttr().getInt();
  int64_t fused = dim + 2 * kvDim;
  if (failed(checkWeights(*this, tables,
                          {{"q", {dim, dim}},
                           {"k", {kvDim, dim}},
                           {"v", {kvDim, dim}},
                           {"qkv", {fused, dim}},
                           {"o", {dim, dim}}})) ||
      failed(checkWeights(*this, tables,
                          {{"q_bias", {dim}},
                           {"k_bias", {kvDim}},
                           {"v_bias", {kvDim}},
                           {"qkv_bias", {fused}},
                           {"o_bias", {dim}}},
                          /*mayBeQuantized=*/false)))
    return failure();
  return checkFusedGroup(*this, tables, {"q", "k", "v"}, "Q, K and V");
}

//===----------------------------------------------------------------------===//
// FFNOp
//===----------------------------------------------------------------------===//

ParseResult FFNOp::parse(OpAsmParser &p, OperationState &state) {
  OpAsmParser::UnresolvedOperand input;
  StringRef name;
  if (parseInputAndLayer(p, state, input))
    return failure();
  SMLoc loc = p.getCurrentLocation();
  if (p.parseKeyword(&name))
    return failure();
  std::optional<Activation> act = symbolizeActivation(name);
  if (!act)
    return p.emitError(loc) << "unknown activation '" << name
                            << "' (silu, relu, gelu or gelu_tanh)";
  state.addAttribute("activation", ActivationAttr::get(p.getContext(), *act));
  if (parseRoles(p, state, "weights", kFFNWeights) ||
      parseRoles(p, state, "biases", kFFNBiases))
    return failure();
  return parseDictAndType(p, state, input);
}

void FFNOp::print(OpAsmPrinter &p) {
  p << " " << getInput() << " layer " << getLayer() << " "
    << stringifyActivation(getActivation());
  printRoles(p, *this, "weights", kFFNWeights);
  printRoles(p, *this, "biases", kFFNBiases);
  SmallVector<StringRef> elided = {"layer", "activation"};
  llvm::append_range(elided, roleAttrs(kFFNWeights));
  llvm::append_range(elided, roleAttrs(kFFNBiases));
  p.printOptionalAttrDict((*this)->getAttrs(), elided);
  p << " : " << getType();
}

LogicalResult FFNOp::verify() {
  if (getLayerAttr().getInt() < 0)
    return emitOpError() << "layer must be non-negative";
  return success();
}

LogicalResult FFNOp::verifySymbolUses(SymbolTableCollection &tables) {
  int64_t dim = dimOf(getInput());
  auto up = tables.lookupNearestSymbolFrom<WeightOp>(*this, getUpAttr());
  if (!up)
    return emitOpError() << "up " << getUpAttr()
                         << " does not name an llm.weight";
  RankedTensorType upType = up.getTensorType();
  int64_t inner = upType.getRank() == 2 ? upType.getDimSize(0) : 0;
  if (failed(checkWeights(*this, tables,
                          {{"up", {inner, dim}},
                           {"gate", {inner, dim}},
                           {"down", {dim, inner}}})) ||
      failed(checkWeights(*this, tables,
                          {{"up_bias", {inner}}, {"down_bias", {dim}}},
                          /*mayBeQuantized=*/false)))
    return failure();
  return checkFusedGroup(*this, tables, {"gate", "up"}, "gate and up");
}

//===----------------------------------------------------------------------===//
// LMHeadOp, TransferOp
//===----------------------------------------------------------------------===//

LogicalResult LMHeadOp::verifySymbolUses(SymbolTableCollection &tables) {
  int64_t vocab = cast<LogitsType>(getType()).getVocab();
  return checkWeights(*this, tables, {{"weight", {vocab, dimOf(getInput())}}});
}

LogicalResult TransferOp::verify() {
  int64_t from = getFromAttr().getInt(), to = getToAttr().getInt();
  if (from < 0 || to <= from)
    return emitOpError() << "must move to a later stage, got from " << from
                         << " to " << to;
  return success();
}

//===----------------------------------------------------------------------===//
// The serving schedule
//===----------------------------------------------------------------------===//

LogicalResult PipelineOp::verify() {
  if (getStageAttr().getInt() < 0)
    return emitOpError() << "stage must be non-negative";
  return success();
}

/// The stage of the pipeline `op` is in, or an error.
static FailureOr<int64_t> pipelineStage(Operation *op) {
  auto pipeline = op->getParentOfType<PipelineOp>();
  if (!pipeline)
    return op->emitOpError() << "must be inside an llm.pipeline";
  return pipeline.getStageAttr().getInt();
}

LogicalResult MicroBatchOp::verify() {
  if ((getPhase() == Phase::Decode) != bool(getStep()))
    return emitOpError() << "needs a step in decode, and none in prefill";
  return success(succeeded(pipelineStage(*this)));
}

LogicalResult InputTokensOp::verify() {
  FailureOr<int64_t> stage = pipelineStage(*this);
  if (succeeded(stage) && *stage != 0)
    return emitOpError() << "is on stage " << *stage
                         << ": only stage 0 starts from tokens";
  return success(succeeded(stage));
}

LogicalResult RecvOp::verify() {
  FailureOr<int64_t> stage = pipelineStage(*this);
  if (succeeded(stage) && getFromAttr().getInt() != *stage - 1)
    return emitOpError() << "on stage " << *stage << " receives from stage "
                         << getFromAttr().getInt()
                         << ": hidden states come from the previous stage";
  return success(succeeded(stage));
}

LogicalResult SendOp::verify() {
  FailureOr<int64_t> stage = pipelineStage(*this);
  if (succeeded(stage) && getToAttr().getInt() != *stage + 1)
    return emitOpError() << "on stage " << *stage << " sends to stage "
                         << getToAttr().getInt()
                         << ": hidden states go to the next stage";
  return success(succeeded(stage));
}

LogicalResult ReturnTokensOp::verify() {
  if (getToAttr().getInt() != 0)
    return emitOpError() << "returns tokens to stage " << getToAttr().getInt()
                         << ": sampled tokens go back to stage 0";
  return success(succeeded(pipelineStage(*this)));
}
