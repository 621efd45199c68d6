// RUN: weft-opt %s --convert-llm-to-emitc --split-input-file --verify-diagnostics

// Only a planned model becomes a serving program.
llm.model @unplanned attributes {arch = "llama", hidden = 64 : i64, intermediate = 172 : i64, layers = 1 : i64, heads = 8 : i64, kv_heads = 4 : i64, vocab = 512 : i64, tied_embeddings = true, gated_ffn = true, prefill_microbatch = 1 : i64, decode_microbatch = 1 : i64} {
  llm.embedding {stage = 0 : i64}
  // expected-error @below {{has no stage: the model must be planned}}
  llm.decoder_layer 0
  llm.final_norm {stage = 0 : i64}
  llm.lm_head {stage = 0 : i64}
}

// -----

// expected-error @below {{has no micro-batch sizes}}
llm.model @nobatch attributes {arch = "llama", hidden = 64 : i64, intermediate = 172 : i64, layers = 1 : i64, heads = 8 : i64, kv_heads = 4 : i64, vocab = 512 : i64, tied_embeddings = true, gated_ffn = true} {
  llm.embedding {stage = 0 : i64}
  llm.decoder_layer 0 {stage = 0 : i64}
  llm.final_norm {stage = 0 : i64}
  llm.lm_head {stage = 0 : i64}
}

// -----

// Stage numbers may not skip one: rank 1 would have nothing to run.
llm.model @gap attributes {arch = "llama", hidden = 64 : i64, intermediate = 172 : i64, layers = 2 : i64, heads = 8 : i64, kv_heads = 4 : i64, vocab = 512 : i64, tied_embeddings = true, gated_ffn = true, prefill_microbatch = 1 : i64, decode_microbatch = 1 : i64} {
  llm.embedding {stage = 0 : i64}
  llm.decoder_layer 0 {stage = 0 : i64}
  // expected-error @below {{is on stage 2 but the previous part is on stage 0}}
  llm.decoder_layer 1 {stage = 2 : i64}
  llm.final_norm {stage = 2 : i64}
  llm.lm_head {stage = 2 : i64}
}

// -----

// expected-error @below {{has stage_memory for 1 stages but 2 stages}}
llm.model @memory attributes {arch = "llama", hidden = 64 : i64, intermediate = 172 : i64, layers = 2 : i64, heads = 8 : i64, kv_heads = 4 : i64, vocab = 512 : i64, tied_embeddings = true, gated_ffn = true, prefill_microbatch = 1 : i64, decode_microbatch = 1 : i64, stage_memory = array<i64: 5>} {
  llm.embedding {stage = 0 : i64}
  llm.decoder_layer 0 {stage = 0 : i64}
  llm.decoder_layer 1 {stage = 1 : i64}
  llm.final_norm {stage = 1 : i64}
  llm.lm_head {stage = 1 : i64}
}

// -----

// expected-error @below {{no llm.model to lower}}
module {
}
