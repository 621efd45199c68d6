// RUN: weft-opt %s -split-input-file -verify-diagnostics

// One case per verifier error of the llm types, attributes and operations.

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

// expected-error @+1 {{hidden state width must be positive, got 0}}
func.func @hidden_zero(%x: !llm.hidden<0>) { return }

// -----

// expected-error @+1 {{vocabulary size must be positive, got -3}}
func.func @logits_negative(%x: !llm.logits<-3>) { return }

// -----

//===----------------------------------------------------------------------===//
// #llm.group_quant as a tensor encoding
//===----------------------------------------------------------------------===//

// expected-error @+1 {{group_size must be a positive multiple of 8, got 12}}
func.func @group_size(%x: tensor<4x16x!quant.any<u4:f32>, #llm.group_quant<format = asym, group_size = 12>>) { return }

// -----

// expected-error @+1 {{group-wise quantisation needs a matrix, got rank 1}}
func.func @group_vector(%x: tensor<16x!quant.any<u4:f32>, #llm.group_quant<format = asym, group_size = 8>>) { return }

// -----

// expected-error @+1 {{group-wise quantised elements must be !quant.any<uB:f32>, got 'f16'}}
func.func @group_float(%x: tensor<4x16xf16, #llm.group_quant<format = asym, group_size = 8>>) { return }

// -----

// expected-error @+1 {{group-wise codes must be unsigned and 2 to 8 bits wide, got '!quant.any<i4:f32>'}}
func.func @group_signed(%x: tensor<4x16x!quant.any<i4:f32>, #llm.group_quant<format = asym, group_size = 8>>) { return }

// -----

// expected-error @+1 {{group-wise codes must be unsigned and 2 to 8 bits wide, got '!quant.any<u16:f32>'}}
func.func @group_wide(%x: tensor<4x16x!quant.any<u16:f32>, #llm.group_quant<format = asym, group_size = 8>>) { return }

// -----

// expected-error @+1 {{group-wise codes must express f32, got '!quant.any<u4:f16>'}}
func.func @group_expressed(%x: tensor<4x16x!quant.any<u4:f16>, #llm.group_quant<format = asym, group_size = 8>>) { return }

// -----

// expected-error @+2 {{expected ::weft::llm::QuantFormat to be one of: asym}}
// expected-error @+1 {{failed to parse LLM_GroupQuantAttr parameter 'format'}}
func.func @group_format(%x: tensor<4x16x!quant.any<u4:f32>, #llm.group_quant<format = sym, group_size = 8>>) { return }

// -----

//===----------------------------------------------------------------------===//
// #llm.stage, #llm.plan
//===----------------------------------------------------------------------===//

// expected-error @+1 {{a stage needs a device and a device type}}
func.func @stage_device() attributes {s = #llm.stage<device = "", device_type = "cpu", memory_bytes = 0>} { return }

// -----

// expected-error @+1 {{memory_bytes must be non-negative, got -1}}
func.func @stage_memory() attributes {s = #llm.stage<device = "n0/0", device_type = "cpu", memory_bytes = -1>} { return }

// -----

// expected-error @+1 {{decode_microbatch must be at least 1, got 0}}
func.func @plan_microbatch() attributes {p = #llm.plan<prefill_microbatch = 1, decode_microbatch = 0, batch = 1, prompt_len = 1, gen_len = 1, profile = "weft-cpu", profile_estimated = true, stages = [#llm.stage<device = "n0/0", device_type = "cpu", memory_bytes = 0>]>} { return }

// -----

// expected-error @+1 {{a plan needs at least one stage}}
func.func @plan_empty() attributes {p = #llm.plan<prefill_microbatch = 1, decode_microbatch = 1, batch = 1, prompt_len = 1, gen_len = 1, profile = "weft-cpu", profile_estimated = true, stages = []>} { return }

// -----

// expected-error @+1 {{stages must be #llm.stage attributes, got 3 : i64}}
func.func @plan_stage_kind() attributes {p = #llm.plan<prefill_microbatch = 1, decode_microbatch = 1, batch = 1, prompt_len = 1, gen_len = 1, profile = "weft-cpu", profile_estimated = false, stages = [3]>} { return }

// -----

//===----------------------------------------------------------------------===//
// llm.stage (discardable)
//===----------------------------------------------------------------------===//

// expected-error @+1 {{'llm.stage' must be non-negative, got -1}}
func.func @stage_negative() attributes {llm.stage = -1 : i64} { return }

// -----

// expected-error @+1 {{'llm.stage' must be an i64 stage index}}
func.func @stage_kind() attributes {llm.stage = "first"} { return }

// -----

// expected-error @+1 {{unknown llm attribute 'llm.bits'}}
func.func @unknown_attribute() attributes {llm.bits = 4 : i64} { return }

// -----

//===----------------------------------------------------------------------===//
// llm.model, llm.weight
//===----------------------------------------------------------------------===//

// expected-error @+1 {{max_positions must be positive, got 0}}
llm.model @positions attributes {arch = "llama", max_positions = 0 : i64} {
}

// -----

llm.model @foreign attributes {arch = "llama", max_positions = 8 : i64} {
  // expected-error @+1 {{cannot be part of an llm.model (weights, functions and pipelines only)}}
  %c = arith.constant 0 : i32
}

// -----

llm.model @late attributes {arch = "llama", max_positions = 8 : i64,
    plan = #llm.plan<prefill_microbatch = 1, decode_microbatch = 1, batch = 1, prompt_len = 1, gen_len = 1, profile = "weft-cpu", profile_estimated = true, stages = [#llm.stage<device = "n0/0", device_type = "cpu", memory_bytes = 0>]>} {
  // expected-error @+1 {{is on stage 1 but the plan has 1 stage}}
  func.func @f() attributes {llm.stage = 1 : i64} { return }
}

// -----

// expected-error @+1 {{'llm.weight' op expects parent op 'llm.model'}}
llm.weight @loose : tensor<4xf32>

// -----

llm.model @m attributes {arch = "llama", max_positions = 8 : i64} {
  // expected-error @+1 {{must be a vector or a matrix, got rank 3}}
  llm.weight @cube : tensor<2x2x2xf32>
}

// -----

llm.model @m attributes {arch = "llama", max_positions = 8 : i64} {
  // expected-error @+1 {{must be stored as f32, f16, bf16 or group-wise quantised codes, got 'i8'}}
  llm.weight @ints : tensor<4x4xi8>
}

// -----

llm.model @m attributes {arch = "llama", max_positions = 8 : i64} {
  // expected-error @+1 {{is quantised but has no #llm.group_quant encoding}}
  llm.weight @bare : tensor<4x8x!quant.any<u4:f32>>
}

// -----

llm.model @m attributes {arch = "llama", max_positions = 8 : i64} {
  // expected-error @+1 {{of float elements cannot have an encoding}}
  llm.weight @encoded : tensor<4x8xf16, "layout">
}

// -----

//===----------------------------------------------------------------------===//
// llm.embed
//===----------------------------------------------------------------------===//

llm.model @m attributes {arch = "opt", max_positions = 8 : i64} {
  llm.weight @tok : tensor<16x8xf16>
  func.func @f(%t: !llm.tokens) {
    // expected-error @+1 {{has a position offset but no positions table}}
    %h = llm.embed %t, @tok {offset = 2 : i64} : !llm.hidden<8>
    return
  }
}

// -----

llm.model @m attributes {arch = "llama", max_positions = 8 : i64} {
  llm.weight @tok : tensor<16x4xf16>
  func.func @f(%t: !llm.tokens) {
    // expected-error @+1 {{table @tok has shape 16x4, expected 16x8}}
    %h = llm.embed %t, @tok : !llm.hidden<8>
    return
  }
}

// -----

llm.model @m attributes {arch = "llama", max_positions = 8 : i64} {
  llm.weight @tok : tensor<16x8x!quant.any<u8:f32>, #llm.group_quant<format = asym, group_size = 8>>
  func.func @f(%t: !llm.tokens) {
    // expected-error @+1 {{table @tok must be stored as floats, not quantised}}
    %h = llm.embed %t, @tok : !llm.hidden<8>
    return
  }
}

// -----

llm.model @m attributes {arch = "llama", max_positions = 8 : i64} {
  func.func @f(%t: !llm.tokens) {
    // expected-error @+1 {{table @missing does not name an llm.weight}}
    %h = llm.embed %t, @missing : !llm.hidden<8>
    return
  }
}

// -----

//===----------------------------------------------------------------------===//
// Norms
//===----------------------------------------------------------------------===//

llm.model @m attributes {arch = "llama", max_positions = 8 : i64} {
  llm.weight @g : tensor<8xf32>
  func.func @f(%x: !llm.hidden<8>) {
    // expected-error @+1 {{eps must be positive and finite, got 0}}
    %y = llm.rms_norm %x, @g eps 0.0 : !llm.hidden<8>
    return
  }
}

// -----

llm.model @m attributes {arch = "opt", max_positions = 8 : i64} {
  llm.weight @g : tensor<8xf32>
  llm.weight @b : tensor<6xf32>
  func.func @f(%x: !llm.hidden<8>) {
    // expected-error @+1 {{bias @b has shape 6, expected 8}}
    %y = llm.layer_norm %x, @g, @b eps 1.0e-05 : !llm.hidden<8>
    return
  }
}

// -----

//===----------------------------------------------------------------------===//
// llm.attention
//===----------------------------------------------------------------------===//

llm.model @m attributes {arch = "llama", max_positions = 8 : i64} {
  llm.weight @q : tensor<8x8xf16>
  llm.weight @kv : tensor<4x8xf16>
  func.func @f(%x: !llm.hidden<8>) {
    // expected-error @+1 {{heads (3) must divide the width (8) and kv_heads (1) must divide heads}}
    %y = llm.attention %x layer 0 heads 3 kv_heads 1 weights(q = @q, k = @kv, v = @kv, o = @q) : !llm.hidden<8>
    return
  }
}

// -----

llm.model @m attributes {arch = "llama", max_positions = 8 : i64} {
  llm.weight @q : tensor<8x8xf16>
  func.func @f(%x: !llm.hidden<8>) {
    // expected-error @+1 {{head counts must be positive}}
    %y = llm.attention %x layer 0 heads 0 kv_heads 1 weights(q = @q, k = @q, v = @q, o = @q) : !llm.hidden<8>
    return
  }
}

// -----

llm.model @m attributes {arch = "llama", max_positions = 8 : i64} {
  llm.weight @q : tensor<8x8xf16>
  func.func @f(%x: !llm.hidden<8>) {
    // expected-error @+1 {{layer must be non-negative}}
    %y = llm.attention %x layer -1 heads 2 kv_heads 2 weights(q = @q, k = @q, v = @q, o = @q) : !llm.hidden<8>
    return
  }
}

// -----

llm.model @m attributes {arch = "llama", max_positions = 8 : i64} {
  llm.weight @q : tensor<8x8xf16>
  func.func @f(%x: !llm.hidden<8>) {
    // expected-error @+1 {{cannot use both rope and alibi}}
    %y = llm.attention %x layer 0 heads 2 kv_heads 2 rope 1.0e+04 weights(q = @q, k = @q, v = @q, o = @q) {alibi} : !llm.hidden<8>
    return
  }
}

// -----

llm.model @m attributes {arch = "llama", max_positions = 8 : i64} {
  llm.weight @q : tensor<8x8xf16>
  func.func @f(%x: !llm.hidden<8>) {
    // expected-error @+1 {{rope theta must be positive and finite}}
    %y = llm.attention %x layer 0 heads 2 kv_heads 2 rope 0.0 weights(q = @q, k = @q, v = @q, o = @q) : !llm.hidden<8>
    return
  }
}

// -----

llm.model @m attributes {arch = "llama", max_positions = 8 : i64} {
  llm.weight @q : tensor<8x8xf16>
  func.func @f(%x: !llm.hidden<8>) {
    // expected-error @+1 {{needs either q, k and v weights or one fused qkv weight}}
    %y = llm.attention %x layer 0 heads 2 kv_heads 2 weights(q = @q, k = @q, o = @q) : !llm.hidden<8>
    return
  }
}

// -----

llm.model @m attributes {arch = "llama", max_positions = 8 : i64} {
  llm.weight @q : tensor<8x8xf16>
  llm.weight @qkv : tensor<24x8xf16>
  func.func @f(%x: !llm.hidden<8>) {
    // expected-error @+1 {{needs either q, k and v weights or one fused qkv weight}}
    %y = llm.attention %x layer 0 heads 2 kv_heads 2 weights(q = @q, qkv = @qkv, o = @q) : !llm.hidden<8>
    return
  }
}

// -----

llm.model @m attributes {arch = "llama", max_positions = 8 : i64} {
  llm.weight @qkv : tensor<24x8xf16>
  llm.weight @o : tensor<8x8xf16>
  llm.weight @b : tensor<8xf32>
  func.func @f(%x: !llm.hidden<8>) {
    // expected-error @+1 {{biases must follow the weights' form (fused qkv or separate q, k, v)}}
    %y = llm.attention %x layer 0 heads 2 kv_heads 2 weights(qkv = @qkv, o = @o) biases(q = @b) : !llm.hidden<8>
    return
  }
}

// -----

llm.model @m attributes {arch = "llama", max_positions = 8 : i64} {
  llm.weight @q : tensor<8x8xf16>
  llm.weight @k : tensor<8x8xf16>
  func.func @f(%x: !llm.hidden<8>) {
    // expected-error @+1 {{k @k has shape 8x8, expected 4x8}}
    %y = llm.attention %x layer 0 heads 2 kv_heads 1 weights(q = @q, k = @k, v = @k, o = @q) : !llm.hidden<8>
    return
  }
}

// -----

llm.model @m attributes {arch = "llama", max_positions = 8 : i64} {
  llm.weight @q : tensor<8x8x!quant.any<u4:f32>, #llm.group_quant<format = asym, group_size = 8>>
  llm.weight @k : tensor<8x8x!quant.any<u4:f32>, #llm.group_quant<format = asym, group_size = 8>>
  llm.weight @v : tensor<8x8x!quant.any<u8:f32>, #llm.group_quant<format = asym, group_size = 8>>
  llm.weight @o : tensor<8x8xf16>
  func.func @f(%x: !llm.hidden<8>) {
    // expected-error @+1 {{v is stored as '!quant.any<u8:f32>' but q as '!quant.any<u4:f32>': Q, K and V are one fused GEMM and must be quantised alike}}
    %y = llm.attention %x layer 0 heads 2 kv_heads 2 weights(q = @q, k = @k, v = @v, o = @o) : !llm.hidden<8>
    return
  }
}

// -----

llm.model @m attributes {arch = "llama", max_positions = 8 : i64} {
  llm.weight @q : tensor<8x8xf16>
  func.func @f(%x: !llm.hidden<8>) {
    // expected-error @+1 {{attribute 'bits' failed to satisfy constraint: 32-bit signless integer attribute whose value is 16, 8, 4 or 3}}
    %y = llm.attention %x layer 0 heads 2 kv_heads 2 weights(q = @q, k = @q, v = @q, o = @q) {bits = 5 : i32} : !llm.hidden<8>
    return
  }
}

// -----

llm.model @m attributes {arch = "llama", max_positions = 8 : i64} {
  llm.weight @q : tensor<8x8xf16>
  func.func @f(%x: !llm.hidden<8>) {
    // expected-error @+1 {{unknown role 'w' in weights}}
    %y = llm.attention %x layer 0 heads 2 kv_heads 2 weights(w = @q) : !llm.hidden<8>
    return
  }
}

// -----

llm.model @m attributes {arch = "llama", max_positions = 8 : i64} {
  llm.weight @q : tensor<8x8xf16>
  func.func @f(%x: !llm.hidden<8>) {
    // expected-error @+1 {{role 'q' given twice}}
    %y = llm.attention %x layer 0 heads 2 kv_heads 2 weights(q = @q, q = @q) : !llm.hidden<8>
    return
  }
}

// -----

//===----------------------------------------------------------------------===//
// llm.ffn
//===----------------------------------------------------------------------===//

llm.model @m attributes {arch = "llama", max_positions = 8 : i64} {
  llm.weight @up : tensor<24x8xf16>
  func.func @f(%x: !llm.hidden<8>) {
    // expected-error @+1 {{unknown activation 'swish' (silu, relu, gelu or gelu_tanh)}}
    %y = llm.ffn %x layer 0 swish weights(up = @up, down = @up) : !llm.hidden<8>
    return
  }
}

// -----

llm.model @m attributes {arch = "llama", max_positions = 8 : i64} {
  llm.weight @up : tensor<24x8xf16>
  func.func @f(%x: !llm.hidden<8>) {
    // expected-error @+1 {{down @up has shape 24x8, expected 8x24}}
    %y = llm.ffn %x layer 0 relu weights(up = @up, down = @up) : !llm.hidden<8>
    return
  }
}

// -----

llm.model @m attributes {arch = "llama", max_positions = 8 : i64} {
  llm.weight @gate : tensor<24x8xf16>
  llm.weight @up : tensor<24x8x!quant.any<u4:f32>, #llm.group_quant<format = asym, group_size = 8>>
  llm.weight @down : tensor<8x24xf16>
  func.func @f(%x: !llm.hidden<8>) {
    // expected-error @+1 {{up is stored as '!quant.any<u4:f32>' but gate as 'f16': gate and up are one fused GEMM and must be quantised alike}}
    %y = llm.ffn %x layer 0 silu weights(gate = @gate, up = @up, down = @down) : !llm.hidden<8>
    return
  }
}

// -----

llm.model @m attributes {arch = "llama", max_positions = 8 : i64} {
  llm.weight @up : tensor<24x8xf16>
  llm.weight @down : tensor<8x24xf16>
  func.func @f(%x: !llm.hidden<8>) {
    // expected-error @+1 {{layer must be non-negative}}
    %y = llm.ffn %x layer -2 relu weights(up = @up, down = @down) : !llm.hidden<8>
    return
  }
}

// -----

//===----------------------------------------------------------------------===//
// llm.lm_head, llm.transfer, llm.add
//===----------------------------------------------------------------------===//

llm.model @m attributes {arch = "llama", max_positions = 8 : i64} {
  llm.weight @head : tensor<16x8xf16>
  func.func @f(%x: !llm.hidden<8>) {
    // expected-error @+1 {{weight @head has shape 16x8, expected 12x8}}
    %y = llm.lm_head %x, @head : !llm.hidden<8> -> !llm.logits<12>
    return
  }
}

// -----

func.func @backwards(%x: !llm.hidden<8>) {
  // expected-error @+1 {{must move to a later stage, got from 2 to 1}}
  %y = llm.transfer %x from 2 to 1 : !llm.hidden<8>
  return
}

// -----

func.func @widths(%x: !llm.hidden<8>, %y: !llm.hidden<4>) {
  // expected-error @+1 {{requires the same type for all operands and results}}
  %z = "llm.add"(%x, %y) : (!llm.hidden<8>, !llm.hidden<4>) -> !llm.hidden<8>
  return
}

// -----

//===----------------------------------------------------------------------===//
// The schedule
//===----------------------------------------------------------------------===//

llm.model @m attributes {arch = "llama2c", max_positions = 8 : i64} {
  llm.pipeline stage 0 {
  }
  // expected-error @below {{is a second pipeline of stage 0}}
  llm.pipeline stage 0 {
  }
}

// -----

llm.model @m attributes {arch = "llama2c", max_positions = 8 : i64} {
  // expected-error @below {{stage must be non-negative}}
  llm.pipeline stage -1 {
  }
}

// -----

llm.model @m attributes {arch = "llama2c", max_positions = 8 : i64,
    plan = #llm.plan<prefill_microbatch = 1, decode_microbatch = 1, batch = 1, prompt_len = 1, gen_len = 1, profile = "weft-cpu", profile_estimated = true, stages = [#llm.stage<device = "n0/0", device_type = "cpu", memory_bytes = 0>]>} {
  // expected-error @below {{is on stage 1 but the plan has 1 stage}}
  llm.pipeline stage 1 {
  }
}

// -----

llm.model @m attributes {arch = "llama2c", max_positions = 8 : i64} {
  llm.pipeline stage 0 {
    %c0 = arith.constant 0 : index
    // expected-error @below {{needs a step in decode, and none in prefill}}
    %mb = llm.microbatch decode %c0
  }
}

// -----

func.func @outside(%i: index) {
  // expected-error @below {{must be inside an llm.pipeline}}
  %mb = llm.microbatch prefill %i
  return
}

// -----

llm.model @m attributes {arch = "llama2c", max_positions = 8 : i64} {
  llm.pipeline stage 1 {
    %c0 = arith.constant 0 : index
    %mb = llm.microbatch prefill %c0
    // expected-error @below {{is on stage 1: only stage 0 starts from tokens}}
    %t = llm.input_tokens %mb
  }
}

// -----

llm.model @m attributes {arch = "llama2c", max_positions = 8 : i64} {
  llm.pipeline stage 2 {
    %c0 = arith.constant 0 : index
    %mb = llm.microbatch prefill %c0
    // expected-error @below {{on stage 2 receives from stage 0: hidden states come from the previous stage}}
    %h = llm.recv %mb from 0 : !llm.hidden<8>
  }
}

// -----

llm.model @m attributes {arch = "llama2c", max_positions = 8 : i64} {
  llm.pipeline stage 1 {
    %c0 = arith.constant 0 : index
    %mb = llm.microbatch prefill %c0
    %h = llm.recv %mb from 0 : !llm.hidden<8>
    // expected-error @below {{on stage 1 sends to stage 3: hidden states go to the next stage}}
    llm.send %h to 3 : !llm.hidden<8>
  }
}

// -----

func.func @tokens(%t: !llm.tokens) {
  // expected-error @below {{returns tokens to stage 1: sampled tokens go back to stage 0}}
  llm.return_tokens %t to 1
  return
}
