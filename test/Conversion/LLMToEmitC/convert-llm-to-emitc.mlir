// RUN: weft-opt %s --convert-llm-to-emitc | FileCheck %s
// RUN: weft-opt %s --convert-llm-to-emitc | mlir-translate --mlir-to-cpp | FileCheck %s --check-prefix=CPP

// A two-stage plan: stage 0 embeds and runs layer 0 at 8/4 bits; stage 1
// runs layers 1-2, the final norm and the head. Each stage gets its own
// forward function; main loads each stage's parts in order with the plan's
// bits and runs the pipeline with the stage's function.
llm.model @tiny attributes {arch = "llama", hidden = 64 : i64, intermediate = 172 : i64, layers = 3 : i64, heads = 8 : i64, kv_heads = 4 : i64, vocab = 512 : i64, tied_embeddings = true, gated_ffn = true, prefill_microbatch = 2 : i64, decode_microbatch = 3 : i64, stage_memory = array<i64: 1000, 5000000000>} {
  llm.embedding {stage = 0 : i64, device = "n0/0", device_type = "cpu"}
  llm.decoder_layer 0 {stage = 0 : i64, device = "n0/0", device_type = "cpu", attn_bits = 8 : i32, ffn_bits = 4 : i32}
  llm.decoder_layer 1 {stage = 1 : i64, device = "n1/0", device_type = "T4"}
  llm.decoder_layer 2 {stage = 1 : i64, device = "n1/0", device_type = "T4", attn_bits = 3 : i32, ffn_bits = 3 : i32}
  llm.final_norm {stage = 1 : i64, device = "n1/0", device_type = "T4"}
  llm.lm_head {stage = 1 : i64, device = "n1/0", device_type = "T4"}
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
