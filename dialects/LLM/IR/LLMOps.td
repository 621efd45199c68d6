//===- LLMOps.td - llm dialect operations ------------------*- tablegen -*-===//
//
// A model is a symbol table holding its weights and functions. The forward
// function is dataflow over the hidden states of one micro-batch; every op
// names the weights it reads by symbol, and the symbol's type says how the
// weight is stored. See docs/dialects/llm.md.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_DIALECTS_LLM_IR_LLMOPS_TD
#define WEFT_DIALECTS_LLM_IR_LLMOPS_TD

include "dialects/LLM/IR/LLMAttrs.td"
include "dialects/LLM/IR/LLMBase.td"
include "dialects/LLM/IR/LLMTypes.td"
include "mlir/IR/OpBase.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

// Attention appends the micro-batch's keys and values to its sequences' KV
// caches and reads what earlier micro-batches left there.
def LLM_KVCache : Resource<"::weft::llm::KVCacheResource">;

// Ops that read weights: they name them by symbol and verify each symbol's
// shape and storage (LLMOps.cpp).
class LLM_WeightUserOp<string mnemonic, list<Trait> traits = []>
    : LLM_Op<mnemonic, !listconcat(traits,
          [DeclareOpInterfaceMethods<SymbolUserOpInterface>])>;

// Supported weight bits of a plan: 16 (fp16) or group-wise 8, 4, 3.
def LLM_SupportedBits : AttrConstraint<
    CPred<"::llvm::is_contained({16, 8, 4, 3}, "
          "::llvm::cast<::mlir::IntegerAttr>($_self).getInt())">,
    "whose value is 16, 8, 4 or 3">;
def LLM_BitsAttr : ConfinedAttr<I32Attr, [LLM_SupportedBits]>;

//===----------------------------------------------------------------------===//
// Model and weights
//===----------------------------------------------------------------------===//

def LLM_ModelOp : LLM_Op<"model", [IsolatedFromAbove, NoTerminator,
                                   SingleBlock, Symbol, SymbolTable]> {
  let summary = "A decoder-only transformer: its weights and functions";
  let description = [{
    The body declares the weights (`llm.weight`) and holds the functions:
    `@forward` (tokens of a micro-batch to their logits) until
    `llm-schedule` replaces it, the stage functions `llm-split-stages`
    outlines, and the `llm.pipeline` of every stage. `arch` names the
    architecture family of the checkpoint (`llama2c`, `llama`, `mistral`,
    `qwen2`, `opt`, `bloom`) and `max_positions` its context length. Once
    planned, `plan` holds the plan's micro-batch sizes, workload, runtime
    profile and stages.

    ```mlir
    llm.model @stories260K attributes {arch = "llama2c", max_positions = 512 : i64} {
      llm.weight @tok_embeddings.weight : tensor<512x64xf32>
      ...
      func.func @forward(%tokens: !llm.tokens) -> !llm.logits<512> {
        %h = llm.embed %tokens, @tok_embeddings.weight : !llm.hidden<64>
        ...
      }
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, StrAttr:$arch,
                       I64Attr:$max_positions,
                       OptionalAttr<LLM_PlanAttr>:$plan);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "$sym_name attr-dict-with-keyword $body";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::Block &getBodyBlock() { return getBody().front(); }
    /// The function `name` of the model, or null.
    ::mlir::func::FuncOp getFunction(::llvm::StringRef name);
    /// The weights of the model, in declaration order.
    auto getWeights() { return getBodyBlock().getOps<WeightOp>(); }
  }];
}

def LLM_WeightOp : LLM_Op<"weight", [Symbol, HasParent<"ModelOp">]> {
  let summary = "One tensor of the checkpoint, as it is stored for serving";
  let description = [{
    The symbol is the tensor's name in the checkpoint
    (`model.layers.0.self_attn.q_proj.weight`, or for a llama2.c file the
    name its exporter gives it). The type is a static tensor: `[rows]` for
    norm weights and biases, `[N][K]` (N outputs, K inputs, row-major) for
    matrices. Its element type is how the weight is stored: `f32`, `f16`
    or `bf16` (as read from the checkpoint, or fp16 for serving), or
    `!quant.any<uB:f32>` with a `#llm.group_quant` encoding for B-bit
    group-wise codes (`llm-quantize` writes those).
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypeAttrOf<AnyStaticShapeTensor>:$type);
  let assemblyFormat = "$sym_name `:` $type attr-dict";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::RankedTensorType getTensorType() {
      return ::llvm::cast<::mlir::RankedTensorType>(getType());
    }
    /// The group-wise encoding of a quantised weight, or null.
    GroupQuantAttr getGroupQuant() {
      return ::llvm::dyn_cast_or_null<GroupQuantAttr>(
          getTensorType().getEncoding());
    }
    /// Bits of one stored value: 32, 16, or the width of a code.
    int64_t getBits();
    /// Bytes the weight takes as stored: its values, and for group-wise
    /// codes the fp16 scale and u8 zero-point of every group, each row
    /// padded to a multiple of 8 codes (docs/quantization.md).
    int64_t getStorageBytes();
  }];
}

