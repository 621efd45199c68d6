//===- MemoryTest.cpp - Memory model against hand-computed sizes ----------===//
#include "weft/CostModel/Memory.h"

#include "gtest/gtest.h"

using namespace weft::cost;

namespace {
ModelDesc llama7B() {
  ModelDesc m;
  m.hidden = 4096;
  m.intermediate = 11008;
  m.layers = 32;
  m.heads = m.kvHeads = 32;
  m.vocab = 32000;
  return m;
}
} // namespace

TEST(Memory, LayerWeightsByBits) {
  ModelDesc m = llama7B();
  // 4 h^2 (q, k, v, o) + 3 h f (gate, up, down) matrices; 2 RMSNorm vectors.
  int64_t linear = 4LL * 4096 * 4096 + 3LL * 4096 * 11008; // 202,375,168
  ASSERT_EQ(m.linearParamsPerLayer(), linear);
  int64_t norms = 2 * 4096 * 2;
  EXPECT_EQ(layerWeightBytes(m, 16), linear * 2 + norms);
  // b-bit weights plus one fp16 scale and one 8-bit zero-point per 128
  // weights.
  int64_t scales = linear / 128 * 3;
  EXPECT_EQ(layerWeightBytes(m, 8), linear + scales + norms);
  EXPECT_EQ(layerWeightBytes(m, 4), linear / 2 + scales + norms);
  EXPECT_EQ(layerWeightBytes(m, 3), linear * 3 / 8 + scales + norms);
  // LLaMA-7B decoder layers are ~12.95 GB at fp16 in total.
  EXPECT_NEAR(32.0 * layerWeightBytes(m, 16) / 1e9, 12.95, 0.01);
}

TEST(Memory, GroupedQueryAttentionAndBiases) {
  ModelDesc m = llama7B();
  m.kvHeads = 8; // k and v project to 1024
  EXPECT_EQ(m.linearParamsPerLayer(),
            4096LL * (4096 + 2 * 1024) + 4096LL * 4096 + 3LL * 4096 * 11008);
  ModelDesc opt = llama7B();
  opt.gatedFFN = false;
  opt.layerNorm = opt.attnBias = opt.mlpBias = true;
  EXPECT_EQ(opt.smallParamsPerLayer(),
            4 * 4096 + 3 * 4096 /*qkv*/ + 4096 + 11008 + 4096);
}

TEST(Memory, KVCacheAndActivations) {
  ModelDesc m = llama7B();
  // K and V, fp16: 2 * 2 bytes * hidden per token per layer.
  EXPECT_EQ(layerKVBytes(m, 1, 1), 2 * 2 * 4096);
  EXPECT_EQ(layerKVBytes(m, 32, 640), 32LL * 640 * 2 * 2 * 4096);
  m.kvHeads = 8;
  EXPECT_EQ(layerKVBytes(m, 1, 1), 2 * 2 * 1024);
  DeviceSpec cpu = cantFail(lookupDevice("cpu"));
  DeviceSpec a100 = cantFail(lookupDevice("A100-40GB"));
  EXPECT_EQ(activationBytes(m, 10, a100),
            10 * (4 * 4096 + 2 * 1024 + 2 * 11008) * 2);
  // weft's CPU runtime keeps both in fp32, and its activations include the
  // residual copy and the double-buffered messages of the pipeline.
  EXPECT_EQ(activationBytes(m, 10, cpu),
            10 * (9 * 4096 + 2 * 1024 + 2 * 11008) * 4);
  EXPECT_EQ(activationElementBytes(cpu), 4);
  EXPECT_EQ(activationElementBytes(a100), 2);
  EXPECT_EQ(layerKVBytes(m, 3, 5, activationElementBytes(cpu)),
            2 * layerKVBytes(m, 3, 5));
}

TEST(Memory, EmbeddingsAndCapacity) {
  ModelDesc m = llama7B();
  EXPECT_EQ(embeddingBytes(m), 32000LL * 4096 * 2);
  EXPECT_EQ(lmHeadBytes(m), 32000LL * 4096 * 2 + 4096 * 2);
  DeviceSpec d = cantFail(lookupDevice("A100-40GB"));
  double GiB = 1024.0 * 1024 * 1024;
  EXPECT_EQ(usableBytes(d), int64_t(40 * GiB * 0.95 - 0.8 * GiB));
  EXPECT_LT(usableBytes(d), int64_t(40 * GiB));
}
