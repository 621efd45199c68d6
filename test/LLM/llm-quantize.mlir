// RUN: weft-opt %S/Inputs/tiny-planned.mlir --llm-quantize -mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s
// RUN: weft-opt %S/Inputs/tiny-planned.mlir --llm-quantize="group-size=8" -mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=G8
// RUN: weft-opt %s --llm-quantize --split-input-file --verify-diagnostics
// RUN: not weft-opt %S/Inputs/tiny-planned.mlir --llm-quantize="group-size=12" 2>&1 | FileCheck %s --check-prefix=GROUP
// GROUP: error: llm-quantize: group-size must be a positive multiple of 8, got 12

// The plan's bits become the weights' types: layer 0's matrices are 8-bit
// codes, layer 1's fp16, layer 2's 4-bit codes; the embedding (also the
// tied head) is fp16, norms are fp32; no op keeps its bits.
// CHECK: remark: llm-quantize: 29 weights (7 at 32 bits, 8 at 16 bits, 7 at 8 bits, 7 at 4 bits), 11744 bytes
// Stage 0: fp16 embedding (1024 bytes), two fp32 norms (128), 8-bit codes
// with one fp16 scale and u8 zero-point per row (16 inputs: one group):
// wq 16x(16+3), wk and wv 8x(16+3), wo 16x(16+3), w1 and w3 40x(16+3), w2
// 16x(40+3): 4272 bytes.
// CHECK: remark: llm-quantize: stage 0 reads 10 weights, 4272 bytes
// CHECK: remark: llm-quantize: stage 1 reads 20 weights, 8496 bytes
// CHECK: llm.weight @tok_embeddings.weight : tensor<32x16xf16>
// CHECK-NEXT: llm.weight @layers.0.attention_norm.weight : tensor<16xf32>
// CHECK-NEXT: llm.weight @layers.0.attention.wq.weight : tensor<16x16x!quant.any<u8:f32>, #llm.group_quant<format = asym, group_size = 128>>
// CHECK: llm.weight @layers.0.feed_forward.w2.weight : tensor<16x40x!quant.any<u8:f32>, #llm.group_quant<format = asym, group_size = 128>>
// CHECK: llm.weight @layers.1.attention.wq.weight : tensor<16x16xf16>
// CHECK: llm.weight @layers.2.attention.wk.weight : tensor<8x16x!quant.any<u4:f32>, #llm.group_quant<format = asym, group_size = 128>>
// CHECK: llm.weight @norm.weight : tensor<16xf32>
// CHECK-NOT: bits =
// CHECK: llm.attention {{.*}} layer 0 {{.*}} {llm.stage = 0 : i64}

// Groups of 8 inputs: two groups per row of 16.
// G8: remark: llm-quantize: stage 0 reads 10 weights, {{[0-9]+}} bytes
// G8: llm.weight @layers.0.attention.wq.weight : tensor<16x16x!quant.any<u8:f32>, #llm.group_quant<format = asym, group_size = 8>>

// An op without bits: the model was not planned.
llm.model @unplanned attributes {arch = "llama2c", max_positions = 8 : i64} {
  llm.weight @q : tensor<8x8xf32>
  func.func @f(%x: !llm.hidden<8>) -> !llm.hidden<8> {
    // expected-error @below {{has no bits: llm-quantize stores weights as the plan says (run llm-plan first)}}
    %y = llm.attention %x layer 0 heads 2 kv_heads 2 weights(q = @q, k = @q, v = @q, o = @q) : !llm.hidden<8>
    return %y : !llm.hidden<8>
  }
}

// -----

// One weight, two widths.
llm.model @shared attributes {arch = "llama2c", max_positions = 8 : i64} {
  llm.weight @q : tensor<8x8xf32>
  func.func @f(%x: !llm.hidden<8>) -> !llm.hidden<8> {
    // expected-note @below {{the other op}}
    %y = llm.attention %x layer 0 heads 2 kv_heads 2 weights(q = @q, k = @q, v = @q, o = @q) {bits = 8 : i32} : !llm.hidden<8>
    // expected-error @below {{wants @q stored as '!quant.any<u4:f32>', another op as '!quant.any<u8:f32>'}}
    %z = llm.attention %y layer 1 heads 2 kv_heads 2 weights(q = @q, k = @q, v = @q, o = @q) {bits = 4 : i32} : !llm.hidden<8>
    return %z : !llm.hidden<8>
  }
}

