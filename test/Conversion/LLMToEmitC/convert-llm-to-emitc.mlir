// RUN: weft-opt %s --convert-llm-to-emitc | FileCheck %s
// The C++ that build-model writes: weft's printer, the names on locations.
// RUN: weft-opt %s --convert-llm-to-emitc -mlir-print-debuginfo | weft-translate --emit-c | FileCheck %s --check-prefix=CPP

// A scheduled two-stage plan of a quantised three-layer model (as
// llm-schedule writes it): stage 0 embeds and runs layer 0 with 8-bit
// attention and 4-bit FFN weights; stage 1 runs layers 1-2, the final norm
// and the head. Each stage gets its forward function (the runtime's
// kernels) and its pipeline function (its weights at their stored widths,
// then its schedule); main runs the pipeline of the rank's stage.
llm.model @tiny attributes {arch = "llama2c", max_positions = 32 : i64, plan = #llm.plan<prefill_microbatch = 2, decode_microbatch = 3, batch = 4, prompt_len = 8, gen_len = 4, profile = "weft-cpu", profile_estimated = true, stages = [#llm.stage<device = "n0/0", device_type = "cpu", memory_bytes = 1000>, #llm.stage<device = "n1/0", device_type = "T4", memory_bytes = 5000000000>]>} {
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
  func.func private @stage0(%arg0: !llm.tokens) -> !llm.hidden<8> attributes {llm.stage = 0 : i64} {
    %0 = llm.embed %arg0, @tok_embeddings.weight : !llm.hidden<8>
    %1 = llm.rms_norm %0, @layers.0.attention_norm.weight eps 1.000000e-05 : !llm.hidden<8>
    %2 = llm.attention %1 layer 0 heads 2 kv_heads 1 rope 1.000000e+04 weights(q = @layers.0.attention.wq.weight, k = @layers.0.attention.wk.weight, v = @layers.0.attention.wv.weight, o = @layers.0.attention.wo.weight) : !llm.hidden<8>
    %3 = llm.add %0, %2 : !llm.hidden<8>
    %4 = llm.rms_norm %3, @layers.0.ffn_norm.weight eps 1.000000e-05 : !llm.hidden<8>
    %5 = llm.ffn %4 layer 0 silu weights(gate = @layers.0.feed_forward.w1.weight, up = @layers.0.feed_forward.w3.weight, down = @layers.0.feed_forward.w2.weight) : !llm.hidden<8>
    %6 = llm.add %3, %5 : !llm.hidden<8>
    return %6 : !llm.hidden<8>
  }
  func.func private @stage1(%arg0: !llm.hidden<8>) -> !llm.logits<16> attributes {llm.stage = 1 : i64} {
    %0 = llm.rms_norm %arg0, @layers.1.attention_norm.weight eps 1.000000e-05 : !llm.hidden<8>
    %1 = llm.attention %0 layer 1 heads 2 kv_heads 1 rope 1.000000e+04 weights(q = @layers.1.attention.wq.weight, k = @layers.1.attention.wk.weight, v = @layers.1.attention.wv.weight, o = @layers.1.attention.wo.weight) : !llm.hidden<8>
    %2 = llm.add %arg0, %1 : !llm.hidden<8>
    %3 = llm.rms_norm %2, @layers.1.ffn_norm.weight eps 1.000000e-05 : !llm.hidden<8>
    %4 = llm.ffn %3 layer 1 silu weights(gate = @layers.1.feed_forward.w1.weight, up = @layers.1.feed_forward.w3.weight, down = @layers.1.feed_forward.w2.weight) : !llm.hidden<8>
    %5 = llm.add %2, %4 : !llm.hidden<8>
    %6 = llm.rms_norm %5, @layers.2.attention_norm.weight eps 1.000000e-05 : !llm.hidden<8>
    %7 = llm.attention %6 layer 2 heads 2 kv_heads 1 rope 1.000000e+04 weights(q = @layers.2.attention.wq.weight, k = @layers.2.attention.wk.weight, v = @layers.2.attention.wv.weight, o = @layers.2.attention.wo.weight) : !llm.hidden<8>
    %8 = llm.add %5, %7 : !llm.hidden<8>
    %9 = llm.rms_norm %8, @layers.2.ffn_norm.weight eps 1.000000e-05 : !llm.hidden<8>
    %10 = llm.ffn %9 layer 2 silu weights(gate = @layers.2.feed_forward.w1.weight, up = @layers.2.feed_forward.w3.weight, down = @layers.2.feed_forward.w2.weight) : !llm.hidden<8>
    %11 = llm.add %8, %10 : !llm.hidden<8>
    %12 = llm.rms_norm %11, @norm.weight eps 1.000000e-05 : !llm.hidden<8>
    %13 = llm.lm_head %12, @tok_embeddings.weight : !llm.hidden<8> -> !llm.logits<16>
    return %13 : !llm.logits<16>
  }
  llm.pipeline stage 0 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %0 = llm.microbatch_count prefill : index
    scf.for %arg0 = %c0 to %0 step %c1 {
      %3 = llm.microbatch prefill %arg0
      %4 = llm.input_tokens %3
      %5 = func.call @stage0(%4) : (!llm.tokens) -> !llm.hidden<8>
      llm.send %5 to 1 : !llm.hidden<8>
    }
    %1 = llm.decode_steps : index
    %2 = llm.microbatch_count decode : index
    scf.for %arg0 = %c0 to %1 step %c1 {
      scf.for %arg1 = %c0 to %2 step %c1 {
        %3 = llm.microbatch decode %arg1 step %arg0
        %4 = llm.input_tokens %3
        %5 = func.call @stage0(%4) : (!llm.tokens) -> !llm.hidden<8>
        llm.send %5 to 1 : !llm.hidden<8>
      }
    }
  }
  llm.pipeline stage 1 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %0 = llm.microbatch_count prefill : index
    scf.for %arg0 = %c0 to %0 step %c1 {
      %3 = llm.microbatch prefill %arg0
      %4 = llm.recv %3 from 0 : !llm.hidden<8>
      %5 = func.call @stage1(%4) : (!llm.hidden<8>) -> !llm.logits<16>
      %6 = llm.sample %5 : !llm.logits<16>
      llm.return_tokens %6 to 0
    }
    %1 = llm.decode_steps : index
    %2 = llm.microbatch_count decode : index
    scf.for %arg0 = %c0 to %1 step %c1 {
      scf.for %arg1 = %c0 to %2 step %c1 {
        %3 = llm.microbatch decode %arg1 step %arg0
        %4 = llm.recv %3 from 0 : !llm.hidden<8>
        %5 = func.call @stage1(%4) : (!llm.hidden<8>) -> !llm.logits<16>
        %6 = llm.sample %5 : !llm.logits<16>
        llm.return_tokens %6 to 0
      }
    }
  }
}