//===----------------------------------------------------------------------===//
// The forward pass of one micro-batch
//===----------------------------------------------------------------------===//

def LLM_EmbedOp : LLM_WeightUserOp<"embed", [Pure]> {
  let summary = "Token embedding lookup (plus learned positions)";
  let description = [{
    Row r of the result is row `tokens[r]` of `table` ([vocab][dim]). With
    `positions` ([P][dim], learned absolute positions, OPT), the row of the
    token's position plus `offset` is added.
  }];
  let arguments = (ins LLM_TokensType:$tokens, FlatSymbolRefAttr:$table,
                       OptionalAttr<FlatSymbolRefAttr>:$positions,
                       DefaultValuedAttr<I64Attr, "0">:$offset);
  let results = (outs LLM_HiddenType:$result);
  let assemblyFormat = [{
    $tokens `,` $table (`positions` $positions^ `offset` $offset)? attr-dict
    `:` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def LLM_RMSNormOp : LLM_WeightUserOp<"rms_norm",
    [Pure, SameOperandsAndResultType]> {
  let summary = "RMSNorm with a learned gain";
  let arguments = (ins LLM_HiddenType:$input, FlatSymbolRefAttr:$weight,
                       F64Attr:$eps);
  let results = (outs LLM_HiddenType:$result);
  let assemblyFormat = [{
    $input `,` $weight `eps` $eps attr-dict `:` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def LLM_LayerNormOp : LLM_WeightUserOp<"layer_norm",
    [Pure, SameOperandsAndResultType]> {
  let summary = "LayerNorm with a learned gain and bias";
  let arguments = (ins LLM_HiddenType:$input, FlatSymbolRefAttr:$weight,
                       FlatSymbolRefAttr:$bias, F64Attr:$eps);
  let results = (outs LLM_HiddenType:$result);
  let assemblyFormat = [{
    $input `,` $weight `,` $bias `eps` $eps attr-dict `:` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def LLM_AttentionOp : LLM_WeightUserOp<"attention",
    [SameOperandsAndResultType,
     MemoryEffects<[MemRead<LLM_KVCache>, MemWrite<LLM_KVCache>]>]> {
  let summary = "Causal self-attention of decoder layer `layer`, with its "
                "input and output projections";
  let description = [{
    Projects the input to queries, keys and values (`q`, `k`, `v`, or one
    fused `qkv` matrix: [dim + 2 kv_dim][dim]), applies rotary embeddings
    (`rope` theta) or ALiBi biases (`alibi`) or neither (positions were
    added at embedding), appends keys and values to the KV cache of each
    sequence of the micro-batch, attends causally with `heads` query heads
    sharing `kv_heads` key/value heads, and projects back with `o`. Biases,
    when the architecture has them, follow the same roles. Q, K and V are
    one fused GEMM in the runtimes, so they must be stored alike. `bits` is
    the plan's width for all of the layer's attention weights, until
    `llm-quantize` makes it their storage.

    ```mlir
    %a = llm.attention %x layer 0 heads 8 kv_heads 4 rope 1.000000e+04
           weights(q = @wq, k = @wk, v = @wv, o = @wo) : !llm.hidden<64>
    ```
  }];
  let arguments = (ins LLM_HiddenType:$input, I64Attr:$layer, I64Attr:$heads,
                       I64Attr:$kv_heads, OptionalAttr<F32Attr>:$rope_theta,
                       UnitAttr:$alibi,
                       OptionalAttr<FlatSymbolRefAttr>:$q,
                       OptionalAttr<FlatSymbolRefAttr>:$k,
                       OptionalAttr<FlatSymbolRefAttr>:$v,
                       OptionalAttr<FlatSymbolRefAttr>:$qkv,
                       FlatSymbolRefAttr:$o,
                       OptionalAttr<FlatSymbolRefAttr>:$q_bias,
                       OptionalAttr<FlatSymbolRefAttr>:$k_bias,
                       OptionalAttr<FlatSymbolRefAttr>:$v_bias,
                       OptionalAttr<FlatSymbolRefAttr>:$qkv_bias,
                       OptionalAttr<FlatSymbolRefAttr>:$o_bias,
                       OptionalAttr<LLM_BitsAttr>:$bits);
  let results = (outs LLM_HiddenType:$result);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def LLM_FFNOp : LLM_WeightUserOp<"ffn", [Pure, SameOperandsAndResultType]> {
  let summary = "The feed-forward network of decoder layer `layer`";
  let description = [{
    `down(act(gate(x)) * up(x))` when gated (LLaMA's SwiGLU), otherwise
    `down(act(up(x)))` (OPT's fc1/fc2), with optional biases on `up` and
    `down`. Gate and up are one fused GEMM in the runtimes, so they must be
    stored alike. `bits` is the plan's width for the layer's FFN weights.

    ```mlir
    %f = llm.ffn %x layer 0 silu weights(gate = @w1, up = @w3, down = @w2)
           : !llm.hidden<64>
    ```
  }];
  let arguments = (ins LLM_HiddenType:$input, I64Attr:$layer,
                       LLM_ActivationAttr:$activation,
                       OptionalAttr<FlatSymbolRefAttr>:$gate,
                       FlatSymbolRefAttr:$up, FlatSymbolRefAttr:$down,
                       OptionalAttr<FlatSymbolRefAttr>:$up_bias,
                       OptionalAttr<FlatSymbolRefAttr>:$down_bias,
                       OptionalAttr<LLM_BitsAttr>:$bits);
  let results = (outs LLM_HiddenType:$result);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def LLM_AddOp : LLM_Op<"add", [Pure, Commutative,
                               SameOperandsAndResultType]> {
  let summary = "Residual connection: element-wise sum of two hidden states";
  let arguments = (ins LLM_HiddenType:$lhs, LLM_HiddenType:$rhs);
  let results = (outs LLM_HiddenType:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` qualified(type($result))";
}

def LLM_LMHeadOp : LLM_WeightUserOp<"lm_head", [Pure]> {
  let summary = "Classifier: logits of the rows the micro-batch samples";
  let description = [{
    `weight` is [vocab][dim]; it is the embedding table itself when the
    model ties them.
  }];
  let arguments = (ins LLM_HiddenType:$input, FlatSymbolRefAttr:$weight);
  let results = (outs LLM_LogitsType:$result);
  let assemblyFormat = [{
    $input `,` $weight attr-dict `:` qualified(type($input)) `->` qualified(type($result))
  }];
}

def LLM_TransferOp : LLM_Op<"transfer", [Pure, SameOperandsAndResultType]> {
  let summary = "Hidden states moving from one pipeline stage to the next";
  let description = [{
    The value of stage `from` becomes the value of stage `to` (a later
    stage): a message between the ranks that run them. `llm-split-stages`
    places one between the calls of consecutive stage functions.
  }];
  let arguments = (ins LLM_HiddenType:$input, I64Attr:$from, I64Attr:$to);
  let results = (outs LLM_HiddenType:$result);
  let assemblyFormat = [{
    $input `from` $from `to` $to attr-dict `:` qualified(type($result))
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// The serving schedule of a stage (llm-schedule)
//===----------------------------------------------------------------------===//

def LLM_PipelineOp : LLM_Op<"pipeline", [HasParent<"ModelOp">, NoTerminator,
                                         SingleBlock]> {
  let summary = "What the rank of pipeline stage `stage` runs";
  let description = [{
    The schedule of one stage: a loop over the prefill micro-batches, then
    a loop over decode steps and, in each, over its micro-batches. For each
    micro-batch the body says where its input comes from (`llm.input_tokens`
    on stage 0, `llm.recv` from the previous stage), calls the stage's
    function, and where its output goes (`llm.send` to the next stage, or
    `llm.sample` and `llm.return_tokens` to stage 0 on the last). The
    counts are known at run time only (prompts, `--batch`,
    `--max-new-tokens`, micro-batch sizes).

    ```mlir
    llm.pipeline stage 1 {
      %np = llm.microbatch_count prefill : index
      scf.for %i = %c0 to %np step %c1 {
        %mb = llm.microbatch prefill %i
        %h = llm.recv %mb from 0 : !llm.hidden<64>
        %l = func.call @stage1(%h) : (!llm.hidden<64>) -> !llm.logits<512>
        %t = llm.sample %l : !llm.logits<512>
        llm.return_tokens %t to 0
      }
      ...
    }
    ```
  }];
  let arguments = (ins I64Attr:$stage);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "`stage` $stage attr-dict-with-keyword $body";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::Block &getBodyBlock() { return getBody().front(); }
  }];
}

def LLM_MicroBatchCountOp : LLM_Op<"microbatch_count", [Pure]> {
  let summary = "Micro-batches of prefill, or of one decode step";
  let arguments = (ins LLM_PhaseAttr:$phase);
  let results = (outs Index:$count);
  let assemblyFormat = "``$phase attr-dict `:` type($count)";
}

def LLM_DecodeStepsOp : LLM_Op<"decode_steps", [Pure]> {
  let summary = "Decode steps: generated tokens per sequence, minus one";
  let results = (outs Index:$count);
  let assemblyFormat = "attr-dict `:` type($count)";
}

def LLM_MicroBatchOp : LLM_Op<"microbatch"> {
  let summary = "The next micro-batch of the schedule";
  let description = [{
    Prefill micro-batch `index`, or micro-batch `index` of decode step
    `step` (both 0-based). The schedule's messages follow its order, so the
    loops take them in order.
  }];
  let arguments = (ins LLM_PhaseAttr:$phase, Index:$index,
                       Optional<Index>:$step);
  let results = (outs LLM_MicroBatchType:$result);
  let assemblyFormat = "``$phase $index (`step` $step^)? attr-dict";
  let hasVerifier = 1;
}

def LLM_InputTokensOp : LLM_Op<"input_tokens"> {
  let summary = "The token ids a micro-batch starts from (stage 0)";
  let description = [{
    The prompt rows in prefill; in decode, the tokens the last stage
    sampled for the micro-batch's sequences in the step before (waiting
    for them when they are still on their way).
  }];
  let arguments = (ins LLM_MicroBatchType:$microbatch);
  let results = (outs LLM_TokensType:$tokens);
  let assemblyFormat = "$microbatch attr-dict";
  let hasVerifier = 1;
}

def LLM_RecvOp : LLM_Op<"recv"> {
  let summary = "A micro-batch's hidden states, from the previous stage";
  let arguments = (ins LLM_MicroBatchType:$microbatch, I64Attr:$from);
  let results = (outs LLM_HiddenType:$result);
  let assemblyFormat = [{
    $microbatch `from` $from attr-dict `:` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def LLM_SendOp : LLM_Op<"send"> {
  let summary = "A micro-batch's hidden states, to the next stage";
  let arguments = (ins LLM_HiddenType:$input, I64Attr:$to);
  let assemblyFormat = "$input `to` $to attr-dict `:` qualified(type($input))";
  let hasVerifier = 1;
}

def LLM_SampleOp : LLM_Op<"sample"> {
  let summary = "The next token of each sequence, from its logits";
  let description = [{
    Greedy, or with the temperature and seed the program is started with;
    sampled in schedule order, so the tokens do not depend on the stage
    count.
  }];
  let arguments = (ins LLM_LogitsType:$logits);
  let results = (outs LLM_TokensType:$tokens);
  let assemblyFormat = "$logits attr-dict `:` qualified(type($logits))";
}

def LLM_ReturnTokensOp : LLM_Op<"return_tokens"> {
  let summary = "Sampled tokens, back to stage `to` (0), which feeds them";
  let arguments = (ins LLM_TokensType:$tokens, I64Attr:$to);
  let assemblyFormat = "$tokens `to` $to attr-dict";
  let hasVerifier = 1;
}

#endif // WEFT_DIALECTS_LLM_IR_LLMOPS_TD
