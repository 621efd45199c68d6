//===- LLMAttrs.td - llm dialect attributes and enums ------*- tablegen -*-===//
//
// How weights are stored (`#llm.group_quant`, the encoding of a quantised
// weight's tensor type) and what a serving plan decided (`#llm.plan`,
// `#llm.stage`).
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_DIALECTS_LLM_IR_LLMATTRS_TD
#define WEFT_DIALECTS_LLM_IR_LLMATTRS_TD

include "dialects/LLM/IR/LLMBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/TensorEncoding.td"
include "mlir/IR/EnumAttr.td"

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

def LLM_Activation : I32EnumAttr<"Activation", "FFN activation", [
    I32EnumAttrCase<"Silu", 0, "silu">,
    I32EnumAttrCase<"Relu", 1, "relu">,
    I32EnumAttrCase<"Gelu", 2, "gelu">,          // the erf form
    I32EnumAttrCase<"GeluTanh", 3, "gelu_tanh">  // the tanh approximation
  ]> {
  let cppNamespace = "::weft::llm";
  let genSpecializedAttr = 0;
}
def LLM_ActivationAttr : EnumAttr<LLM_Dialect, LLM_Activation, "activation">;

def LLM_QuantFormat : I32EnumAttr<"QuantFormat",
    "layout of a group-wise quantised matrix", [
    // docs/quantization.md: per group of `group_size` inputs of a row, an
    // fp16 scale and a u8 zero-point; codes packed little-endian per row.
    I32EnumAttrCase<"Asymmetric", 0, "asym">
  ]> {
  let cppNamespace = "::weft::llm";
  let genSpecializedAttr = 0;
}

def LLM_Phase : I32EnumAttr<"Phase", "serving phase", [
    I32EnumAttrCase<"Prefill", 0, "prefill">,
    I32EnumAttrCase<"Decode", 1, "decode">
  ]> {
  let cppNamespace = "::weft::llm";
  let genSpecializedAttr = 0;
}
def LLM_PhaseAttr : EnumAttr<LLM_Dialect, LLM_Phase, "phase"> {
  let assemblyFormat = "$value";
}

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

class LLM_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<LLM_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def LLM_GroupQuantAttr : LLM_Attr<"GroupQuant", "group_quant",
    [DeclareAttrInterfaceMethods<VerifiableTensorEncoding>]> {
  let summary = "Group-wise quantisation of a weight matrix (tensor encoding)";
  let description = [{
    The encoding of a weight `tensor<N x K x !quant.any<uB:f32>, ...>`: every
    row of K inputs is split into groups of `group_size` consecutive inputs,
    each with its own scale and zero-point; the element type's storage
    width B (2 to 8) is the bits of a code. MLIR 19's `quant` types have no
    group-wise form, hence this attribute; the element type says what a
    code is, the encoding how codes are grouped and laid out.

    ```mlir
    llm.weight @layers.0.attention.wq.weight
        : tensor<64x64x!quant.any<u4:f32>, #llm.group_quant<format = asym, group_size = 128>>
    ```
  }];
  let parameters = (ins EnumParameter<LLM_QuantFormat>:$format,
                        "int64_t":$group_size);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def LLM_StageAttr : LLM_Attr<"Stage", "stage"> {
  let summary = "Where one pipeline stage of a plan runs";
  let description = [{
    The cluster device of a stage (`"n0/1"`), its type (a name of the
    device database) and the memory the plan predicts for it in bytes.
  }];
  let parameters = (ins StringRefParameter<>:$device,
                        StringRefParameter<>:$device_type,
                        "int64_t":$memory_bytes);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def LLM_PlanAttr : LLM_Attr<"Plan", "plan"> {
  let summary = "The serving plan of a model";
  let description = [{
    What `llm-plan` decided for the whole model: the micro-batch sizes of
    prefill and decode, the workload the plan was made for (sequences,
    prompt and generated tokens), the runtime profile its predictions use
    (and whether that profile is an estimate), and its stages in pipeline
    order (`#llm.stage`). Each op of the model says which stage runs it
    (`llm.stage`).
  }];
  let extraClassDeclaration = [{
    /// The stages, in pipeline order.
    ::llvm::SmallVector<StageAttr> getStageList() const;
    int64_t getNumStages() const { return getStages().size(); }
  }];
  let parameters = (ins "int64_t":$prefill_microbatch,
                        "int64_t":$decode_microbatch,
                        "int64_t":$batch, "int64_t":$prompt_len,
                        "int64_t":$gen_len,
                        StringRefParameter<>:$profile,
                        "::mlir::BoolAttr":$profile_estimated,
                        "::mlir::ArrayAttr":$stages);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

#endif // WEFT_DIALECTS_LLM_IR_LLMATTRS_TD
