// RUN: weft-opt %S/Inputs/tiny-split.mlir --llm-schedule | FileCheck %s
// RUN: weft-opt %s --llm-schedule --split-input-file --verify-diagnostics | FileCheck %s --check-prefix=ONE

// Two stages: stage 0 starts each micro-batch from its tokens and sends its
// hidden states to stage 1, which samples and returns the tokens to stage
// 0. Both loop over the prefill micro-batches, then over decode steps and
// their micro-batches. @forward is gone; the stage functions stay.
// CHECK: func.func private @stage0
// CHECK: func.func private @stage1
// CHECK-NOT: func.func @forward
// CHECK-LABEL: llm.pipeline stage 0 {
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT: %[[NP:.*]] = llm.microbatch_count prefill : index
// CHECK-NEXT: scf.for %[[I:.*]] = %[[C0]] to %[[NP]] step %[[C1]] {
// CHECK-NEXT: %[[MB:.*]] = llm.microbatch prefill %[[I]]
// CHECK-NEXT: %[[T:.*]] = llm.input_tokens %[[MB]]
// CHECK-NEXT: %[[H:.*]] = func.call @stage0(%[[T]]) : (!llm.tokens) -> !llm.hidden<16>
// CHECK-NEXT: llm.send %[[H]] to 1 : !llm.hidden<16>
// CHECK-NEXT: }
// CHECK-NEXT: %[[STEPS:.*]] = llm.decode_steps : index
// CHECK-NEXT: %[[ND:.*]] = llm.microbatch_count decode : index
// CHECK-NEXT: scf.for %[[S:.*]] = %[[C0]] to %[[STEPS]] step %[[C1]] {
// CHECK-NEXT: scf.for %[[J:.*]] = %[[C0]] to %[[ND]] step %[[C1]] {
// CHECK-NEXT: %[[DMB:.*]] = llm.microbatch decode %[[J]] step %[[S]]
// CHECK-NEXT: llm.input_tokens %[[DMB]]
// CHECK-LABEL: llm.pipeline stage 1 {
// CHECK: %[[MB1:.*]] = llm.microbatch prefill
// CHECK-NEXT: %[[R:.*]] = llm.recv %[[MB1]] from 0 : !llm.hidden<16>
// CHECK-NEXT: %[[L:.*]] = func.call @stage1(%[[R]]) : (!llm.hidden<16>) -> !llm.logits<32>
// CHECK-NEXT: %[[TOK:.*]] = llm.sample %[[L]] : !llm.logits<32>
// CHECK-NEXT: llm.return_tokens %[[TOK]] to 0

// One stage: its micro-batches start from tokens and end sampled, their
// tokens fed back to itself.
// ONE-LABEL: llm.pipeline stage 0 {
// ONE: %[[MB:.*]] = llm.microbatch prefill
// ONE-NEXT: %[[T:.*]] = llm.input_tokens %[[MB]]
// ONE-NEXT: %[[L:.*]] = func.call @stage0(%[[T]]) : (!llm.tokens) -> !llm.logits<16>
// ONE-NEXT: %[[S:.*]] = llm.sample %[[L]] : !llm.logits<16>
// ONE-NEXT: llm.return_tokens %[[S]] to 0
llm.model @one attributes {arch = "llama2c", max_positions = 8 : i64} {
  llm.weight @tok : tensor<16x8xf16>
  llm.weight @norm : tensor<8xf32>
  func.func private @stage0(%t: !llm.tokens) -> !llm.logits<16> attributes {llm.stage = 0 : i64} {
    %h = llm.embed %t, @tok : !llm.hidden<8>
    %n = llm.rms_norm %h, @norm eps 1.0e-05 : !llm.hidden<8>
    %l = llm.lm_head %n, @tok : !llm.hidden<8> -> !llm.logits<16>
    return %l : !llm.logits<16>
  }
  func.func @forward(%t: !llm.tokens) -> !llm.logits<16> {
    %l = call @stage0(%t) : (!llm.tokens) -> !llm.logits<16>
    return %l : !llm.logits<16>
  }
}

// -----

// @forward must be the chain of stage calls llm-split-stages writes.
llm.model @unsplit attributes {arch = "llama2c", max_positions = 8 : i64} {
  llm.weight @tok : tensor<16x8xf16>
  func.func @forward(%t: !llm.tokens) -> !llm.logits<16> {
    // expected-error @below {{is not a stage call or a transfer: llm-schedule needs @forward as llm-split-stages writes it}}
    %h = llm.embed %t, @tok : !llm.hidden<8>
    %l = llm.lm_head %h, @tok : !llm.hidden<8> -> !llm.logits<16>
    return %l : !llm.logits<16>
  }
}

// -----

llm.model @skip attributes {arch = "llama2c", max_positions = 8 : i64} {
  llm.weight @tok : tensor<16x8xf16>
  func.func private @stage0(%t: !llm.tokens) -> !llm.hidden<8> attributes {llm.stage = 0 : i64} {
    %h = llm.embed %t, @tok : !llm.hidden<8>
    return %h : !llm.hidden<8>
  }
  func.func private @stage1(%h: !llm.hidden<8>) -> !llm.logits<16> attributes {llm.stage = 1 : i64} {
    %l = llm.lm_head %h, @tok : !llm.hidden<8> -> !llm.logits<16>
    return %l : !llm.logits<16>
  }
  func.func @forward(%t: !llm.tokens) -> !llm.logits<16> {
    %h = call @stage0(%t) : (!llm.tokens) -> !llm.hidden<8>
    // expected-error @below {{does not move the result of stage 0 to stage 1}}
    %m = llm.transfer %h from 0 to 2 : !llm.hidden<8>
    %l = call @stage1(%m) : (!llm.hidden<8>) -> !llm.logits<16>
    return %l : !llm.logits<16>
  }
}

// -----

llm.model @order attributes {arch = "llama2c", max_positions = 8 : i64} {
  llm.weight @tok : tensor<16x8xf16>
  func.func private @stage1(%t: !llm.tokens) -> !llm.logits<16> attributes {llm.stage = 1 : i64} {
    %h = llm.embed %t, @tok : !llm.hidden<8>
    %l = llm.lm_head %h, @tok : !llm.hidden<8> -> !llm.logits<16>
    return %l : !llm.logits<16>
  }
  func.func @forward(%t: !llm.tokens) -> !llm.logits<16> {
    // expected-error @below {{is not the call of stage 0 on the previous stage's result}}
    %l = call @stage1(%t) : (!llm.tokens) -> !llm.logits<16>
    return %l : !llm.logits<16>
  }
}

// -----

// expected-error @below {{has no @forward to schedule}}
llm.model @none attributes {arch = "llama2c", max_positions = 8 : i64} {
}
