// RUN: weft-opt %s --convert-llm-to-emitc --split-input-file --verify-diagnostics

// Only a planned model becomes a serving program.
llm.model @unstaged attributes {arch = "llama2c", max_positions = 32 : i64, plan = #llm.plan<prefill_microbatch = 1, decode_microbatch = 1, batch = 1, prompt_len = 4, gen_len = 4, profile = "weft-cpu", profile_estimated = true, stages = [#llm.stage<device = "n0/0", device_type = "cpu", memory_bytes = 1>]>} {
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
    // expected-error @below {{has no stage: the model must be planned (llm-plan)}}
    %n0 = llm.rms_norm %h, @layers.0.attention_norm.weight eps 1.0e-05 : !llm.hidden<8>
    %a0 = llm.attention %n0 layer 0 heads 2 kv_heads 1 rope 1.0e+04 weights(q = @layers.0.attention.wq.weight, k = @layers.0.attention.wk.weight, v = @layers.0.attention.wv.weight, o = @layers.0.attention.wo.weight) {llm.stage = 0 : i64} : !llm.hidden<8>
    %r0 = llm.add %h, %a0 {llm.stage = 0 : i64} : !llm.hidden<8>
    %m0 = llm.rms_norm %r0, @layers.0.ffn_norm.weight eps 1.0e-05 {llm.stage = 0 : i64} : !llm.hidden<8>
    %f0 = llm.ffn %m0 layer 0 silu weights(gate = @layers.0.feed_forward.w1.weight, up = @layers.0.feed_forward.w3.weight, down = @layers.0.feed_forward.w2.weight) {llm.stage = 0 : i64} : !llm.hidden<8>
    %x0 = llm.add %r0, %f0 {llm.stage = 0 : i64} : !llm.hidden<8>
    %n = llm.rms_norm %x0, @norm.weight eps 1.0e-05 {llm.stage = 0 : i64} : !llm.hidden<8>
    %l = llm.lm_head %n, @tok_embeddings.weight {llm.stage = 0 : i64} : !llm.hidden<8> -> !llm.logits<16>
    return %l : !llm.logits<16>
  }
}

// -----

// expected-error @below {{has no plan: the model must be planned (llm-plan)}}
llm.model @unplanned attributes {arch = "llama2c", max_positions = 32 : i64} {
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
    %n = llm.rms_norm %x0, @norm.weight eps 1.0e-05 {llm.stage = 0 : i64} : !llm.hidden<8>
    %l = llm.lm_head %n, @tok_embeddings.weight {llm.stage = 0 : i64} : !llm.hidden<8> -> !llm.logits<16>
    return %l : !llm.logits<16>
  }
}

// -----

// Stage numbers may not skip one: rank 1 would have nothing to run.
llm.model @gap attributes {arch = "llama2c", max_positions = 32 : i64, plan = #llm.plan<prefill_microbatch = 1, decode_microbatch = 1, batch = 1, prompt_len = 4, gen_len = 4, profile = "weft-cpu", profile_estimated = true, stages = [#llm.stage<device = "n0/0", device_type = "cpu", memory_bytes = 1>, #llm.stage<device = "n0/1", device_type = "cpu", memory_bytes = 1>, #llm.stage<device = "n0/2", device_type = "cpu", memory_bytes = 1>]>} {
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
    // expected-error @below {{is on stage 2 but the previous op is on stage 0: stages must be numbered 0, 1, ... in order}}
    %n = llm.rms_norm %x0, @norm.weight eps 1.0e-05 {llm.stage = 2 : i64} : !llm.hidden<8>
    %l = llm.lm_head %n, @tok_embeddings.weight {llm.stage = 2 : i64} : !llm.hidden<8> -> !llm.logits<16>
    return %l : !llm.logits<16>
  }
}

// -----

// expected-error @below {{has a plan of 3 stages but its ops use 1}}
llm.model @unused attributes {arch = "llama2c", max_positions = 32 : i64, plan = #llm.plan<prefill_microbatch = 1, decode_microbatch = 1, batch = 1, prompt_len = 4, gen_len = 4, profile = "weft-cpu", profile_estimated = true, stages = [#llm.stage<device = "n0/0", device_type = "cpu", memory_bytes = 1>, #llm.stage<device = "n0/1", device_type = "cpu", memory_bytes = 1>, #llm.stage<device = "n0/2", device_type = "cpu", memory_bytes = 1>]>} {
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
    %n = llm.rms_norm %x0, @norm.weight eps 1.0e-05 {llm.stage = 0 : i64} : !llm.hidden<8>
    %l = llm.lm_head %n, @tok_embeddings.weight {llm.stage = 0 : i64} : !llm.hidden<8> -> !llm.logits<16>
    return %l : !llm.logits<16>
  }
}

// -----

