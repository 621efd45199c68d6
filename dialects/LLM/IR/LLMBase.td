//===- LLMBase.td - llm dialect definition -----------------*- tablegen -*-===//
#ifndef WEFT_DIALECTS_LLM_IR_LLMBASE_TD
#define WEFT_DIALECTS_LLM_IR_LLMBASE_TD

include "mlir/IR/OpBase.td"

def LLM_Dialect : Dialect {
  let name = "llm";
  let summary = "Decoder-only transformer models and their serving plans";
  let description = [{
    The `llm` dialect describes a decoder-only transformer at the level the
    serving planner works on: one `llm.model` holding the embedding, one
    `llm.decoder_layer` per layer (attention and FFN quantised separately),
    the final norm and the LM head. Planning annotates every part with its
    pipeline stage, device and weight bit-widths; code generation (issue 5)
    lowers the annotated model. See docs/planner.md.
  }];
  let cppNamespace = "::weft::llm";
}

class LLM_Op<string mnemonic, list<Trait> traits = []>
    : Op<LLM_Dialect, mnemonic, traits>;

#endif // WEFT_DIALECTS_LLM_IR_LLMBASE_TD
