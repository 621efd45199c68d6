// RUN: weft-opt %S/Inputs/tiny-quantized.mlir --llm-split-stages | FileCheck %s
// RUN: weft-opt %s --llm-split-stages --split-input-file --verify-diagnostics

// Stage 0 (the embedding and layer 0) and stage 1 (layers 1 and 2, the
// final norm and the head) become functions; @forward calls them with the
// hidden state moving from stage 0 to stage 1 in between. Ops lose their
// llm.stage: the function says it.
// CHECK-LABEL: func.func private @stage0(%arg0: !llm.tokens) -> !llm.hidden<16> attributes {llm.stage = 0 : i64}
// CHECK-NEXT: %[[E:.*]] = llm.embed %arg0, @tok_embeddings.weight : !llm.hidden<16>
// CHECK: llm.attention {{.*}} layer 0 {{.*}} : !llm.hidden<16>
// CHECK: llm.ffn {{.*}} layer 0
// CHECK-NEXT: %[[X:.*]] = llm.add {{.*}} : !llm.hidden<16>
// CHECK-NEXT: return %[[X]] : !llm.hidden<16>
// CHECK-LABEL: func.func private @stage1(%arg0: !llm.hidden<16>) -> !llm.logits<32> attributes {llm.stage = 1 : i64}
// CHECK-NEXT: llm.rms_norm %arg0, @layers.1.attention_norm.weight
// CHECK-NOT: llm.stage
// CHECK: %[[L:.*]] = llm.lm_head {{.*}}, @tok_embeddings.weight : !llm.hidden<16> -> !llm.logits<32>
// CHECK-NEXT: return %[[L]] : !llm.logits<32>
// CHECK-LABEL: func.func @forward(%arg0: !llm.tokens) -> !llm.logits<32>
// CHECK-NEXT: %[[H:.*]] = call @stage0(%arg0) : (!llm.tokens) -> !llm.hidden<16>
// CHECK-NEXT: %[[T:.*]] = llm.transfer %[[H]] from 0 to 1 : !llm.hidden<16>
// CHECK-NEXT: %[[O:.*]] = call @stage1(%[[T]]) : (!llm.hidden<16>) -> !llm.logits<32>
// CHECK-NEXT: return %[[O]] : !llm.logits<32>

// A cut between a layer's norm and its attention: both the residual and
// the normalised states would have to move.
llm.model @inside attributes {arch = "llama2c", max_positions = 32 : i64, plan = #llm.plan<prefill_microbatch = 1, decode_microbatch = 1, batch = 1, prompt_len = 4, gen_len = 4, profile = "weft-cpu", profile_estimated = true, stages = [#llm.stage<device = "n0/0", device_type = "cpu", memory_bytes = 1>, #llm.stage<device = "n0/1", device_type = "cpu", memory_bytes = 1>, #llm.stage<device = "n0/2", device_type = "cpu", memory_bytes = 1>]>} {
  llm.weight @tok_embeddings.weight : tensor<16x8xf16>
  llm.weight @layers.0.attention_norm.weight : tensor<8xf32>
  llm.weight @layers.0.attention.wq.weight : tensor<8x8xf16>
  llm.weight @layers.0.attention.wk.weight : tensor<4x8xf16>
  llm.weight @layers.0.attention.wv.weight : tensor<4x8xf16>
  llm.weight @layers.0.attention.wo.weight : tensor<8x8xf16>
  llm.weight @layers.0.ffn_norm.weight : tensor<8xf32>
  llm.weight @layers.0.feed_forward.w1.weight : tensor<24x8xf16>
  llm.weight @layers.0.feed_forward.w2.weight : tensor<8x24xf16>
  llm.weight @layers.0.feed_forward.w3.weight : tensor<24x8xf16>
  llm.weight @norm.weight : tensor<8xf32>
  func.func @forward(%tokens: !llm.tokens) -> !llm.logits<16> {
    %h = llm.embed %tokens, @tok_embeddings.weight {llm.stage = 0 : i64} : !llm.hidden<8>
    %n0 = llm.rms_norm %h, @layers.0.attention_norm.weight eps 1.0e-05 {llm.stage = 0 : i64} : !llm.hidden<8>
    // expected-error @below {{starts stage 1 but 2 values cross from stage 0: the serving runtime moves one hidden state per micro-batch (plans cut between decoder layers)}}
    %a0 = llm.attention %n0 layer 0 heads 2 kv_heads 1 rope 1.0e+04 weights(q = @layers.0.attention.wq.weight, k = @layers.0.attention.wk.weight, v = @layers.0.attention.wv.weight, o = @layers.0.attention.wo.weight) {llm.stage = 1 : i64} : !llm.hidden<8>
    %r0 = llm.add %h, %a0 {llm.stage = 1 : i64} : !llm.hidden<8>
    %m0 = llm.rms_norm %r0, @layers.0.ffn_norm.weight eps 1.0e-05 {llm.stage = 1 : i64} : !llm.hidden<8>
    %f0 = llm.ffn %m0 layer 0 silu weights(gate = @layers.0.feed_forward.w1.weight, up = @layers.0.feed_forward.w3.weight, down = @layers.0.feed_forward.w2.weight) {llm.stage = 1 : i64} : !llm.hidden<8>
    %x0 = llm.add %r0, %f0 {llm.stage = 1 : i64} : !llm.hidden<8>
    %n = llm.rms_norm %x0, @norm.weight eps 1.0e-05 {llm.stage = 1 : i64} : !llm.hidden<8>
    %l = llm.lm_head %n, @tok_embeddings.weight {llm.stage = 1 : i64} : !llm.hidden<8> -> !llm.logits<16>
    return %l : !llm.logits<16>
  }
}