// The runtimes run whole decoder layers; this one adds its FFN to the wrong
// residual.
llm.model @composition attributes {arch = "llama2c", max_positions = 32 : i64, plan = #llm.plan<prefill_microbatch = 1, decode_microbatch = 1, batch = 1, prompt_len = 4, gen_len = 4, profile = "weft-cpu", profile_estimated = true, stages = [#llm.stage<device = "n0/0", device_type = "cpu", memory_bytes = 1>]>} {
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
    // expected-error @below {{has no serving-runtime kernel here}}
    %n0 = llm.rms_norm %h, @layers.0.attention_norm.weight eps 1.0e-05 {llm.stage = 0 : i64} : !llm.hidden<8>
    %a0 = llm.attention %n0 layer 0 heads 2 kv_heads 1 rope 1.0e+04 weights(q = @layers.0.attention.wq.weight, k = @layers.0.attention.wk.weight, v = @layers.0.attention.wv.weight, o = @layers.0.attention.wo.weight) {llm.stage = 0 : i64} : !llm.hidden<8>
    %r0 = llm.add %h, %a0 {llm.stage = 0 : i64} : !llm.hidden<8>
    %m0 = llm.rms_norm %r0, @layers.0.ffn_norm.weight eps 1.0e-05 {llm.stage = 0 : i64} : !llm.hidden<8>
    %f0 = llm.ffn %m0 layer 0 silu weights(gate = @layers.0.feed_forward.w1.weight, up = @layers.0.feed_forward.w3.weight, down = @layers.0.feed_forward.w2.weight) {llm.stage = 0 : i64} : !llm.hidden<8>
    %x0 = llm.add %h, %f0 {llm.stage = 0 : i64} : !llm.hidden<8>
    %n = llm.rms_norm %x0, @norm.weight eps 1.0e-05 {llm.stage = 0 : i64} : !llm.hidden<8>
    %l = llm.lm_head %n, @tok_embeddings.weight {llm.stage = 0 : i64} : !llm.hidden<8> -> !llm.logits<16>
    return %l : !llm.logits<16>
  }
}

// -----

// The stage file holds one width for a layer's attention weights.
llm.model @widths attributes {arch = "llama2c", max_positions = 32 : i64, plan = #llm.plan<prefill_microbatch = 1, decode_microbatch = 1, batch = 1, prompt_len = 4, gen_len = 4, profile = "weft-cpu", profile_estimated = true, stages = [#llm.stage<device = "n0/0", device_type = "cpu", memory_bytes = 1>]>} {
  llm.weight @tok_embeddings.weight : tensor<16x8xf16>
  llm.weight @layers.0.attention_norm.weight : tensor<8xf32>
  llm.weight @layers.0.attention.wq.weight : tensor<8x8xf16>
  llm.weight @layers.0.attention.wk.weight : tensor<4x8xf16>
  llm.weight @layers.0.attention.wv.weight : tensor<4x8xf16>
  llm.weight @layers.0.attention.wo.weight : tensor<8x8x!quant.any<u4:f32>, #llm.group_quant<format = asym, group_size = 128>>
  llm.weight @layers.0.ffn_norm.weight : tensor<8xf32>
  llm.weight @layers.0.feed_forward.w1.weight : tensor<24x8xf16>
  llm.weight @layers.0.feed_forward.w2.weight : tensor<8x24xf16>
  llm.weight @layers.0.feed_forward.w3.weight : tensor<24x8xf16>
  llm.weight @norm.weight : tensor<8xf32>
  func.func @forward(%tokens: !llm.tokens) -> !llm.logits<16> {
    %h = llm.embed %tokens, @tok_embeddings.weight {llm.stage = 0 : i64} : !llm.hidden<8>
    %n0 = llm.rms_norm %h, @layers.0.attention_norm.weight eps 1.0e-05 {llm.stage = 0 : i64} : !llm.hidden<8>
    // expected-error @below {{o is stored at 4 bits but q at 16: the serving runtimes store a layer's attention weights at one width}}
    %a0 = llm.attention %n0 layer 0 heads 2 kv_heads 1 rope 1.0e+04 weights(q = @layers.0.attention.wq.weight, k = @layers.0.attention.wk.weight, v = @layers.0.attention.wv.weight, o = @layers.0.attention.wo.weight) {llm.stage = 0 : i64} : !llm.hidden<8>
    %r0 = llm.add %h, %a0 {llm.stage = 0 : i64} : !llm.hidden<8>
    %m0 = llm.rms_norm %r0, @layers.0.ffn_norm.weight eps 1.0e-05 {llm.stage = 0 : i64} : !llm.hidden<8>
    %f0 = llm.ffn %m0 layer 0 silu weights(gate = @layers.0.feed_forward.w1.weight, up = @layers.0.feed_forward.w3.weight, down = @layers.0.feed_forward.w2.weight) {llm.stage = 0 : i64} : !llm.hidden<8>
    %x0 = llm.add %r0, %f0 {llm.stage = 0 : i64} : !llm.hidden<8>
    %n = llm.rms_norm %x0, @norm.weight eps 1.0e-05 {llm.stage = 0 : i64} : !llm.hidden<8>
    %l = llm.lm_head %n, @tok_embeddings.weight {llm.stage = 0 : i64} : !llm.hidden<8> -> !llm.logits<16>
    return %l : !llm.logits<16>
  }
}