// CHECK-NOT: llm.
// CHECK: emitc.verbatim "// Generated by `weft build-model`
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
// CHECK-LABEL: emitc.func @weft_stage0_pipeline
// CHECK: emitc.call_opaque "weft::rt::serve::loadDecoderLayer"(%arg0) {args = [0 : index, 0 : i32, 8 : i32, 4 : i32]}
// CHECK: emitc.call_opaque "weft::rt::serve::startPipeline"(%arg0)
// CHECK: %[[N:.*]] = emitc.call_opaque "weft::rt::serve::prefillMicroBatches"(%arg0) {{.*}} -> i64
// CHECK-NEXT: emitc.for %[[I:.*]] = %{{.*}} to %[[N]] step %{{.*}} : i64 {
// CHECK-NEXT: %[[B:.*]] = emitc.call_opaque "weft::rt::serve::prefillMicroBatch"(%arg0, %[[I]])
// CHECK-NEXT: emitc.call_opaque "weft::rt::serve::inputTokens"(%arg0, %[[B]])
// CHECK-NEXT: emitc.call_opaque "weft_stage0_forward"(%arg0, %[[B]])
// CHECK-NEXT: emitc.call_opaque "weft::rt::serve::sendHidden"(%arg0, %[[B]]) {args = [0 : index, 1 : index, 1 : i32]}
// CHECK-LABEL: emitc.func @main
// CHECK: %[[S:.*]] = emitc.call_opaque "weft::rt::serve::init"({{.*}}) {args = [0 : index, 1 : index, #emitc.opaque<"\22tiny\22">, 2 : i32, 2 : i32, 3 : i32]}
// CHECK: %[[K:.*]] = emitc.call_opaque "weft::rt::serve::stageIndex"(%[[S]])

