// Inputs/tiny-planned.mlir after llm-quantize.
module {
  llm.model @tiny attributes {arch = "llama2c", max_positions = 64 : i64, plan = #llm.plan<prefill_microbatch = 2, decode_microbatch = 3, batch = 4, prompt_len = 8, gen_len = 5, profile = "weft-cpu", profile_estimated = true, stages = [#llm.stage<device = "host/0", device_type = "cpu", memory_bytes = 22527>, #llm.stage<device = "host/1", device_type = "cpu", memory_bytes = 29983>]>} {
    llm.weight @tok_embeddings.weight : tensor<32x16xf16>
    llm.weight @layers.0.attention_norm.weight : tensor<16xf32>
    llm.weight @layers.0.attention.wq.weight : tensor<16x16x!quant.any<u8:f32>, #llm.group_quant<format = asym, group_size = 128>>
    llm.weight @layers.0.attention.wk.weight : tensor<8x16x!quant.any<u8:f32>, #llm.group_quant<format = asym, group_size = 128>>
    llm.weight @layers.0.attention.wv.weight : tensor<8x16x!quant.any<u8:f32>, #llm.group_quant<format = asym, group_size = 128>>
    llm.weight @layers.0.attention.wo.weight : tensor<16x16x!quant.any<u8:f32>, #llm.group_quant<format = asym, group_size = 128>>
    llm.weight @layers.0.ffn_norm.weight : tensor<16xf32>
    llm.weight @layers.0.feed_forward.w1.weight : tensor<40x16x!quant.any<u8:f32>, #llm.group_quant<format = asym, group_size = 128>>
    llm.weight @layers.0.feed_forward.w3.weight : tensor<40x16x!quant.any<u8:f32>, #llm.group_quant<format = asym, group_size = 128>>
    llm.weight @layers.0.feed_forward.w2.weight : tensor<16x40x!quant.any<u8:f32>, #llm.group_quant<format = asym, group_size = 128>>
    llm.weight @layers.1.attention_norm.weight : tensor<16xf32>
    llm.weight @layers.1.attention.wq.weight : tensor<16x16xf16>
    llm.weight @layers.1.attention.wk.weight : tensor<8x16xf16>
    llm.weight @layers.1.attention.wv.weight : tensor<8x16xf16>
    llm.weight @layers.1.attention.wo.weight : tensor<16x16xf16>
    llm.weight @layers.1.ffn_norm.weight : tensor<16xf32>
    llm.weight @layers.1.feed_forward.w1.weight : tensor<40x16xf16>
    llm.weight @layers.1.feed_forward.w3.weight : tensor<40x16xf16>
    llm.weight @layers.1.feed_forward.w2.weight : tensor<16x40xf16>
    llm.weight @layers.2.attention_norm.weight : tensor<16xf32>
    llm.weight @layers.2.attention.wq.weight : tensor<16x16x!quant.any<u4:f32>, #llm.group_quant<format = asym, group_size = 128>>
    llm.weight @layers.2.attention.wk.weight : tensor<8x16x!quant.any<u4:f32>, #llm.group_quant<format = asym, group_size = 128>>
    llm.weight @layers.2.attention.wv.weight : tensor<8x16x!quant.any<u4:f32>, #llm.group_quant<format = asym, group_size = 128>>
    llm.weight @layers.2.attention.wo.weight : tensor<16x16x!quant.any<u4:f32>, #llm.group_quant<format = asym, group_size = 128>>
    llm.weight @layers.2.ffn_norm.weight : tensor<16xf32>
    llm.weight @layers.2.feed_forward.w1.weight : tensor<40x16x!quant.any<u4:f32>, #llm.group_quant<format = asym, group_size = 128>>
    llm.weight @layers.2.feed_forward.w3.weight : tensor<40x16x!quant.any<u4:f32>, #llm.group_quant<format = asym, group_size = 128>>
    llm.weight @layers.2.feed_forward.w2.weight : tensor<16x40x!quant.any<u4:f32>, #llm.group_quant<format = asym, group_size = 128>>
    llm.weight @norm.weight : tensor<16xf32>
    func.func @forward(%arg0: !llm.tokens) -> !llm.logits<32> {
      %0 = llm.embed %arg0, @tok_embeddings.weight {llm.stage = 0 : i64} : !llm.hidden<16>
      %1 = llm.rms_norm %0, @layers.0.attention_norm.weight eps 1.000000e-05 {llm.stage = 0 : i64} : !llm.hidden<16>
      %2 = llm.attention %1 layer 0 heads 4 kv_heads 2 rope 1.000000e+04 weights(q = @layers.0.attention.wq.weight, k = @layers.0.attention.wk.weight, v = @layers.0.attention.wv.weight, o = @layers.0.attention.wo.weight) {llm.stage = 0 : i64} : !llm.hidden<16>
      %3 = llm.add %0, %2 {llm.stage = 0 : i64} : !llm.hidden<16>
      %4 = llm.rms_norm %3, @layers.0.ffn_norm.weight eps 1.000000e-05 {llm.stage = 0 : i64} : !llm.hidden<16>
      %5 = llm.ffn %4 layer 0 silu weights(gate = @layers.0.feed_forward.w1.weight, up = @layers.0.feed_forward.w3.weight, down = @layers.0.feed_forward.w2.weight) {llm.stage = 0 : i64} : !llm.hidden<16>
      %6 = llm.add %3, %5 {llm.stage = 0 : i64} : !llm.hidden<16>
      %7 = llm.rms_norm %6, @layers.1.attention_norm.weight eps 1.000000e-05 {llm.stage = 1 : i64} : !llm.hidden<16>
      %8 = llm.attention %7 layer 1 heads 4 kv_heads 2 rope 1.000000e+04 weights(q = @layers.1.attention.wq.weight, k = @layers.1.attention.wk.weight, v = @layers.1.attention.wv.weight, o = @layers.1.attention.wo.weight) {llm.stage = 1 : i64} : !llm.hidden<16>
      %9 = llm.add %6, %8 {llm.stage = 1 : i64} : !llm.hidden<16>
      %10 = llm.rms_norm %9, @layers.1.ffn_norm.weight eps 1.000000e-05 {llm.stage = 1 : i64} : !llm.hidden<16>
      %11 = llm.ffn %10 layer 1 silu weights(gate = @layers.1.feed_forward.w1.weight, up = @layers.1.feed_forward.w3.weight, down = @layers.1.feed_forward.w2.weight) {llm.stage = 1 : i64} : !llm.hidden<16>
      %12 = llm.add %9, %11 {llm.stage = 1 : i64} : !llm.hidden<16>
      %13 = llm.rms_norm %12, @layers.2.attention_norm.weight eps 1.000000e-05 {llm.stage = 1 : i64} : !llm.hidden<16>
      %14 = llm.attention %13 layer 2 heads 4 kv_heads 2 rope 1.000000e+04 weights(q = @layers.2.attention.wq.weight, k = @layers.2.attention.wk.weight, v = @layers.2.attention.wv.weight, o = @layers.2.attention.wo.weight) {llm.stage = 1 : i64} : !llm.hidden<16>
      %15 = llm.add %12, %14 {llm.stage = 1 : i64} : !llm.hidden<16>
      %16 = llm.rms_norm %15, @layers.2.ffn_norm.weight eps 1.000000e-05 {llm.stage = 1 : i64} : !llm.hidden<16>
      %17 = llm.ffn %16 layer 2 silu weights(gate = @layers.2.feed_forward.w1.weight, up = @layers.2.feed_forward.w3.weight, down = @layers.2.feed_forward.w2.weight) {llm.stage = 1 : i64} : !llm.hidden<16>
      %18 = llm.add %15, %17 {llm.stage = 1 : i64} : !llm.hidden<16>
      %19 = llm.rms_norm %18, @norm.weight eps 1.000000e-05 {llm.stage = 1 : i64} : !llm.hidden<16>
      %20 = llm.lm_head %19, @tok_embeddings.weight {llm.stage = 1 : i64} : !llm.hidden<16> -> !llm.logits<32>
      return %20 : !llm.logits<32>
    }
  }
}

