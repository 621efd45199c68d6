// The named pipelines of `weft build-model` run exactly the passes one by
// one: planned, quantised, split and scheduled, then lowered to EmitC.
// RUN: weft-opt %S/../LLM/Inputs/tiny.mlir --weft-serve-pipeline="plan=%S/../LLM/Inputs/plan-2-stages.json group-size=8" -mlir-print-op-on-diagnostic=false > %t.pipeline.mlir 2> %t.pipeline.remarks
// RUN: weft-opt %S/../LLM/Inputs/tiny.mlir --llm-plan="plan=%S/../LLM/Inputs/plan-2-stages.json" --llm-quantize="group-size=8" --llm-split-stages --llm-schedule -mlir-print-op-on-diagnostic=false > %t.passes.mlir 2> %t.passes.remarks
// RUN: diff %t.pipeline.mlir %t.passes.mlir
// RUN: diff %t.pipeline.remarks %t.passes.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.pipeline.remarks
// RUN: FileCheck %s < %t.pipeline.mlir
// RUN: weft-opt %t.pipeline.mlir --weft-serve-to-emitc-pipeline > %t.emitc.pipeline.mlir
// RUN: weft-opt %t.pipeline.mlir --convert-llm-to-emitc > %t.emitc.passes.mlir
// RUN: diff %t.emitc.pipeline.mlir %t.emitc.passes.mlir
// RUN: FileCheck %s --check-prefix=EMITC < %t.emitc.pipeline.mlir
// Without plan=, the input must be planned already (weft plan --emit=mlir):
// the pipeline starts at llm-quantize.
// RUN: weft-opt %S/../LLM/Inputs/tiny.mlir --llm-plan="plan=%S/../LLM/Inputs/plan-2-stages.json" -o %t.planned.mlir 2>/dev/null
// RUN: weft-opt %t.planned.mlir --weft-serve-pipeline="group-size=8" > %t.from-planned.mlir
// RUN: diff %t.pipeline.mlir %t.from-planned.mlir
// RUN: not weft-opt %S/../LLM/Inputs/tiny.mlir --weft-serve-pipeline -mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=UNPLANNED

// REMARK: remark: plan: 2 stages
// CHECK: llm.stage = 0
// CHECK: llm.stage = 1
// CHECK: llm.pipeline
// EMITC: emitc.func @weft_stage0_pipeline
// EMITC: emitc.func @weft_stage1_pipeline
// UNPLANNED: error: 'llm.attention' op has no bits: llm-quantize stores weights as the plan says (run llm-plan first)