// -----

// A value used two stages after it is made.
llm.model @skip attributes {arch = "llama2c", max_positions = 32 : i64, plan = #llm.plan<prefill_microbatch = 1, decode_microbatch = 1, batch = 1, prompt_len = 4, gen_len = 4, profile = "weft-cpu", profile_estimated = true, stages = [#llm.stage<device = "n0/0", device_type = "cpu", memory_bytes = 1>, #llm.stage<device = "n0/1", device_type = "cpu", memory_bytes = 1>, #llm.stage<device = "n0/2", device_type = "cpu", memory_bytes = 1>]>} {
  llm.weight @tok_embeddings.weight : tensor<16x8xf16>
  llm.weight @layers.0.attention_norm.weight : tensor<8xf32>
  llm.weight @layers.0.attention.wq.weight : tensor<8x8xf16>
  llm.weight @layers.0.attention.wk.weight : tensor<4x8xf16>
  llm.weight @layers.0.attention.wv.weight : tensor<4x8xf16>
  llm.weight @layers.0.attention.wo.weight : tensor<8x8xf16>
  llm.weight @layers.0.ffn_norm.weight : tensor<8xf32>
  llm.weight @layers.0.feed_forward.w1.weight : tensor<24x8xf16>
  llm.weight @layers.0.feed_forward.w2.weight : tensor<8x24xf16>
  llm.weight @layers.0.feed_forward.w3.weight : tensor<24x8xf16>
  llm.weight @norm.weight : tensor<8xf32>
  func.func @forward(%tokens: !llm.tokens) -> !llm.logits<16> {
    %h = llm.embed %tokens, @tok_embeddings.weight {llm.stage = 0 : i64} : !llm.hidden<8>
    %n0 = llm.rms_norm %h, @layers.0.attention_norm.weight eps 1.0e-05 {llm.stage = 0 : i64} : !llm.hidden<8>
    %a0 = llm.attention %n0 layer 0 heads 2 kv_heads 1 rope 1.0e+04 weights(q = @layers.0.attention.wq.weight, k = @layers.0.attention.wk.weight, v = @layers.0.attention.wv.weight, o = @layers.0.attention.wo.weight) {llm.stage = 0 : i64} : !llm.hidden<8>
    %r0 = llm.add %h, %a0 {llm.stage = 0 : i64} : !llm.hidden<8>
    %m0 = llm.rms_norm %r0, @layers.0.ffn_norm.weight eps 1.0e-05 {llm.stage = 0 : i64} : !llm.hidden<8>
    %f0 = llm.ffn %m0 layer 0 silu weights(gate = @layers.0.feed_forward.w1.weight, up = @layers.0.feed_forward.w3.weight, down = @layers.0.feed_forward.w2.weight) {llm.stage = 0 : i64} : !llm.hidden<8>
    %x0 = llm.add %r0, %f0 {llm.stage = 0 : i64} : !llm.hidden<8>
    %n = llm.rms_norm %x0, @norm.weight eps 1.0e-05 {llm.stage = 1 : i64} : !llm.hidden<8>
    // expected-error @below {{on stage 2 uses a value of stage 0: a value moves from one stage to the next only}}
    %l = llm.lm_head %x0, @tok_embeddings.weight {llm.stage = 2 : i64} : !llm.hidden<8> -> !llm.logits<16>
    return %l : !llm.logits<16>
  }
}

