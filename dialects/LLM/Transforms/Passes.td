//===- Passes.td - llm dialect passes ----------------------*- tablegen -*-===//
//
// The LLM path, one pass per step (docs/dialects/llm.md): llm-plan decides,
// llm-quantize stores, llm-split-stages cuts, llm-schedule orders; then
// convert-llm-to-emitc (include/weft/Conversion/Passes.td) prints.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_DIALECTS_LLM_TRANSFORMS_PASSES_TD
#define WEFT_DIALECTS_LLM_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def LLMPlan : Pass<"llm-plan", "::mlir::ModuleOp"> {
  let summary = "Plan how the module's model is served: stages, bits, "
                "micro-batches";
  let description = [{
    Runs the serving planner (lib/Planner, docs/planner.md) as an analysis
    of the module's `llm.model`: the shape it costs is read from the IR
    (`describeModel`), the cost model and runtime profile predict each
    candidate, and the plan is recorded in the IR: every op of `@forward`
    gets the `llm.stage` of its decoder layer (the embedding the first
    stage's, the final norm and head the last stage's), attention and FFN
    ops get their `bits`, and the model a `#llm.plan` with the micro-batch
    sizes, the workload, the profile and, per stage, the device and the
    memory the plan predicts.

    With `plan=FILE` the plan of that file (plan.json) is applied instead
    of searched; its devices form the cluster unless `cluster=` names one,
    and its workload is the default workload. The prediction of the plan
    is reported as remarks on the model (throughput, phase times, quality
    loss; per stage its layers, bits and memory against capacity).
  }];
  let options = [
    Option<"clusterFile", "cluster", "std::string", "",
           "Cluster file (DESIGN.md JSON, or YAML) to plan for">,
    Option<"planFile", "plan", "std::string", "",
           "Apply this plan.json instead of searching">,
    Option<"profileName", "profile", "std::string", "",
           "Runtime profile: a file or a built-in name (default: weft-cpu "
           "on CPU clusters, weft-cuda-estimated otherwise)">,
    Option<"weightsPath", "weights", "std::string", "",
           "Checkpoint whose weights give the quality indicator (default: "
           "the prior)">,
    Option<"batch", "batch", "int64_t", "0",
           "Sequences served together (default: the plan file's, else 32)">,
    Option<"promptLen", "prompt-len", "int64_t", "0",
           "Prompt tokens (default: the plan file's, else 512)">,
    Option<"genLen", "gen-len", "int64_t", "0",
           "Generated tokens (default: the plan file's, else 128)">,
    Option<"planner", "planner", "std::string", "\"fast\"",
           "fast, uniform, pipeedge or exact">,
    Option<"maxQualityLoss", "max-quality-loss", "double", "-1",
           "Largest predicted quality loss (negative: the default target)">,
    Option<"qualityFloorBits", "quality-floor-bits", "int", "0",
           "Loss no worse than every layer at these bits">,
    ListOption<"bits", "bits", "int",
               "Bit-widths layers may use (default 16,8,4,3)">
  ];
}

def LLMQuantize : Pass<"llm-quantize", "::mlir::ModuleOp"> {
  let summary = "Store every weight as the plan says: fp16 or group-wise codes";
  let description = [{
    Turns the plan's bits into the types of the weights, which are then the
    one record of how each tensor is stored (the stage-file writer reads
    them, the lowering states them): the matrices of an attention or FFN op
    with `bits` 16 become `f16`, with 8, 4 or 3 bits
    `!quant.any<uB:f32>` codes with a `#llm.group_quant` encoding of
    `group-size` inputs; embedding tables and the head are `f16`; norm
    weights and biases `f32`, as the serving runtimes hold them. The `bits`
    attributes are dropped. A weight two ops want stored differently is an
    error; so is an attention or FFN op without `bits` (run llm-plan
    first). Remarks give the bytes of weights per stage and in all.
  }];
  let options = [
    Option<"groupSize", "group-size", "int64_t", "128",
           "Inputs per quantisation group (a positive multiple of 8)">
  ];
}

def LLMSplitStages : Pass<"llm-split-stages", "::mlir::ModuleOp"> {
  let summary = "One function per pipeline stage, with llm.transfer between "
                "them";
  let description = [{
    Outlines the ops of each stage of `@forward` (by their `llm.stage`)
    into `func.func private @stage<k>` with `llm.stage = k`, and rewrites
    `@forward` as the chain of their calls with an `llm.transfer` from
    stage k to k+1 between consecutive calls:

    ```mlir
    func.func @forward(%tokens: !llm.tokens) -> !llm.logits<V> {
      %0 = call @stage0(%tokens) : (!llm.tokens) -> !llm.hidden<D>
      %1 = llm.transfer %0 from 0 to 1 : !llm.hidden<D>
      %2 = call @stage1(%1) : (!llm.hidden<D>) -> !llm.logits<V>
      return %2 : !llm.logits<V>
    }
    ```

    Stage 0 takes the tokens, the last stage returns the logits, and
    exactly one hidden state crosses each boundary: that is what the
    serving runtime moves between ranks. A plan that cuts elsewhere (two
    values live across a boundary, a value skipping a stage, ops of a stage
    not contiguous) is an error at the op.
  }];
}

def LLMSchedule : Pass<"llm-schedule", "::mlir::ModuleOp"> {
  let summary = "The micro-batched prefill/decode schedule of every stage, "
                "as IR";
  let description = [{
    Replaces `@forward` (the calls of the stage functions with
    `llm.transfer` between them, as llm-split-stages writes it) with one
    `llm.pipeline` per stage: what that stage's rank runs. Each loops over
    the prefill micro-batches, then over the decode steps and the
    micro-batches of each step, and runs each micro-batch through the
    stage: its input (`llm.input_tokens` on stage 0, where tokens enter;
    `llm.recv` from the previous stage otherwise, where a transfer
    arrives), the call of the stage function, and its output
    (`llm.send` to the next stage, where a transfer leaves; on the last
    stage `llm.sample` and `llm.return_tokens` to stage 0, which feeds the
    tokens in the next decode step). Every rank's loops visit the same
    micro-batches in the same order, which is what lets the messages
    between stages go without headers.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

#endif // WEFT_DIALECTS_LLM_TRANSFORMS_PASSES_TD
