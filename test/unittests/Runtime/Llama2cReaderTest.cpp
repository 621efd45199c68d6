//===- Llama2cReaderTest.cpp - llama2.c checkpoints, good and bad ---------===//
#include "TinyLlama.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>

using namespace weft::rt;
using namespace weft::rt::test;

namespace {
LlamaConfig smallConfig(bool tied) {
  return llamaConfig(16, 23, 2, 4, 2, 11, 9, tied);
}

std::string fileBytes(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void writeBytes(const std::string &path, const std::string &bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

std::string readError(const std::string &path) {
  LlamaWeights w;
  std::string error;
  EXPECT_FALSE(readCheckpoint(path, w, &error));
  return error;
}
} // namespace

TEST(Llama2c, WriteThenReadRoundTrips) {
  for (bool tied : {true, false}) {
    LlamaWeights w = randomLlama(smallConfig(tied), 50);
    std::string path = tempPath(tied ? "tied.bin" : "untied.bin");
    std::string error;
    ASSERT_TRUE(writeLlama2c(path, w, &error)) << error;
    EXPECT_EQ(int64_t(fileBytes(path).size()), llama2cFileBytes(w.config));
    LlamaWeights r;
    ASSERT_TRUE(readCheckpoint(path, r, &error)) << error;
    EXPECT_EQ(r.config.tiedClassifier, tied);
    EXPECT_EQ(r.config.kvHeads, 2);
    EXPECT_EQ(r.wq, w.wq);
    EXPECT_EQ(r.w2, w.w2);
    EXPECT_EQ(r.rmsFinal, w.rmsFinal);
    EXPECT_EQ(r.wcls, w.wcls);
    std::remove(path.c_str());
  }
}

TEST(Llama2c, MissingFileNamesTheFile) {
  std::string error = readError("/nonexistent/dir/model.bin");
  EXPECT_EQ(error, "/nonexistent/dir/model.bin: cannot open the file");
}

TEST(Llama2c, TruncatedAndOversizedFiles) {
  LlamaWeights w = randomLlama(smallConfig(false), 51);
  std::string path = tempPath("bad.bin");
  ASSERT_TRUE(writeLlama2c(path, w, nullptr));
  std::string good = fileBytes(path);

  writeBytes(path, good.substr(0, good.size() - 4));
  std::string error = readError(path);
  EXPECT_NE(error.find(path + ": weights: wcls needs "), std::string::npos)
      << error;
  EXPECT_NE(error.find("the file has " + std::to_string(good.size() - 4)),
            std::string::npos)
      << error;

  writeBytes(path, good.substr(0, 10));
  EXPECT_NE(readError(path).find("too short for the 28-byte header"),
            std::string::npos);

  writeBytes(path, good + "xxxx");
  EXPECT_NE(readError(path).find("unexpected trailing data"),
            std::string::npos);
  std::remove(path.c_str());
}

TEST(Llama2c, HeaderSizesPast2To63BytesAreErrors) {
  // Every field at the reader's limit: the file would need about 2^65
  // bytes, which used to overflow int64 in the size computation.
  LlamaConfig c = llamaConfig(1 << 20, 1 << 20, 1 << 20, 1 << 19, 1 << 19,
                              1 << 20, 1 << 20, false);
  EXPECT_EQ(checkLlamaConfig(c), "");
  EXPECT_EQ(llama2cFileBytes(c), -1);
  std::string path = tempPath("huge.bin");
  int32_t header[7] = {c.dim, c.hiddenDim, c.layers, c.heads,
                       c.kvHeads, -c.vocabSize, c.seqLen};
  writeBytes(path, std::string(reinterpret_cast<char *>(header), 28));
  EXPECT_EQ(readError(path),
            path + ": header (dim 1048576, hidden_dim 1048576, layers "
                   "1048576, vocab 1048576) implies more than 2^63 bytes; "
                   "the file has 28");
  std::remove(path.c_str());
}

TEST(Llama2c, ConfigNormAndRopeConstantsAreChecked) {
  // A config.json or a (patched) stage file can carry any float here.
  LlamaConfig c = llamaConfig(8, 16, 1, 2, 1, 16, 8, false);
  ASSERT_EQ(checkLlamaConfig(c), "");
  for (float eps : {0.0f, -1e-5f, 1.0f, NAN, INFINITY}) {
    LlamaConfig bad = c;
    bad.rmsEps = eps;
    EXPECT_EQ(checkLlamaConfig(bad).rfind("norm epsilon", 0), 0u) << eps;
  }
  for (float theta : {0.0f, -1.0f, NAN, INFINITY, 1e31f}) {
    LlamaConfig bad = c;
    bad.ropeTheta = theta;
    EXPECT_EQ(checkLlamaConfig(bad).rfind("rope_theta", 0), 0u) << theta;
  }
}

TEST(Llama2c, CorruptHeadersAndWeights) {
  LlamaWeights w = randomLlama(smallConfig(true), 52);
  std::string path = tempPath("corrupt.bin");
  ASSERT_TRUE(writeLlama2c(path, w, nullptr));
  std::string good = fileBytes(path);
  auto patchInt = [&](int index, int32_t value) {
    std::string bytes = good;
    std::memcpy(&bytes[4 * index], &value, 4);
    writeBytes(path, bytes);
    return readError(path);
  };
  EXPECT_NE(patchInt(4, 3).find("n_heads 4 is not a multiple of n_kv_heads 3"),
            std::string::npos);
  EXPECT_NE(patchInt(0, 0).find("header field dim = 0"), std::string::npos);
  EXPECT_NE(patchInt(2, 1 << 30).find("n_layers"), std::string::npos);
  EXPECT_NE(patchInt(3, 5).find("not a multiple of n_heads"),
            std::string::npos);
  EXPECT_NE(patchInt(0, 0x464c457f).find("not a llama2.c checkpoint"),
            std::string::npos); // an ELF file, say

  std::string bytes = good;
  float nan = NAN;
  std::memcpy(&bytes[28 + 4 * 3], &nan, 4); // token_embedding[3]
  writeBytes(path, bytes);
  EXPECT_NE(readError(path).find("token_embedding[3] is not a finite number"),
            std::string::npos);
  std::remove(path.c_str());
}

TEST(Llama2c, ReadsTheRealTinyLlama) {
  std::string path = storiesPath();
  if (path.empty())
    GTEST_SKIP() << "stories260K.bin not found under ../shared/data/models "
                    "(set WEFT_SHARED_DATA)";
  LlamaWeights w;
  std::string error;
  ASSERT_TRUE(readCheckpoint(path, w, &error)) << error;
  EXPECT_EQ(w.config.dim, 64);
  EXPECT_EQ(w.config.hiddenDim, 172);
  EXPECT_EQ(w.config.layers, 5);
  EXPECT_EQ(w.config.heads, 8);
  EXPECT_EQ(w.config.kvHeads, 4);
  EXPECT_EQ(w.config.vocabSize, 512);
  EXPECT_EQ(w.config.seqLen, 512);
}
