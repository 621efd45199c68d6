// RUN: weft-opt %s --llm-plan="cluster=%weft_src/examples/llm/clusters/laptop.json" --split-input-file --verify-diagnostics
// RUN: not weft-opt %S/Inputs/tiny.mlir --llm-plan 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: not weft-opt %S/Inputs/tiny.mlir --llm-plan="plan=%S/Inputs/plan-bad-layers.json" 2>&1 | FileCheck %s --check-prefix=LAYERS
// RUN: not weft-opt %S/Inputs/tiny.mlir --llm-plan="cluster=%weft_src/examples/llm/clusters/laptop.json bits=16,5" 2>&1 | FileCheck %s --check-prefix=BITS
// RUN: not weft-opt %S/Inputs/tiny.mlir --llm-plan="cluster=%weft_src/examples/llm/clusters/laptop.json planner=magic" 2>&1 | FileCheck %s --check-prefix=PLANNER
// RUN: not weft-opt %S/Inputs/tiny.mlir --llm-plan="cluster=%t.missing.json" 2>&1 | FileCheck %s --check-prefix=MISSING

// NONE: error: llm-plan: needs a cluster to plan for (cluster=FILE) or a plan to apply (plan=FILE)
// LAYERS: error: llm-plan: {{.*}}plan-bad-layers.json: stages: cover layers [0, 2) but the model has 3
// BITS: error: llm-plan: bits: unsupported bit-width 5 (supported: 16, 8, 4, 3)
// PLANNER: error: llm-plan: planner: unknown 'magic'
// MISSING: error: llm-plan: {{.*}}missing.json

// A model the planner cannot cost: it has no head.
// expected-error @below {{needs an embedding, a head and at least one attention and FFN to be costed}}
llm.model @headless attributes {arch = "llama2c", max_positions = 8 : i64} {
  llm.weight @tok : tensor<16x8xf32>
  func.func @forward(%t: !llm.tokens) -> !llm.hidden<8> {
    %h = llm.embed %t, @tok : !llm.hidden<8>
    return %h : !llm.hidden<8>
  }
}

// -----

// One module holds one model.
llm.model @a attributes {arch = "llama2c", max_positions = 8 : i64} {
}
// expected-error @below {{is a second model: one module holds one model}}
llm.model @b attributes {arch = "llama2c", max_positions = 8 : i64} {
}

// -----

// expected-error @below {{no llm.model in the module}}
module {
}