// CPP: // Generated by `weft build-model`: the serving program of one plan.
// CPP-LABEL: static void weft_stage0_forward(weft::rt::serve::Server *server, weft::rt::serve::Batch *batch) {
// CPP-NEXT:   weft::rt::serve::embed(server, batch);
// CPP-NEXT:   weft::rt::serve::decoderLayer(server, batch, 0);
// CPP-NEXT: }
// CPP: static void weft_stage1_pipeline(weft::rt::serve::Server *server) {
// CPP-NEXT: weft::rt::serve::openStage(server, 1, 3);
// CPP-NEXT: weft::rt::serve::loadDecoderLayer(server, 1, 16, 16);
// CPP-NEXT: weft::rt::serve::loadDecoderLayer(server, 2, 3, 3);
// CPP-NEXT: weft::rt::serve::loadHead(server, 16);
// CPP-NEXT: weft::rt::serve::setPredictedMemory(server, 5000000000);
// CPP-NEXT: weft::rt::serve::startPipeline(server);
// CPP-NEXT: int64_t prefillMicroBatches = weft::rt::serve::prefillMicroBatches(server);
// CPP-NEXT: for (int64_t [[I:.*]] = 0; [[I]] < prefillMicroBatches; [[I]]++) {
// CPP-NEXT: weft::rt::serve::Batch *batch = weft::rt::serve::prefillMicroBatch(server, [[I]]);
// CPP-NEXT: weft::rt::serve::recvHidden(server, batch, 0);
// CPP-NEXT: weft_stage1_forward(server, batch);
// CPP-NEXT: weft::rt::serve::sampleTokens(server, batch);
// CPP-NEXT: weft::rt::serve::returnTokens(server, batch, 0);
// CPP-NEXT: }
// CPP-NEXT: int64_t decodeSteps = weft::rt::serve::decodeSteps(server);
// CPP-NEXT: int64_t decodeMicroBatches = weft::rt::serve::decodeMicroBatches(server);
// CPP-NEXT: for (int64_t [[T:.*]] = 0; [[T]] < decodeSteps; [[T]]++) {
// CPP-NEXT: for (int64_t [[J:.*]] = 0; [[J]] < decodeMicroBatches; [[J]]++) {
// CPP-NEXT: weft::rt::serve::Batch *batch = weft::rt::serve::decodeMicroBatch(server, [[J]], [[T]]);
// CPP-NEXT: weft::rt::serve::recvHidden(server, batch, 0);
// CPP: weft::rt::serve::endPipeline(server);
// CPP-LABEL: int32_t main(int32_t argc, char **argv) {
// CPP: weft::rt::serve::Server *server = weft::rt::serve::init({{.*}}, "tiny", 2, 2, 3);
// CPP-NEXT: int32_t stage = weft::rt::serve::stageIndex(server);
// CPP-NEXT: bool [[IS0:.*]] = stage == 0;
// CPP-NEXT: // stage 0: layers [0, 1) on n0/0 (cpu)
// CPP-NEXT: if ([[IS0]]) {
// CPP-NEXT: weft_stage0_pipeline(server);
// CPP: // stage 1: layers [1, 3) on n1/0 (T4)
// CPP-NEXT: if ({{.*}}) {
// CPP-NEXT: weft_stage1_pipeline(server);
// CPP: int32_t [[RC:.*]] = weft::rt::serve::finish(server);
// CPP-NEXT: return [[RC]];
