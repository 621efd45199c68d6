// Inputs/tiny-quantized.mlir after llm-split-stages.
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
    func.func private @stage0(%arg0: !llm.tokens) -> !llm.hidden<16> attributes {llm.stage = 0 : i64} {
      %0 = llm.embed %arg0, @tok_embeddings.weight : !llm.hidden<16>
      %1 = llm.rms_norm %0, @layers.0.attention_norm.weight eps 1.000000e-05 : !llm.hidden<16>
      %2 = llm.attention %1 layer 0 heads 4 kv_heads 2 rope 1.000000e+04 weights(q = @layers.0.attention.wq.weight, k = @layers.0.attention.wk.weight, v = @layers.0.attention.wv.weight, o = @layers.0.attention.wo.weight) : !llm.hidden<16>
      %3 = llm.add %0, %2 : !llm.hidden<16>
      %4 = llm.rms_norm %3, @layers.0.ffn_norm.weight eps 1.000000e-05 : !llm.hidden<16>
      %5 = llm.ffn %4 layer 0 silu weights(gate = @layers.0.feed_forward.w1.weight, up = @layers.0.feed_forward.w3.weight, down = @layers.0.feed_forward.w2.weight) : !llm.hidden<16>
      %6 = llm.add %3, %5 : !llm.hidden<16>
      return %6 : !llm.hidden<16>
    }
    func.func private @stage1(%arg0: !llm.hidden<16>) -> !llm.logits<32> attributes {llm.stage = 1 : i64} {
      %0 = llm.rms_norm %arg0, @layers.1.attention_norm.weight eps 1.000000e-05 : !llm.hidden<16>
      %1 = llm.attention %0 layer 1 heads 4 kv_heads 2 rope 1.000000e+04 weights(q = @layers.1.attention.wq.weight, k = @layers.1.attention.wk.weight, v = @layers.1.attention.wv.weight, o = @layers.1.attention.wo.weight) : !llm.hidden<16>
      %2 = llm.add %arg0, %1 : !llm.hidden<16>
      %3 = llm.rms_norm %2, @layers.1.ffn_norm.weight eps 1.000000e-05 : !llm.hidden<16>
      %4 = llm.ffn %3 layer 1 silu weights(gate = @layers.1.feed_forward.w1.weight, up = @layers.1.feed_forward.w3.weight, down = @layers.1.feed_forward.w2.weight) : !llm.hidden<16>
      %5 = llm.add %2, %4 : !llm.hidden<16>
      %6 = llm.rms_norm %5, @layers.2.attention_norm.weight eps 1.000000e-05 : !llm.hidden<16>
      %7 = llm.attention %6 layer 2 heads 4 kv_heads 2 rope 1.000000e+04 weights(q = @layers.2.attention.wq.weight, k = @layers.2.attention.wk.weight, v = @layers.2.attention.wv.weight, o = @layers.2.attention.wo.weight) : !llm.hidden<16>
      %8 = llm.add %5, %7 : !llm.hidden<16>
      %9 = llm.rms_norm %8, @layers.2.ffn_norm.weight eps 1.000000e-05 : !llm.hidden<16>
      %10 = llm.ffn %9 layer 2 silu weights(gate = @layers.2.feed_forward.w1.weight, up = @layers.2.feed_forward.w3.weight, down = @layers.2.feed_forward.w2.weight) : !llm.hidden<16>
      %11 = llm.add %8, %10 : !llm.hidden<16>
      %12 = llm.rms_norm %11, @norm.weight eps 1.000000e-05 : !llm.hidden<16>
      %13 = llm.lm_head %12, @tok_embeddings.weight : !llm.hidden<16> -> !llm.logits<32>
      return %13 : !llm.logits<32>
    }
    func.func @forward(%arg0: !llm.tokens) -> !llm.logits<32> {
      %0 = call @stage0(%arg0) : (!llm.tokens) -> !llm.hidden<16>
      %1 = llm.transfer %0 from 0 to 1 : !llm.hidden<16>
      %2 = call @stage1(%1) : (!llm.hidden<16>) -> !llm.logits<32>
      return %2 : !llm.logits<32>
    }
  }
}

