// RUN: weft-opt %s | weft-opt | FileCheck %s
// RUN: weft-opt %s --mlir-print-op-generic | weft-opt | FileCheck %s
// RUN: weft-opt %s --verify-roundtrip | FileCheck %s

// Round trip of every llm type, attribute and operation.

// A LLaMA-style layer: RMSNorm, RoPE attention with grouped KV heads, a
// gated SiLU FFN; Q/K/V at 4 bits and gate/up at 8 (each group alike), the
// output and down projections at other widths.
// CHECK-LABEL: llm.model @llama attributes {arch = "llama", max_positions = 64 : i64
// CHECK-SAME: plan = #llm.plan<prefill_microbatch = 2, decode_microbatch = 3, batch = 4, prompt_len = 8, gen_len = 5, profile = "weft-cpu", profile_estimated = true, stages = [#llm.stage<device = "host/0", device_type = "cpu", memory_bytes = 1000>, #llm.stage<device = "host/1", device_type = "cpu", memory_bytes = 2000>]>
// CHECK: llm.weight @embed : tensor<16x8xf16>
// CHECK: llm.weight @wq : tensor<8x8x!quant.any<u4:f32>, #llm.group_quant<format = asym, group_size = 8>>
// CHECK: llm.weight @wo : tensor<8x8xf16>
// CHECK: llm.weight @w2 : tensor<8x24x!quant.any<u3:f32>, #llm.group_quant<format = asym, group_size = 16>>
// CHECK: llm.weight @head : tensor<16x8xf32>
// CHECK-LABEL: func.func @forward(%{{.*}}: !llm.tokens) -> !llm.logits<16>
// CHECK: %[[H:.*]] = llm.embed %{{.*}}, @embed {llm.stage = 0 : i64} : !llm.hidden<8>
// CHECK: %[[N:.*]] = llm.rms_norm %[[H]], @attn_norm eps 1.000000e-05 : !llm.hidden<8>
// CHECK: %[[A:.*]] = llm.attention %[[N]] layer 0 heads 2 kv_heads 1 rope 1.000000e+04 weights(q = @wq, k = @wk, v = @wv, o = @wo) {bits = 4 : i32} : !llm.hidden<8>
// CHECK: %[[R:.*]] = llm.add %[[H]], %[[A]] : !llm.hidden<8>
// CHECK: llm.ffn %{{.*}} layer 0 silu weights(gate = @w1, up = @w3, down = @w2) : !llm.hidden<8>
// CHECK: %[[T:.*]] = llm.transfer %{{.*}} from 0 to 1 : !llm.hidden<8>
// CHECK: llm.lm_head %{{.*}}, @head {llm.stage = 1 : i64} : !llm.hidden<8> -> !llm.logits<16>
llm.model @llama attributes {arch = "llama", max_positions = 64 : i64,
    plan = #llm.plan<prefill_microbatch = 2, decode_microbatch = 3, batch = 4,
                     prompt_len = 8, gen_len = 5, profile = "weft-cpu",
                     profile_estimated = true,
                     stages = [#llm.stage<device = "host/0", device_type = "cpu", memory_bytes = 1000>,
                               #llm.stage<device = "host/1", device_type = "cpu", memory_bytes = 2000>]>} {
  llm.weight @embed : tensor<16x8xf16>
  llm.weight @attn_norm : tensor<8xf32>
  llm.weight @wq : tensor<8x8x!quant.any<u4:f32>, #llm.group_quant<format = asym, group_size = 8>>
  llm.weight @wk : tensor<4x8x!quant.any<u4:f32>, #llm.group_quant<format = asym, group_size = 8>>
  llm.weight @wv : tensor<4x8x!quant.any<u4:f32>, #llm.group_quant<format = asym, group_size = 8>>
  llm.weight @wo : tensor<8x8xf16>
  llm.weight @ffn_norm : tensor<8xf32>
  llm.weight @w1 : tensor<24x8x!quant.any<u8:f32>, #llm.group_quant<format = asym, group_size = 8>>
  llm.weight @w3 : tensor<24x8x!quant.any<u8:f32>, #llm.group_quant<format = asym, group_size = 8>>
  llm.weight @w2 : tensor<8x24x!quant.any<u3:f32>, #llm.group_quant<format = asym, group_size = 16>>
  llm.weight @norm : tensor<8xbf16>
  llm.weight @head : tensor<16x8xf32>
  func.func @forward(%tokens: !llm.tokens) -> !llm.logits<16> {
    %h = llm.embed %tokens, @embed {llm.stage = 0 : i64} : !llm.hidden<8>
    %n = llm.rms_norm %h, @attn_norm eps 1.0e-05 : !llm.hidden<8>
    %a = llm.attention %n layer 0 heads 2 kv_heads 1 rope 1.0e+04
           weights(q = @wq, k = @wk, v = @wv, o = @wo) {bits = 4 : i32} : !llm.hidden<8>
    %r = llm.add %h, %a : !llm.hidden<8>
    %n2 = llm.rms_norm %r, @ffn_norm eps 1.0e-05 : !llm.hidden<8>
    %f = llm.ffn %n2 layer 0 silu weights(gate = @w1, up = @w3, down = @w2) : !llm.hidden<8>
    %r2 = llm.add %r, %f : !llm.hidden<8>
    %t = llm.transfer %r2 from 0 to 1 : !llm.hidden<8>
    %n3 = llm.rms_norm %t, @norm eps 1.0e-05 : !llm.hidden<8>
    %l = llm.lm_head %n3, @head {llm.stage = 1 : i64} : !llm.hidden<8> -> !llm.logits<16>
    return %l : !llm.logits<16>
  }
}

// An OPT-style layer: learned positions added at embedding (offset 2),
// LayerNorm, biased projections, no rotary embedding, a ReLU FFN without a
// gate.
// CHECK-LABEL: llm.model @opt
// CHECK: llm.embed %{{.*}}, @tok positions @pos offset 2 : !llm.hidden<8>
// CHECK: llm.layer_norm %{{.*}}, @ln_w, @ln_b eps 1.000000e-05 : !llm.hidden<8>
// CHECK: llm.attention %{{.*}} layer 0 heads 2 kv_heads 2 weights(q = @q, k = @k, v = @v, o = @o) biases(q = @bq, k = @bk, v = @bv, o = @bo) : !llm.hidden<8>
// CHECK: llm.ffn %{{.*}} layer 0 relu weights(up = @fc1, down = @fc2) biases(up = @b1, down = @b2) : !llm.hidden<8>
llm.model @opt attributes {arch = "opt", max_positions = 32 : i64} {
  llm.weight @tok : tensor<16x8xf16>
  llm.weight @pos : tensor<34x8xf16>
  llm.weight @ln_w : tensor<8xf32>
  llm.weight @ln_b : tensor<8xf32>
  llm.weight @q : tensor<8x8xf16>
  llm.weight @k : tensor<8x8xf16>
  llm.weight @v : tensor<8x8xf16>
  llm.weight @o : tensor<8x8xf16>
  llm.weight @bq : tensor<8xf32>
  llm.weight @bk : tensor<8xf32>
  llm.weight @bv : tensor<8xf32>
  llm.weight @bo : tensor<8xf32>
  llm.weight @fc1 : tensor<20x8xf16>
  llm.weight @b1 : tensor<20xf32>
  llm.weight @fc2 : tensor<8x20xf16>
  llm.weight @b2 : tensor<8xf32>
  func.func @forward(%tokens: !llm.tokens) -> !llm.logits<16> {
    %h = llm.embed %tokens, @tok positions @pos offset 2 : !llm.hidden<8>
    %n = llm.layer_norm %h, @ln_w, @ln_b eps 1.0e-05 : !llm.hidden<8>
    %a = llm.attention %n layer 0 heads 2 kv_heads 2
           weights(q = @q, k = @k, v = @v, o = @o)
           biases(q = @bq, k = @bk, v = @bv, o = @bo) : !llm.hidden<8>
    %r = llm.add %h, %a : !llm.hidden<8>
    %f = llm.ffn %r layer 0 relu weights(up = @fc1, down = @fc2)
           biases(up = @b1, down = @b2) : !llm.hidden<8>
    %l = llm.lm_head %f, @tok : !llm.hidden<8> -> !llm.logits<16>
    return %l : !llm.logits<16>
  }
}

// A BLOOM-style attention: one fused QKV matrix and ALiBi; a tanh-GELU FFN.
// CHECK-LABEL: llm.model @bloom
// CHECK: llm.attention %{{.*}} layer 3 heads 2 kv_heads 2 alibi weights(qkv = @qkv, o = @o) biases(qkv = @bqkv, o = @bo) : !llm.hidden<8>
// CHECK: llm.ffn %{{.*}} layer 3 gelu_tanh weights(up = @up, down = @down) : !llm.hidden<8>
llm.model @bloom attributes {arch = "bloom", max_positions = 32 : i64} {
  llm.weight @qkv : tensor<24x8xf16>
  llm.weight @bqkv : tensor<24xf32>
  llm.weight @o : tensor<8x8xf16>
  llm.weight @bo : tensor<8xf32>
  llm.weight @up : tensor<32x8xf16>
  llm.weight @down : tensor<8x32xf16>
  func.func @layer(%x: !llm.hidden<8>) -> !llm.hidden<8> {
    %a = llm.attention %x layer 3 heads 2 kv_heads 2 alibi
           weights(qkv = @qkv, o = @o) biases(qkv = @bqkv, o = @bo) : !llm.hidden<8>
    %f = llm.ffn %a layer 3 gelu_tanh weights(up = @up, down = @down) : !llm.hidden<8>
    return %f : !llm.hidden<8>
  }
}

// The schedule of a stage (llm-schedule): a middle stage receives from the
// previous stage and sends to the next.
// CHECK-LABEL: llm.model @scheduled
// CHECK: llm.pipeline stage 1 {
// CHECK: %[[N:.*]] = llm.microbatch_count prefill : index
// CHECK: %[[MB:.*]] = llm.microbatch prefill %{{.*}}
// CHECK-NEXT: %[[H:.*]] = llm.recv %[[MB]] from 0 : !llm.hidden<8>
// CHECK-NEXT: %[[Y:.*]] = func.call @stage1(%[[H]])
// CHECK-NEXT: llm.send %[[Y]] to 2 : !llm.hidden<8>
// CHECK: %[[S:.*]] = llm.decode_steps : index
// CHECK: llm.microbatch decode %{{.*}} step %{{.*}}
// CHECK: llm.pipeline stage 2 {
// CHECK: %[[T:.*]] = llm.sample %{{.*}} : !llm.logits<16>
// CHECK-NEXT: llm.return_tokens %[[T]] to 0
// CHECK: llm.pipeline stage 0 {
// CHECK: llm.input_tokens %{{.*}}
llm.model @scheduled attributes {arch = "llama2c", max_positions = 8 : i64} {
  llm.weight @tok : tensor<16x8xf16>
  func.func private @stage0(%t: !llm.tokens) -> !llm.hidden<8> attributes {llm.stage = 0 : i64} {
    %h = llm.embed %t, @tok : !llm.hidden<8>
    return %h : !llm.hidden<8>
  }
  func.func private @stage1(%h: !llm.hidden<8>) -> !llm.hidden<8> attributes {llm.stage = 1 : i64} {
    return %h : !llm.hidden<8>
  }
  func.func private @stage2(%h: !llm.hidden<8>) -> !llm.logits<16> attributes {llm.stage = 2 : i64} {
    %l = llm.lm_head %h, @tok : !llm.hidden<8> -> !llm.logits<16>
    return %l : !llm.logits<16>
  }
  llm.pipeline stage 1 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = llm.microbatch_count prefill : index
    scf.for %i = %c0 to %n step %c1 {
      %mb = llm.microbatch prefill %i
      %h = llm.recv %mb from 0 : !llm.hidden<8>
      %y = func.call @stage1(%h) : (!llm.hidden<8>) -> !llm.hidden<8>
      llm.send %y to 2 : !llm.hidden<8>
    }
    %steps = llm.decode_steps : index
    %d = llm.microbatch_count decode : index
    scf.for %s = %c0 to %steps step %c1 {
      scf.for %j = %c0 to %d step %c1 {
        %mb = llm.microbatch decode %j step %s
        %h = llm.recv %mb from 0 : !llm.hidden<8>
        %y = func.call @stage1(%h) : (!llm.hidden<8>) -> !llm.hidden<8>
        llm.send %y to 2 : !llm.hidden<8>
      }
    }
  }
  llm.pipeline stage 2 {
    %c0 = arith.constant 0 : index
    %mb = llm.microbatch prefill %c0
    %h = llm.recv %mb from 1 : !llm.hidden<8>
    %l = func.call @stage2(%h) : (!llm.hidden<8>) -> !llm.logits<16>
    %t = llm.sample %l : !llm.logits<16>
    llm.return_tokens %t to 0
  }
  llm.pipeline stage 0 {
    %c0 = arith.constant 0 : index
    %mb = llm.microbatch prefill %c0
    %t = llm.input_tokens %mb
    %h = func.call @stage0(%t) : (!llm.tokens) -> !llm.hidden<8>
    llm.send %h to 1 : !llm.hidden<8>
  }
}
