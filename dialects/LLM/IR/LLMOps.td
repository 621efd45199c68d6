//===- LLMOps.td - llm dialect operations ------------------*- tablegen -*-===//
//
// A model is a container op whose body lists its parts in execution order.
// Parts carry shapes through the enclosing model and placement through
// optional `stage` / `device` / `device_type` attributes set by the planner.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_DIALECTS_LLM_IR_LLMOPS_TD
#define WEFT_DIALECTS_LLM_IR_LLMOPS_TD

include "dialects/LLM/IR/LLMBase.td"
include "mlir/IR/OpBase.td"
include "mlir/IR/SymbolInterfaces.td"

// Placement shared by every part of a planned model.
class LLM_PartOp<string mnemonic, list<Trait> traits = []>
    : LLM_Op<mnemonic, !listconcat(traits, [HasParent<"ModelOp">])> {
  dag placement = (ins OptionalAttr<I64Attr>:$stage,
                       OptionalAttr<StrAttr>:$device,
                       OptionalAttr<StrAttr>:$device_type);
}

def LLM_ModelOp : LLM_Op<"model", [IsolatedFromAbove, NoTerminator,
                                   SingleBlock, Symbol]> {
  let summary = "A decoder-only transformer (and, once planned, its plan)";
  let description = [{
    Shapes of the model; the body holds `llm.embedding`, `layers`
    `llm.decoder_layer` ops with indices 0, 1, ..., `llm.final_norm` and
    `llm.lm_head`, in that order. A planned model also carries the
    micro-batch sizes and workload of its plan, the memory its plan
    predicts for each stage (bytes, in stage order), and the runtime profile
    the plan was made for (its name, and whether it is an estimate).

    ```mlir
    llm.model @llama attributes {hidden = 4096 : i64, ...} {
      llm.embedding {stage = 0 : i64, device = "n0/0"}
      llm.decoder_layer 0 {attn_bits = 16 : i32, ffn_bits = 16 : i32,
                           stage = 0 : i64, device = "n0/0"}
      ...
      llm.final_norm {stage = 1 : i64, device = "n1/0"}
      llm.lm_head {stage = 1 : i64, device = "n1/0"}
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, StrAttr:$arch,
                       I64Attr:$hidden, I64Attr:$intermediate,
                       I64Attr:$layers, I64Attr:$heads, I64Attr:$kv_heads,
                       I64Attr:$vocab, BoolAttr:$tied_embeddings,
                       BoolAttr:$gated_ffn,
                       OptionalAttr<I64Attr>:$prefill_microbatch,
                       OptionalAttr<I64Attr>:$decode_microbatch,
                       OptionalAttr<I64Attr>:$batch,
                       OptionalAttr<I64Attr>:$prompt_len,
                       OptionalAttr<I64Attr>:$gen_len,
                       OptionalAttr<DenseI64ArrayAttr>:$stage_memory,
                       OptionalAttr<StrAttr>:$profile,
                       OptionalAttr<BoolAttr>:$profile_estimated);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "$sym_name attr-dict-with-keyword $body";
  let hasVerifier = 1;
}

def LLM_EmbeddingOp : LLM_PartOp<"embedding"> {
  let summary = "Token embedding lookup (vocab x hidden, fp16)";
  let arguments = placement;
  let assemblyFormat = "attr-dict";
}

def LLM_DecoderLayerOp : LLM_PartOp<"decoder_layer"> {
  let summary = "One decoder layer: attention and FFN, quantised separately";
  let description = [{
    `attn_bits` are the weight bits of the q/k/v/o projections, `ffn_bits`
    those of the FFN matrices: 16 (fp16) or 8, 4, 3 (weight-only, one fp16
    scale per 128 weights).
  }];
  let arguments = !con((ins I64Attr:$index,
                            DefaultValuedAttr<I32Attr, "16">:$attn_bits,
                            DefaultValuedAttr<I32Attr, "16">:$ffn_bits),
                       placement);
  let assemblyFormat = "$index attr-dict";
  let hasVerifier = 1;
}

def LLM_FinalNormOp : LLM_PartOp<"final_norm"> {
  let summary = "Norm after the last decoder layer";
  let arguments = placement;
  let assemblyFormat = "attr-dict";
}

def LLM_LMHeadOp : LLM_PartOp<"lm_head"> {
  let summary = "Classifier (hidden x vocab, fp16); tied to the embedding "
                "when the model says so";
  let arguments = placement;
  let assemblyFormat = "attr-dict";
}

#endif // WEFT_DIALECTS_LLM_IR_LLMOPS_TD
