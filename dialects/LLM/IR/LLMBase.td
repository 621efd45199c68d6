//===- LLMBase.td - llm dialect definition -----------------*- tablegen -*-===//
#ifndef WEFT_DIALECTS_LLM_IR_LLMBASE_TD
#define WEFT_DIALECTS_LLM_IR_LLMBASE_TD

include "mlir/IR/OpBase.td"

def LLM_Dialect : Dialect {
  let name = "llm";
  let summary = "Decoder-only transformers as dataflow, and how they are served";
  let description = [{
    The `llm` dialect describes a decoder-only transformer as a dataflow
    program over the hidden states of one micro-batch, and the steps that
    make it a pipelined serving program (docs/dialects/llm.md):

    * an `llm.model` holds the model's weights (`llm.weight`, one symbol per
      checkpoint tensor, typed with how it is stored: fp32, fp16, or a
      group-wise quantised `!quant.any` element with a `#llm.group_quant`
      encoding) and its functions;
    * `@forward` maps the tokens of a micro-batch to their logits through
      `llm.embed`, `llm.rms_norm`/`llm.layer_norm`, `llm.attention`,
      `llm.ffn`, `llm.add` and `llm.lm_head`, all on `!llm.hidden<D>` values;
    * planning (`llm-plan`) places every op on a pipeline stage
      (`llm.stage`) and chooses attention and FFN bits; `llm-quantize` turns
      bits into weight types; `llm-split-stages` outlines one function per
      stage with `llm.transfer` between them; `llm-schedule` writes the
      micro-batched prefill/decode schedule of every stage (`llm.pipeline`).
  }];
  let cppNamespace = "::weft::llm";
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  // `llm.stage` as a discardable attribute on ops and functions.
  let hasOperationAttrVerify = 1;
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::quant::QuantizationDialect"];
  let extraClassDeclaration = [{
    void registerTypes();
    void registerAttributes();

    /// The pipeline stage an op (or an outlined stage function) runs on.
    static constexpr ::llvm::StringLiteral getStageAttrName() {
      return ::llvm::StringLiteral("llm.stage");
    }
  }];
}

class LLM_Op<string mnemonic, list<Trait> traits = []>
    : Op<LLM_Dialect, mnemonic, traits>;

#endif // WEFT_DIALECTS_LLM_IR_LLMBASE_TD