// -----

// Checkpoint types the runtimes do not store.
llm.model @bf16 attributes {arch = "llama2c", max_positions = 32 : i64, plan = #llm.plan<prefill_microbatch = 1, decode_microbatch = 1, batch = 1, prompt_len = 4, gen_len = 4, profile = "weft-cpu", profile_estimated = true, stages = [#llm.stage<device = "n0/0", device_type = "cpu", memory_bytes = 1>]>} {
  llm.weight @tok_embeddings.weight : tensor<16x8xf16>
  llm.weight @layers.0.attention_norm.weight : tensor<8xf32>
  llm.weight @layers.0.attention.wq.weight : tensor<8x8xf16>
  llm.weight @layers.0.attention.wk.weight : tensor<4x8xf16>
  llm.weight @layers.0.attention.wv.weight : tensor<4x8xf16>
  llm.weight @layers.0.attention.wo.weight : tensor<8x8xf16>
  llm.weight @layers.0.ffn_norm.weight : tensor<8xf32>
  llm.weight @layers.0.feed_forward.w1.weight : tensor<24x8xbf16>
  llm.weight @layers.0.feed_forward.w2.weight : tensor<8x24xf16>
  llm.weight @layers.0.feed_forward.w3.weight : tensor<24x8xbf16>
  llm.weight @norm.weight : tensor<8xf32>
  func.func @forward(%tokens: !llm.tokens) -> !llm.logits<16> {
    %h = llm.embed %tokens, @tok_embeddings.weight {llm.stage = 0 : i64} : !llm.hidden<8>
    %n0 = llm.rms_norm %h, @layers.0.attention_norm.weight eps 1.0e-05 {llm.stage = 0 : i64} : !llm.hidden<8>
    %a0 = llm.attention %n0 layer 0 heads 2 kv_heads 1 rope 1.0e+04 weights(q = @layers.0.attention.wq.weight, k = @layers.0.attention.wk.weight, v = @layers.0.attention.wv.weight, o = @layers.0.attention.wo.weight) {llm.stage = 0 : i64} : !llm.hidden<8>
    %r0 = llm.add %h, %a0 {llm.stage = 0 : i64} : !llm.hidden<8>
    %m0 = llm.rms_norm %r0, @layers.0.ffn_norm.weight eps 1.0e-05 {llm.stage = 0 : i64} : !llm.hidden<8>
    // expected-error @below {{gate is stored as bf16, which the serving runtimes do not hold (run llm-quantize)}}
    %f0 = llm.ffn %m0 layer 0 silu weights(gate = @layers.0.feed_forward.w1.weight, up = @layers.0.feed_forward.w3.weight, down = @layers.0.feed_forward.w2.weight) {llm.stage = 0 : i64} : !llm.hidden<8>
    %x0 = llm.add %r0, %f0 {llm.stage = 0 : i64} : !llm.hidden<8>
    %n = llm.rms_norm %x0, @norm.weight eps 1.0e-05 {llm.stage = 0 : i64} : !llm.hidden<8>
    %l = llm.lm_head %n, @tok_embeddings.weight {llm.stage = 0 : i64} : !llm.hidden<8> -> !llm.logits<16>
    return %l : !llm.logits<16>
  }
}

// -----

// A planned model whose schedule was never written.
// expected-error @below {{has no llm.pipeline for stage 0: its schedule must be written (llm-schedule) first}}
llm.model @unscheduled attributes {arch = "llama2c", max_positions = 32 : i64, plan = #llm.plan<prefill_microbatch = 1, decode_microbatch = 1, batch = 1, prompt_len = 4, gen_len = 4, profile = "weft-cpu", profile_estimated = true, stages = [#llm.stage<device = "n0/0", device_type = "cpu", memory_bytes = 1>]>} {
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
    %n = llm.rms_norm %x0, @norm.weight eps 1.0e-05 {llm.stage = 0 : i64} : !llm.hidden<8>
    %l = llm.lm_head %n, @tok_embeddings.weight {llm.stage = 0 : i64} : !llm.hidden<8> -> !llm.logits<16>
    return %l : !llm.logits<16>
  }
}

// -----

// expected-error @below {{no llm.model to lower}}
module {
}