// -----

// Split once only.
llm.model @split attributes {arch = "llama2c", max_positions = 32 : i64} {
  // expected-error @below {{is a stage function already: the model is split}}
  func.func private @stage0() attributes {llm.stage = 0 : i64} { return }
  func.func @forward() { return }
}

// -----

// expected-error @below {{has no @forward to split}}
llm.model @empty attributes {arch = "llama2c", max_positions = 32 : i64} {
}

// -----

// An op the plan did not place.
llm.model @unplaced attributes {arch = "llama2c", max_positions = 32 : i64, plan = #llm.plan<prefill_microbatch = 1, decode_microbatch = 1, batch = 1, prompt_len = 4, gen_len = 4, profile = "weft-cpu", profile_estimated = true, stages = [#llm.stage<device = "n0/0", device_type = "cpu", memory_bytes = 1>, #llm.stage<device = "n0/1", device_type = "cpu", memory_bytes = 1>, #llm.stage<device = "n0/2", device_type = "cpu", memory_bytes = 1>]>} {
  llm.weight @tok_embeddings.weight : tensor<16x8xf16>
  llm.weight @layers.0.attention_norm.weight : tensor<8xf32>
  llm.weight @layers.0.attention.wq.weight : tensor<8x8xf16>
  llm.weight @layers.0.attention.wk.weight : tensor<4x8xf16>
  llm.weight @layers.0.attention.wv.weight : tensor<4x8xf16>
  llm.weight @layers.0.attention.wo.weight : tensor<8x8xf16>
  llm.weight @layers.0.ffn_norm.weight : tensor<8xf32>
  llm.weight @layers.0.feed_forward.w1.weight : tensor<24x8xf16>
  llm.weight @layers.0.feed_forward.w2.weight : tensor<8x24xf16>
  llm.weight @layers.0.feed_forward.w3.weight : tensor<24x8xf16>
  llm.weight @norm.weight : tensor<8xf32>
  func.func @forward(%tokens: !llm.tokens) -> !llm.logits<16> {
    %h = llm.embed %tokens, @tok_embeddings.weight {llm.stage = 0 : i64} : !llm.hidden<8>
    %n0 = llm.rms_norm %h, @layers.0.attention_norm.weight eps 1.0e-05 {llm.stage = 0 : i64} : !llm.hidden<8>
    %a0 = llm.attention %n0 layer 0 heads 2 kv_heads 1 rope 1.0e+04 weights(q = @layers.0.attention.wq.weight, k = @layers.0.attention.wk.weight, v = @layers.0.attention.wv.weight, o = @layers.0.attention.wo.weight) {llm.stage = 0 : i64} : !llm.hidden<8>
    // expected-error @below {{has no stage: the model must be planned (llm-plan)}}
    %r0 = llm.add %h, %a0 : !llm.hidden<8>
    %m0 = llm.rms_norm %r0, @layers.0.ffn_norm.weight eps 1.0e-05 {llm.stage = 0 : i64} : !llm.hidden<8>
    %f0 = llm.ffn %m0 layer 0 silu weights(gate = @layers.0.feed_forward.w1.weight, up = @layers.0.feed_forward.w3.weight, down = @layers.0.feed_forward.w2.weight) {llm.stage = 0 : i64} : !llm.hidden<8>
    %x0 = llm.add %r0, %f0 {llm.stage = 0 : i64} : !llm.hidden<8>
    %n = llm.rms_norm %x0, @norm.weight eps 1.0e-05 {llm.stage = 0 : i64} : !llm.hidden<8>
    %l = llm.lm_head %n, @tok_embeddings.weight {llm.stage = 0 : i64} : !llm.hidden<8> -> !llm.logits<16>
    return %l : !llm.logits<16>
  }
}
