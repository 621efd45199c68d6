//===- ModelIR.cpp - A model description as llm IR, and back --------------===//
//
// Tensor names follow each checkpoint format: the names llama2.c's exporter
// gives its flat file, and those of HuggingFace's *ForCausalLM state dicts.
// Ops carry the name of their layer as location ("layers.3"), so that
// diagnostics say where in the model they are.
//
//===----------------------------------------------------------------------===//
#include "weft/LLM/ModelIR.h"
#include "weft/Planner/ModelImport.h"

#include "mlir/IR/Builders.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using weft::cost::ModelDesc;

namespace weft::llm {
namespace {

llvm::Error importError(const Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

/// Names of the checkpoint tensors of one architecture family. Layer parts
/// are "attn_norm", "q", "k", "v", "qkv", "o", "ffn_norm", "gate", "up",
/// "down", and "<part>_bias" for biases; "" when the format has none.
struct TensorNames {
  std::string embed, embedNorm, positions, finalNorm, head;
  std::string layerPrefix; // with "{0}" for the layer index
  llvm::StringMap<std::string> layer;

  std::string of(int64_t l, StringRef part) const {
    auto it = layer.find(part);
    if (it == layer.end())
      return "";
    return llvm::formatv(layerPrefix.c_str(), l).str() + it->second;
  }
};

TensorNames llama2cNames() {
  TensorNames n;
  n.embed = "tok_embeddings.weight";
  n.finalNorm = "norm.weight";
  n.head = "output.weight";
  n.layerPrefix = "layers.{0}.";
  n.layer = {{"attn_norm", "attention_norm.weight"},
             {"q", "attention.wq.weight"},
             {"k", "attention.wk.weight"},
             {"v", "attention.wv.weight"},
             {"o", "attention.wo.weight"},
             {"ffn_norm", "ffn_norm.weight"},
             {"gate", "feed_forward.w1.weight"},
             {"down", "feed_forward.w2.weight"},
             {"up", "feed_forward.w3.weight"}};
  return n;
}

TensorNames hfLlamaNames() {
  TensorNames n;
  n.embed = "model.embed_tokens.weight";
  n.finalNorm = "model.norm.weight";
  n.head = "lm_head.weight";
  n.layerPrefix = "model.layers.{0}.";
  n.layer = {{"attn_norm", "input_layernorm.weight"},
             {"ffn_norm", "post_attention_layernorm.weight"},
             {"gate", "mlp.gate_proj.weight"},
             {"up", "mlp.up_proj.weight"},
             {"down", "mlp.down_proj.weight"}};
  for (StringRef p : {"q", "k", "v", "o"}) {
    n.layer[p] = ("self_attn." + p + "_proj.weight").str();
    n.layer[(p + "_bias").str()] = ("self_attn." + p + "_proj.bias").str();
  }
  return n;
}

/// The names of a HuggingFace family whose layer parts each have a weight
/// and a bias: `parts` maps a part to its module's name in a layer.
TensorNames biasedHFNames(StringRef embed, StringRef finalNorm,
                          StringRef layerPrefix,
                          ArrayRef<std::pair<StringRef, StringRef>> parts) {
  TensorNames n;
  n.embed = embed.str();
  n.finalNorm = finalNorm.str();
  n.head = "lm_head.weight";
  n.layerPrefix = layerPrefix.str();
  for (auto [part, name] : parts) {
    n.layer[part] = (name + ".weight").str();
    n.layer[(part + "_bias").str()] = (name + ".bias").str();
  }
  return n;
}

TensorNames hfOptNames() {
  TensorNames n = biasedHFNames("model.decoder.embed_tokens.weight",
                                "model.decoder.final_layer_norm",
                                "model.decoder.layers.{0}.",
                                {{"attn_norm", "self_attn_layer_norm"},
                                 {"q", "self_attn.q_proj"},
                                 {"k", "self_attn.k_proj"},
                                 {"v", "self_attn.v_proj"},
                                 {"o", "self_attn.out_proj"},
                                 {"ffn_norm", "final_layer_norm"},
                                 {"up", "fc1"},
                                 {"down", "fc2"}});
  n.positions = "model.decoder.embed_positions.weight";
  return n;
}

TensorNames hfBloomNames() {
  TensorNames n = biasedHFNames("transformer.word_embeddings.weight",
                                "transformer.ln_f", "transformer.h.{0}.",
                                {{"attn_norm", "input_layernorm"},
                                 {"qkv", "self_attention.query_key_value"},
                                 {"o", "self_attention.dense"},
                                 {"ffn_norm", "post_attention_layernorm"},
                                 {"up", "mlp.dense_h_to_4h"},
                                 {"down", "mlp.dense_4h_to_h"}});
  n.embedNorm = "transformer.word_embeddings_layernorm";
  return n;
}

/// Builds the llm.model of one model description.
class ModelBuilder {
public:
  ModelBuilder(MLIRContext &ctx, const ModelDesc &m, TensorNames names)
      : m(m), names(std::move(names)), b(&ctx) {}

  OwningOpRef<ModuleOp> build();

private:
  /// Declares the weight `name` (unless declared) and returns its symbol.
  FlatSymbolRefAttr weight(StringRef name, ArrayRef<int64_t> shape);
  /// The layer part `part` of layer `l`, as a named attribute on `state`
  /// (nothing when the architecture has no such tensor).
  void addWeight(OperationState &state, StringRef attr, int64_t l,
                 StringRef part, ArrayRef<int64_t> shape);
  Value norm(Value x, StringRef weightName, StringRef biasName);
  Value layer(Value x, int64_t l);

  const ModelDesc &m;
  TensorNames names;
  OpBuilder b;
  ModelOp model;
  Location loc = b.getUnknownLoc();
  Type hidden;
};

FlatSymbolRefAttr ModelBuilder::weight(StringRef name,
                                       ArrayRef<int64_t> shape) {
  if (!model.lookupSymbol(name)) {
    OpBuilder::InsertionGuard guard(b);
    // Weights go before the functions, in the order ops first use them.
    auto funcs = model.getBodyBlock().getOps<func::FuncOp>();
    if (funcs.empty())
      b.setInsertionPointToEnd(&model.getBodyBlock());
    else
      b.setInsertionPoint(*funcs.begin());
    // As the checkpoint stores it (llama2.c files are fp32 throughout).
    Type element = m.dtype == "f16"    ? Type(b.getF16Type())
                   : m.dtype == "bf16" ? Type(b.getBF16Type())
                                       : Type(b.getF32Type());
    b.create<WeightOp>(loc, name, RankedTensorType::get(shape, element));
  }
  return FlatSymbolRefAttr::get(b.getContext(), name);
}

void ModelBuilder::addWeight(OperationState &state, StringRef attr, int64_t l,
                             StringRef part, ArrayRef<int64_t> shape) {
  std::string name = names.of(l, part);
  if (!name.empty())
    state.addAttribute(attr, weight(name, shape));
}

Value ModelBuilder::norm(Value x, StringRef weightName, StringRef biasName) {
  FloatAttr eps = b.getF64FloatAttr(m.normEps);
  FlatSymbolRefAttr w = weight(weightName, {m.hidden});
  if (!m.layerNorm)
    return b.create<RMSNormOp>(loc, x, w, eps);
  return b.create<LayerNormOp>(loc, x, w, weight(biasName, {m.hidden}), eps);
}

Value ModelBuilder::layer(Value x, int64_t l) {
  MLIRContext *ctx = b.getContext();
  loc = NameLoc::get(b.getStringAttr(llvm::formatv("layers.{0}", l).str()));
  const int64_t d = m.hidden, kv = m.kvDim(), f = m.intermediate;
  // Attention block: x + attention(norm(x)).
  Value n = norm(x, names.of(l, "attn_norm"), names.of(l, "attn_norm_bias"));
  OperationState attn(loc, AttentionOp::getOperationName());
  attn.addOperands(n);
  attn.addTypes(hidden);
  attn.addAttribute("layer", b.getI64IntegerAttr(l));
  attn.addAttribute("heads", b.getI64IntegerAttr(m.heads));
  attn.addAttribute("kv_heads", b.getI64IntegerAttr(m.kvHeads));
  if (m.ropeTheta > 0)
    attn.addAttribute("rope_theta", b.getF32FloatAttr(m.ropeTheta));
  else if (m.arch == "bloom")
    attn.addAttribute("alibi", b.getUnitAttr());
  bool fusedQKV = names.layer.count("qkv");
  if (fusedQKV)
    addWeight(attn, "qkv", l, "qkv", {d + 2 * kv, d});
  else
    for (auto [part, rows] :
         {std::pair<StringRef, int64_t>{"q", d}, {"k", kv}, {"v", kv}})
      addWeight(attn, part, l, part, {rows, d});
  addWeight(attn, "o", l, "o", {d, d});
  if (m.attnBias) {
    if (fusedQKV)
      addWeight(attn, "qkv_bias", l, "qkv_bias", {d + 2 * kv});
    else
      for (auto [part, rows] :
           {std::pair<StringRef, int64_t>{"q", d}, {"k", kv}, {"v", kv}})
        addWeight(attn, (part + "_bias").str(), l, (part + "_bias").str(),
                  {rows});
  }
  if (m.mlpBias)
    addWeight(attn, "o_bias", l, "o_bias", {d});
  Value a = b.create(attn)->getResult(0);
  Value r = b.create<AddOp>(loc, x, a);

  // FFN block: r + ffn(norm(r)).
  Value n2 = norm(r, names.of(l, "ffn_norm"), names.of(l, "ffn_norm_bias"));
  OperationState ffn(loc, FFNOp::getOperationName());
  ffn.addOperands(n2);
  ffn.addTypes(hidden);
  ffn.addAttribute("layer", b.getI64IntegerAttr(l));
  ffn.addAttribute("activation", ActivationAttr::get(
                                     ctx, *symbolizeActivation(m.activation)));
  if (m.gatedFFN)
    addWeight(ffn, "gate", l, "gate", {f, d});
  addWeight(ffn, "up", l, "up", {f, d});
  addWeight(ffn, "down", l, "down", {d, f});
  if (m.mlpBias) {
    addWeight(ffn, "up_bias", l, "up_bias", {f});
    addWeight(ffn, "down_bias", l, "down_bias", {d});
  }
  Value y = b.create(ffn)->getResult(0);
  return b.create<AddOp>(loc, r, y);
}

OwningOpRef<ModuleOp> ModelBuilder::build() {
  MLIRContext *ctx = b.getContext();
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  b.setInsertionPointToEnd(module->getBody());
  model = b.create<ModelOp>(loc, modelSymbolName(m.name), m.arch,
                            m.maxSeq > 0 ? m.maxSeq : 1, PlanAttr());
  model.getBody().emplaceBlock();
  b.setInsertionPointToEnd(&model.getBodyBlock());
  hidden = HiddenType::get(ctx, m.hidden);
  Type logits = LogitsType::get(ctx, m.vocab);
  auto forward = b.create<func::FuncOp>(
      loc, kForwardFunction,
      b.getFunctionType({TokensType::get(ctx)}, {logits}));
  Block *body = forward.addEntryBlock();
  b.setInsertionPointToStart(body);

  loc = NameLoc::get(b.getStringAttr("embedding"));
  FlatSymbolRefAttr table = weight(names.embed, {m.vocab, m.hidden});
  FlatSymbolRefAttr positions;
  int64_t offset = 0;
  if (!names.positions.empty()) {
    // OPT's learned positions start at row 2 (rows 0-1 are padding ids).
    offset = 2;
    positions = weight(names.positions, {m.maxSeq + offset, m.hidden});
  }
  Value x = b.create<EmbedOp>(loc, hidden, body->getArgument(0), table,
                              positions, b.getI64IntegerAttr(offset));
  if (!names.embedNorm.empty())
    x = norm(x, names.embedNorm + ".weight", names.embedNorm + ".bias");
  for (int64_t l = 0; l < m.layers; ++l)
    x = layer(x, l);
  loc = NameLoc::get(b.getStringAttr("head"));
  if (m.layerNorm)
    x = norm(x, names.finalNorm + ".weight", names.finalNorm + ".bias");
  else
    x = norm(x, names.finalNorm, "");
  FlatSymbolRefAttr head =
      m.tiedEmbeddings ? table : weight(names.head, {m.vocab, m.hidden});
  Value y = b.create<LMHeadOp>(loc, logits, x, head);
  b.create<func::ReturnOp>(loc, y);
  return module;
}

} // namespace

std::string modelSymbolName(StringRef name) {
  std::string s;
  for (char c : name)
    s += isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return s.empty() ? "model" : s;
}

llvm::Expected<OwningOpRef<ModuleOp>> importModel(MLIRContext &ctx,
                                                  const ModelDesc &m) {
  ctx.loadDialect<LLMDialect>();
  TensorNames names;
  if (m.arch == "llama2c")
    names = llama2cNames();
  else if (m.arch == "llama" || m.arch == "mistral" || m.arch == "qwen2")
    names = hfLlamaNames();
  else if (m.arch == "opt")
    names = hfOptNames();
  else if (m.arch == "bloom")
    names = hfBloomNames();
  else
    return importError("model_type: '" + m.arch +
                       "' has no llm dialect form (mixture-of-experts FFNs "
                       "are not expressed yet)");
  if (m.gatedFFN && m.mlpBias)
    return importError("mlp_bias: biased gated FFNs have no llm dialect form");
  if (!symbolizeActivation(m.activation))
    return importError(
        "activation '" + m.activation +
        "' has no llm dialect form (silu, relu, gelu, gelu_tanh)");
  return ModelBuilder(ctx, m, std::move(names)).build();
}

llvm::Expected<OwningOpRef<ModuleOp>> importModelFile(MLIRContext &ctx,
                                                      StringRef path) {
  llvm::Expected<plan::ImportedModel> model = plan::importModel(path);
  if (!model)
    return model.takeError();
  llvm::Expected<OwningOpRef<ModuleOp>> module = importModel(ctx, model->desc);
  if (!module)
    return importError(model->source + ": " + toString(module.takeError()));
  return module;
}

FailureOr<ModelOp> getOnlyModel(ModuleOp module) {
  auto models = module.getOps<ModelOp>();
  if (models.empty())
    return module.emitError("no llm.model in the module");
  if (std::next(models.begin()) != models.end())
    return (*std::next(models.begin())).emitOpError()
           << "is a second model: one module holds one model";
  return *models.begin();
}

std::optional<int64_t> layerOf(Operation *op) {
  auto layerAttr = [](Operation *o) -> std::optional<int64_t> {
    if (auto a = dyn_cast_or_null<AttentionOp>(o))
      return a.getLayerAttr().getInt();
    if (auto f = dyn_cast_or_null<FFNOp>(o))
      return f.getLayerAttr().getInt();
    return std::nullopt;
  };
  if (std::optional<int64_t> l = layerAttr(op))
    return l;
  if (isa<RMSNormOp, LayerNormOp>(op) && op->hasOneUse())
    return layerAttr(*op->getUsers().begin());
  if (isa<AddOp>(op))
    for (Value v : op->getOperands())
      if (std::optional<int64_t> l = layerAttr(v.getDefiningOp()))
        return l;
  return std::nullopt;
}

FailureOr<ModelDesc> describeModel(ModelOp model) {
  ModelDesc m;
  m.name = model.getSymName().str();
  m.arch = model.getArch().str();
  m.maxSeq = model.getMaxPositionsAttr().getInt();
  EmbedOp embed;
  LMHeadOp head;
  AttentionOp firstAttention;
  FFNOp firstFFN;
  llvm::SmallDenseSet<int64_t> layers;
  WalkResult r = model.walk([&](Operation *op) -> WalkResult {
    if (auto e = dyn_cast<EmbedOp>(op)) {
      embed = e;
    } else if (auto h = dyn_cast<LMHeadOp>(op)) {
      head = h;
    } else if (isa<LayerNormOp>(op)) {
      m.layerNorm = true;
    } else if (auto a = dyn_cast<AttentionOp>(op)) {
      layers.insert(a.getLayerAttr().getInt());
      m.attnBias |= a.getQBias() || a.getQkvBias();
      m.mlpBias |= bool(a.getOBias());
      if (!firstAttention) {
        firstAttention = a;
      } else if (a.getHeads() != firstAttention.getHeads() ||
                 a.getKvHeads() != firstAttention.getKvHeads()) {
        return a.emitOpError()
               << "has other head counts than layer "
               << firstAttention.getLayer()
               << ": the planner costs layers of one shape only";
      }
    } else if (auto f = dyn_cast<FFNOp>(op)) {
      m.gatedFFN = bool(f.getGate());
      m.mlpBias |= bool(f.getUpBias());
      auto up =
          SymbolTable::lookupNearestSymbolFrom<WeightOp>(f, f.getUpAttr());
      int64_t inner = up ? up.getTensorType().getDimSize(0) : 0;
      if (!firstFFN) {
        firstFFN = f;
        m.intermediate = inner;
      } else if (inner != m.intermediate) {
        return f.emitOpError()
               << "has an inner size of " << inner << " but layer "
               << firstFFN.getLayer() << " " << m.intermediate
               << ": the planner costs layers of one shape "
                  "only";
      }
    }
    return WalkResult::advance();
  });
  if (r.wasInterrupted())
    return failure();
  if (!embed || !head || !firstAttention || !firstFFN)
    return model.emitOpError()
           << "needs an embedding, a head and at least one attention and "
              "FFN to be costed";
  m.hidden = cast<HiddenType>(embed.getType()).getDim();
  m.vocab = cast<LogitsType>(head.getType()).getVocab();
  m.heads = firstAttention.getHeadsAttr().getInt();
  m.kvHeads = firstAttention.getKvHeadsAttr().getInt();
  m.layers = int64_t(layers.size());
  m.tiedEmbeddings = head.getWeightAttr() == embed.getTableAttr();
  return m;
}

} // namespace weft::llm
