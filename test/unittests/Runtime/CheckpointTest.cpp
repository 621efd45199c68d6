//===- CheckpointTest.cpp - Checkpoints read tensor by tensor -------------===//
//
// The one checkpoint reader: llama2.c files, HF LLaMA and OPT directories
// give the same tensors one at a time as a whole read, and what the
// runtime cannot serve is refused only where it serves.
//
//===----------------------------------------------------------------------===//
#include "HfWriter.h"
#include "TinyLlama.h"
#include "weft_rt_checkpoint.h"
#include "weft_rt_hf_config.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

using namespace weft::rt;
using namespace weft::rt::test;

namespace {
std::string freshDir(const std::string &name) {
  std::string dir = tempPath(name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

/// Every tensor of `path`, read one at a time, equals its slice of the
/// stacked arrays of `whole`.
void expectTensorsMatch(const std::string &path, const LlamaWeights &whole) {
  Checkpoint ckpt;
  std::string error;
  ASSERT_TRUE(ckpt.open(path, &error)) << error;
  const LlamaConfig &c = ckpt.config();
  std::vector<float> one;
  for (Tensor t : modelTensors(c)) {
    const int64_t n = tensorShape(c, t).elements();
    const std::vector<float> &array = stackedArray(whole, t);
    for (int l = 0; l < (isPerLayer(t) ? c.layers : 1); ++l) {
      ASSERT_TRUE(ckpt.read(t, l, one, &error)) << error;
      ASSERT_EQ(int64_t(one.size()), n) << tensorName(t);
      EXPECT_TRUE(std::equal(one.begin(), one.end(), array.begin() + l * n))
          << tensorName(t) << " layer " << l;
    }
  }
  EXPECT_FALSE(ckpt.read(Tensor::Wq, c.layers, one, &error));
  EXPECT_EQ(error, path + ": the model has no wq in layer " +
                       std::to_string(c.layers));
}
} // namespace

TEST(Checkpoint, EveryFormatReadsTensorByTensor) {
  LlamaWeights w = randomLlama(llamaConfig(24, 40, 2, 6, 2, 30, 16, false), 7);
  std::string bin = tempPath("ckpt.bin"), error;
  ASSERT_TRUE(writeLlama2c(bin, w, &error)) << error;
  expectTensorsMatch(bin, w);
  std::string hf = freshDir("ckpt-hf");
  writeHfDirectory(w, hf);
  expectTensorsMatch(hf, w);
  LlamaWeights opt = randomOpt(40, 72, 2, 5, 61, 64, true, 8);
  std::string optDir = freshDir("ckpt-opt");
  writeHfOptDirectory(opt, optDir);
  expectTensorsMatch(optDir, opt);
  Checkpoint ckpt;
  ASSERT_TRUE(ckpt.open(optDir, &error)) << error;
  EXPECT_TRUE(ckpt.has(Tensor::B1));
  EXPECT_FALSE(ckpt.has(Tensor::W3));
  EXPECT_FALSE(ckpt.has(Tensor::Classifier)); // tied
  std::remove(bin.c_str());
  std::filesystem::remove_all(hf);
  std::filesystem::remove_all(optDir);
}

TEST(Checkpoint, ServingRefusalsAreForServingOnly) {
  LlamaWeights w = randomLlama(llamaConfig(16, 20, 1, 4, 2, 10, 8), 9);
  std::string dir = freshDir("ckpt-qwen");
  writeHfDirectory(w, dir);
  std::string config;
  {
    std::ifstream in(dir + "/config.json");
    config.assign(std::istreambuf_iterator<char>(in), {});
  }
  config.replace(config.find("\"llama\""), 7, "\"qwen2\"");
  std::ofstream(dir + "/config.json") << config;
  Checkpoint ckpt;
  std::string error;
  EXPECT_FALSE(ckpt.open(dir, &error));
  EXPECT_EQ(error, dir + "/config.json: model_type: 'qwen2' has no serving "
                         "runtime yet (llama, mistral and opt have)");
  ASSERT_TRUE(ckpt.open(dir, &error, Checkpoint::Use::Inspect)) << error;
  std::vector<float> wq;
  ASSERT_TRUE(ckpt.read(Tensor::Wq, 0, wq, &error)) << error;
  EXPECT_EQ(wq, w.wq);

  config.replace(config.find("\"qwen2\""), 7, "\"bloom\"");
  std::ofstream(dir + "/config.json") << config;
  EXPECT_FALSE(ckpt.open(dir, &error, Checkpoint::Use::Inspect));
  EXPECT_EQ(error, dir + "/config.json: model_type: 'bloom' has no weight "
                         "reader (llama, mistral, qwen2 and opt do)");
  EXPECT_FALSE(ckpt.open(dir + "/config.json", &error));
  EXPECT_NE(error.find("a config has no weights"), std::string::npos) << error;
  std::filesystem::remove_all(dir);
}

TEST(Checkpoint, HostileShardsAndValues) {
  LlamaWeights w = randomLlama(llamaConfig(16, 20, 1, 4, 2, 10, 8), 10);
  std::string dir = freshDir("ckpt-bad");
  writeHfDirectory(w, dir);
  // The same tensor in two shards.
  writeSafetensors(dir + "/model-00003-of-00003.safetensors",
                   {{"model.norm.weight", {16}, w.rmsFinal}});
  Checkpoint ckpt;
  std::string error;
  EXPECT_FALSE(ckpt.open(dir, &error));
  EXPECT_EQ(error, dir + "/model-00003-of-00003.safetensors: header: "
                         "model.norm.weight: tensor already defined in "
                         "another file of the checkpoint");
  std::filesystem::remove(dir + "/model-00003-of-00003.safetensors");
  // A weight that is not a number.
  LlamaWeights nan = w;
  nan.wo[5] = NAN;
  writeHfDirectory(nan, dir);
  ASSERT_TRUE(ckpt.open(dir, &error)) << error;
  std::vector<float> wo;
  EXPECT_FALSE(ckpt.read(Tensor::Wo, 0, wo, &error));
  EXPECT_EQ(error, dir + ": model.layers.0.self_attn.o_proj.weight[5] is "
                         "not a finite number");
  std::filesystem::remove_all(dir);
}

TEST(HfConfig, ArchitectureConventionsAndOverrides) {
  JsonValue json;
  std::string error;
  ASSERT_TRUE(parseJson(R"({"model_type": "Qwen2", "hidden_size": 64,
      "intermediate_size": 96, "num_hidden_layers": 3,
      "num_attention_heads": 8, "num_key_value_heads": null,
      "vocab_size": 100, "rms_norm_eps": 1e-5})",
                        json, &error))
      << error;
  HfConfig hf;
  ASSERT_TRUE(parseHfConfig(json, hf, &error)) << error;
  EXPECT_EQ(hf.arch, "qwen2");
  EXPECT_EQ(hf.kvHeads, 8); // null: the default, multi-head
  EXPECT_TRUE(hf.attnBias);
  EXPECT_FALSE(hf.tiedEmbeddings);
  EXPECT_EQ(hf.maxPositions, 2048);
  EXPECT_DOUBLE_EQ(hf.normEps, 1e-5);
  ASSERT_TRUE(parseJson(R"({"model_type": "llama", "hidden_size": 64,
      "intermediate_size": 96, "num_hidden_layers": 3,
      "num_attention_heads": 8, "vocab_size": 100, "rope_theta": "big"})",
                        json, &error));
  EXPECT_FALSE(parseHfConfig(json, hf, &error));
  EXPECT_EQ(error, "rope_theta: expected a positive number");
}
