//===- LLMTypes.td - llm dialect types ---------------------*- tablegen -*-===//
//
// Values of the dataflow: what one micro-batch carries between the parts of
// a model. Their row count (the micro-batch's tokens) is known at run time
// only, so the types name the width of a row.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_DIALECTS_LLM_IR_LLMTYPES_TD
#define WEFT_DIALECTS_LLM_IR_LLMTYPES_TD

include "dialects/LLM/IR/LLMBase.td"
include "mlir/IR/AttrTypeBase.td"

class LLM_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<LLM_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def LLM_HiddenType : LLM_Type<"Hidden", "hidden"> {
  let summary = "Hidden states of a micro-batch: one row of `dim` values per token";
  let description = [{
    The activations of one micro-batch between two parts of the model:
    rows x `dim` values (fp32 on the host), one row per token the
    micro-batch runs (all prompt tokens in prefill, one per sequence in
    decode).
  }];
  let parameters = (ins "int64_t":$dim);
  let assemblyFormat = "`<` $dim `>`";
  let genVerifyDecl = 1;
}

def LLM_TokensType : LLM_Type<"Tokens", "tokens"> {
  let summary = "Token ids of a micro-batch, one per row";
}

def LLM_LogitsType : LLM_Type<"Logits", "logits"> {
  let summary = "Next-token logits of the rows a micro-batch samples";
  let parameters = (ins "int64_t":$vocab);
  let assemblyFormat = "`<` $vocab `>`";
  let genVerifyDecl = 1;
}

def LLM_MicroBatchType : LLM_Type<"MicroBatch", "microbatch"> {
  let summary = "One micro-batch of the serving schedule";
  let description = [{
    Which sequences a micro-batch holds, at which positions, and in which
    phase (prefill: all prompt rows; decode: one row per sequence). The
    schedule (`llm.pipeline`) produces them; `llm.input_tokens` and
    `llm.recv` start the dataflow of one.
  }];
}

#endif // WEFT_DIALECTS_LLM_IR_LLMTYPES_TD
