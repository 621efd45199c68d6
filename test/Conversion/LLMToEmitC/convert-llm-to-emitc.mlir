// RUN: weft-opt %s --convert-llm-to-emitc | FileCheck %s
// RUN: weft-opt %s --convert-llm-to-emitc | mlir-translate --mlir-to-cpp | FileCheck %s --check-prefix=CPP

// A two-stage plan of a quantised three-layer model: stage 0 embeds and
// runs layer 0 with 8-bit attention and 4-bit FFN weights; stage 1 runs layers 1-2, the final norm and
// the head. Each stage gets its own forward function; main loads each
// stage's parts in order with the plan's bits and runs the pipeline with the
// stage's function.
llm.model @tiny attributes {arch = "llama2c", max_positions = 32 : i64,
    plan = #llm.plan<prefill_microbatch = 2, decode_microbatch = 3, batch = 4,
                     prompt_len = 8, gen_len = 4, profile = "weft-cpu",
                     profile_estimated = true,
                     stages = [#llm.stage<device = "n0/0", device_type = "cpu", memory_bytes = 1000>,
                               #llm.stage<device = "n1/0", device_type = "T4", memory_bytes = 5000000000>]>} {
  llm.weight @tok_embeddings.weight : tensor<16x8xf16>
  llm.weight @layers.0.attention_norm.weight : tensor<8xf32>
  llm.weight @layers.0.attention.wq.weight : tensor<8x8x!quant.any<u8:f32>, #llm.group_quant<format = asym, group_size = 128>>
  llm.weight @layers.0.attention.wk.weight : tensor<4x8x!quant.any<u8:f32>, #llm.group_quant<format = asym, group_size = 128>>
  llm.weight @layers.0.attention.wv.weight : tensor<4x8x!quant.any<u8:f32>, #llm.group_quant<format = asym, group_size = 128>>
  llm.weight @layers.0.attention.wo.weight : tensor<8x8x!quant.any<u8:f32>, #llm.group_quant<format = asym, group_size = 128>>
  llm.weight @layers.0.ffn_norm.weight : tensor<8xf32>
  llm.weight @layers.0.feed_forward.w1.weight : tensor<24x8x!quant.any<u4:f32>, #llm.group_quant<format = asym, group_size = 128>>
  llm.weight @layers.0.feed_forward.w2.weight : tensor<8x24x!quant.any<u4:f32>, #llm.group_quant<format = asym, group_size = 128>>
  llm.weight @layers.0.feed_forward.w3.weight : tensor<24x8x!quant.any<u4:f32>, #llm.group_quant<format = asym, group_size = 128>>
  llm.weight @layers.1.attention_norm.weight : tensor<8xf32>
  llm.weight @layers.1.attention.wq.weight : tensor<8x8xf16>
  llm.weight @layers.1.attention.wk.weight : tensor<4x8xf16>
  llm.weight @layers.1.attention.wv.weight : tensor<4x8xf16>
  llm.weight @layers.1.attention.wo.weight : tensor<8x8xf16>
  llm.weight @layers.1.ffn_norm.weight : tensor<8xf32>
  llm.weight @layers.1.feed_forward.w1.weight : tensor<24x8xf16>
  llm.weight @layers.1.feed_forward.w2.weight : tensor<8x24xf16>
  llm.weight @layers.1.feed_forward.w3.weight : tensor<24x8xf16>
  llm.weight @layers.2.attention_norm.weight : tensor<8xf32>
  llm.weight @layers.2.attention.wq.weight : tensor<8x8x!quant.any<u3:f32>, #llm.group_quant<format = asym, group_size = 128>>
  llm.weight @layers.2.attention.wk.weight : tensor<4x8x!quant.any<u3:f32>, #llm.group_quant<format = asym, group_size = 128>>
  llm.weight @layers.2.attention.wv.weight : tensor<4x8x!quant.any<u3:f32>, #llm.group_quant<format = asym, group_size = 128>>
  llm.weight @layers.2.attention.wo.weight : tensor<8x8x!quant.any<u3:f32>, #llm.group_quant<format = asym, group_size = 128>>
  llm.weight @layers.2.ffn_norm.weight : tensor<8xf32>
  llm.weight @layers.2.feed_forward.w1.weight : tensor<24x8x!quant.any<u3:f32>, #llm.group_quant<format = asym, group_size = 128>>
  llm.weight @layers.2.feed_forward.w2.weight : tensor<8x24x!quant.any<u3:f32>, #llm.group_quant<format = asym, group_size = 128>>
  llm.weight @layers.2.feed_forward.w3.weight : tensor<24x8x!quant.any<u3:f32>, #llm.group_quant<format = asym, group_size = 128>>
  llm.weight @norm.weight : tensor<8xf32>
  func.func @forward(%tokens: !llm.tokens) -> !llm.logits<16> {
    %h = llm.embed %tokens, @tok_embeddings.weight {llm.stage = 0 : i64} : !llm.hidden<8>
    %n0 = llm.rms_norm %h, @layers.0.attention_norm.weight eps 1.0e-05 {llm.stage = 0 : i64} : !llm.hidden<8>
    %a0 = llm.attention %n0 layer 0 heads 2 kv_heads 1 rope 1.0e+04 weights(q = @layers.0.attention.wq.weight, k = @layers.0.attention.wk.weight, v = @layers.0.attention.wv.weight, o = @layers.0.attention.wo.weight) {llm.stage = 0 : i64} : !llm.hidden<8>
    %r0 = llm.add %h, %a0 {llm.stage = 0 : i64} : !llm.hidden<8>
    %m0 = llm.rms_norm %r0, @layers.0.ffn_norm.weight eps 1.0e-05 {llm.stage = 0 : i64} : !llm.hidden<8>
    %f0 = llm.ffn %m0 layer 0 silu weights(gate = @layers.0.feed_forward.w1.weight, up = @layers.0.feed_forward.w3.weight, down = @layers.0.feed_forward.w2.weight) {llm.stage = 0 : i64} : !llm.hidden<8>
    %x0 = llm.add %r0, %f0 {llm.stage = 0 : i64} : !llm.hidden<8>
    %n1 = llm.rms_norm %x0, @layers.1.attention_norm.weight eps 1.0e-05 {llm.stage = 1 : i64} : !llm.hidden<8>
    %a1 = llm.attention %n1 layer 1 heads 2 kv_heads 1 rope 1.0e+04 weights(q = @layers.1.attention.wq.weight, k = @layers.1.attention.wk.weight, v = @layers.1.attention.wv.weight, o = @layers.1.attention.wo.weight) {llm.stage = 1 : i64} : !llm.hidden<8>
    %r1 = llm.add %x0, %a1 {llm.stage = 1 : i64} : !llm.hidden<8>
    %m1 = llm.rms_norm %r1, @layers.1.ffn_norm.weight eps 1.0e-05 {llm.stage = 1 : i64} : !llm.hidden<8>
    %f1 = llm.ffn %m1 layer 1 silu weights(gate = @layers.1.feed_forward.w1.weight, up = @layers.1.feed_forward.w3.weight, down = @layers.1.feed_forward.w2.weight) {llm.stage = 1 : i64} : !llm.hidden<8>
    %x1 = llm.add %r1, %f1 {llm.stage = 1 : i64} : !llm.hidden<8>
    %n2 = llm.rms_norm %x1, @layers.2.attention_norm.weight eps 1.0e-05 {llm.stage = 1 : i64} : !llm.hidden<8>
    %a2 = llm.attention %n2 layer 2 heads 2 kv_heads 1 rope 1.0e+04 weights(q = @layers.2.attention.wq.weight, k = @layers.2.attention.wk.weight, v = @layers.2.attention.wv.weight, o = @layers.2.attention.wo.weight) {llm.stage = 1 : i64} : !llm.hidden<8>
    %r2 = llm.add %x1, %a2 {llm.stage = 1 : i64} : !llm.hidden<8>
    %m2 = llm.rms_norm %r2, @layers.2.ffn_norm.weight eps 1.0e-05 {llm.stage = 1 : i64} : !llm.hidden<8>
    %f2 = llm.ffn %m2 layer 2 silu weights(gate = @layers.2.feed_forward.w1.weight, up = @layers.2.feed_forward.w3.weight, down = @layers.2.feed_forward.w2.weight) {llm.stage = 1 : i64} : !llm.hidden<8>
    %x2 = llm.add %r2, %f2 {llm.stage = 1 : i64} : !llm.hidden<8>
    %n = llm.rms_norm %x2, @norm.weight eps 1.0e-05 {llm.stage = 1 : i64} : !llm.hidden<8>
    %l = llm.lm_head %n, @tok_embeddings.weight {llm.stage = 1 : i64} : !llm.hidden<8> -> !llm.logits<16>
    return %l : !llm.logits<16>
  }
}

// CHECK-NOT: llm.
// CHECK: emitc.include "weft_rt_serve.h"
// CHECK-LABEL: emitc.func @weft_stage0_forward
// CHECK-SAME: specifiers = ["static"]
// CHECK-NEXT: emitc.call_opaque "weft::rt::serve::embed"(%arg0, %arg1)
// CHECK-NEXT: emitc.call_opaque "weft::rt::serve::decoderLayer"(%arg0, %arg1) {args = [0 : index, 1 : index, 0 : i32]}
// CHECK-NEXT: emitc.return
// CHECK-LABEL: emitc.func @weft_stage1_forward
// CHECK-NEXT: "weft::rt::serve::decoderLayer"{{.*}}args = [0 : index, 1 : index, 1 : i32]
// CHECK-NEXT: "weft::rt::serve::decoderLayer"{{.*}}args = [0 : index, 1 : index, 2 : i32]
// CHECK-NEXT: "weft::rt::serve::finalNorm"
// CHECK-NEXT: "weft::rt::serve::lmHead"
// CHECK-NEXT: emitc.return
// CHECK-LABEL: emitc.func @main
// CHECK: %[[S:.*]] = emitc.call_opaque "weft::rt::serve::init"({{.*}}) {args = [0 : index, 1 : index, #emitc.opaque<"\22tiny\22">, 2 : i32, 2 : i32, 3 : i32]}
// CHECK: %[[K:.*]] = emitc.call_opaque "weft::rt::serve::stageIndex"(%[[S]])

// CPP-LABEL: static void weft_stage0_forward(
// CPP-NEXT:   weft::rt::serve::embed([[S0:v[0-9]+]], [[B0:v[0-9]+]]);
// CPP-NEXT:   weft::rt::serve::decoderLayer([[S0]], [[B0]], 0);
// CPP-LABEL: int32_t main(
// CPP: weft::rt::serve::Server* [[S:v[0-9]+]] = weft::rt::serve::init({{v[0-9]+}}, {{v[0-9]+}}, "tiny", 2, 2, 3);
// CPP: int32_t [[K:v[0-9]+]] = weft::rt::serve::stageIndex([[S]]);
// CPP: // stage 0: layers [0, 1) on n0/0 (cpu)
// CPP: if ({{v[0-9]+}}) {
// CPP-NEXT: weft::rt::serve::openStage([[S]], 0, 1);
// CPP-NEXT: weft::rt::serve::loadEmbedding([[S]]);
// CPP-NEXT: weft::rt::serve::loadDecoderLayer([[S]], 0, 8, 4);
// CPP-NEXT: weft::rt::serve::setPredictedMemory([[S]], 1000);
// CPP-NEXT: weft::rt::serve::run([[S]], weft_stage0_forward);
// CPP: // stage 1: layers [1, 3) on n1/0 (T4)
// CPP: if ({{v[0-9]+}}) {
// CPP-NEXT: weft::rt::serve::openStage([[S]], 1, 3);
// CPP-NEXT: weft::rt::serve::loadDecoderLayer([[S]], 1, 16, 16);
// CPP-NEXT: weft::rt::serve::loadDecoderLayer([[S]], 2, 3, 3);
// CPP-NEXT: weft::rt::serve::loadHead([[S]], 16);
// CPP-NEXT: weft::rt::serve::setPredictedMemory([[S]], 5000000000);
// CPP-NEXT: weft::rt::serve::run([[S]], weft_stage1_forward);
// CPP: int32_t [[RC:v[0-9]+]] = weft::rt::serve::finish([[S]]);
// CPP-NEXT: return [[RC]];
