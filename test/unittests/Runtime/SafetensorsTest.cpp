//===- SafetensorsTest.cpp - safetensors header and tensor reading --------===//
#include "RuntimeTestUtil.h"
#include "weft_rt_half.h"
#include "weft_rt_safetensors.h"

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>

using namespace weft::rt;
using namespace weft::rt::test;

namespace {
/// Writes a safetensors file: 8-byte length, header text, data bytes.
std::string writeFile(const std::string &name, const std::string &header,
                      const std::string &data) {
  std::string path = tempPath(name);
  std::ofstream out(path, std::ios::binary);
  uint64_t length = header.size();
  for (int b = 0; b < 8; ++b)
    out.put(char((length >> (8 * b)) & 0xff));
  out << header << data;
  return path;
}

template <typename T> std::string bytesOf(const std::vector<T> &v) {
  return std::string(reinterpret_cast<const char *>(v.data()),
                     v.size() * sizeof(T));
}

std::string openError(const std::string &path) {
  SafetensorsFile file;
  std::string error;
  EXPECT_FALSE(file.open(path, &error));
  std::remove(path.c_str());
  return error;
}
} // namespace

TEST(Safetensors, ReadsF32F16AndBF16) {
  std::vector<float> a = {1.5f, -2.0f, 3.25f, 0.0f, 7.0f, -0.5f};
  std::vector<uint16_t> b(3), c(2);
  float bValues[] = {0.5f, -1.0f, 1024.0f};
  for (int i = 0; i < 3; ++i)
    b[i] = floatToHalf(bValues[i]);
  float cValues[] = {-3.0f, 0.15625f}; // exact in bfloat16
  for (int i = 0; i < 2; ++i) {
    uint32_t bits;
    std::memcpy(&bits, &cValues[i], 4);
    c[i] = uint16_t(bits >> 16);
  }
  std::string header =
      R"({"__metadata__": {"format": "pt", "nested": "x\"y"},)"
      R"( "model.a": {"dtype": "F32", "shape": [2, 3],)"
      R"(             "data_offsets": [0, 24]},)"
      R"( "b": {"shape": [3], "dtype": "F16", "data_offsets": [24, 30]},)"
      R"( "c": {"dtype": "BF16", "shape": [2], "data_offsets": [30, 34]}})"
      "   ";
  std::string path =
      writeFile("ok.safetensors", header, bytesOf(a) + bytesOf(b) + bytesOf(c));
  SafetensorsFile file;
  std::string error;
  ASSERT_TRUE(file.open(path, &error)) << error;
  ASSERT_EQ(file.tensors().size(), 3u);
  const SafetensorsTensor *t = file.find("model.a");
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->shape, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(t->elements(), 6);
  std::vector<float> out;
  ASSERT_TRUE(file.readFloats("model.a", out, &error)) << error;
  EXPECT_EQ(out, a);
  ASSERT_TRUE(file.readFloats("b", out, &error)) << error;
  EXPECT_EQ(out, std::vector<float>(bValues, bValues + 3));
  ASSERT_TRUE(file.readFloats("c", out, &error)) << error;
  EXPECT_EQ(out, std::vector<float>(cValues, cValues + 2));
  EXPECT_FALSE(file.readFloats("missing", out, &error));
  EXPECT_EQ(error, path + ": no tensor named 'missing'");
  std::remove(path.c_str());
}

TEST(Safetensors, ClearErrorsOnBadFiles) {
  std::string ok =
      R"({"w": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]}})";
  std::string data(8, '\0');
  EXPECT_NE(openError(writeFile("t1", ok, data.substr(0, 4)))
                .find("outside the 4-byte data section"),
            std::string::npos);
  EXPECT_NE(
      openError(writeFile("t2", ok.substr(0, 20), data)).find(": header: "),
      std::string::npos);
  std::string wrongSize =
      R"({"w": {"dtype": "F32", "shape": [3], "data_offsets": [0, 8]}})";
  EXPECT_NE(openError(writeFile("t3", wrongSize, data))
                .find("header: w: data_offsets [0, 8] hold 8 bytes, the "
                      "shape needs 12"),
            std::string::npos);
  std::string badDtype =
      R"({"w": {"dtype": "Q4", "shape": [2], "data_offsets": [0, 8]}})";
  EXPECT_NE(
      openError(writeFile("t4", badDtype, data)).find("unknown dtype 'Q4'"),
      std::string::npos);
  std::string missingField = R"({"w": {"dtype": "F32", "shape": [2]}})";
  EXPECT_NE(openError(writeFile("t5", missingField, data))
                .find("header: w: expected dtype, shape, data_offsets"),
            std::string::npos);
  // A length field far beyond the file size.
  std::string path = tempPath("t6");
  std::ofstream(path, std::ios::binary)
      << std::string("\xff\xff\xff\x7f\0\0\0\0", 8) << "{}";
  EXPECT_NE(openError(path).find("header: length 2147483647 exceeds the file"),
            std::string::npos);
  EXPECT_EQ(openError("/nonexistent.safetensors"),
            "/nonexistent.safetensors: cannot open the file");
}

TEST(Safetensors, IntegerTensorsAreListedButNotReadAsFloats) {
  std::string header =
      R"({"ids": {"dtype": "I64", "shape": [1], "data_offsets": [0, 8]}})";
  std::string path = writeFile("ints", header, std::string(8, '\0'));
  SafetensorsFile file;
  std::string error;
  ASSERT_TRUE(file.open(path, &error)) << error;
  std::vector<float> out;
  EXPECT_FALSE(file.readFloats("ids", out, &error));
  EXPECT_NE(error.find("has dtype I64"), std::string::npos) << error;
  std::remove(path.c_str());
}

TEST(Safetensors, HostileHeadersAreErrorsNotCrashes) {
  std::string data(16, '\0');
  // 2^32 x 2^32 F16: the element count wraps to 0 in 64 bits.
  std::string wrap = R"({"w": {"dtype": "F16", "shape": [4294967296, )"
                     R"(4294967296], "data_offsets": [0, 0]}})";
  EXPECT_NE(openError(writeFile("h1", wrap, data))
                .find("header: w: shape: F16 elements overflow 64-bit sizes"),
            std::string::npos);
  std::string overlap =
      R"({"a": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]},)"
      R"( "b": {"dtype": "F32", "shape": [2], "data_offsets": [4, 12]}})";
  EXPECT_NE(openError(writeFile("h2", overlap, data))
                .find("header: b: data_offsets overlap those of a"),
            std::string::npos);
  // Out of order but disjoint, and empty tensors anywhere, are fine.
  std::string disjoint =
      R"({"b": {"dtype": "F32", "shape": [2], "data_offsets": [8, 16]},)"
      R"( "e": {"dtype": "F32", "shape": [0], "data_offsets": [4, 4]},)"
      R"( "a": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]}})";
  std::string path = writeFile("h3", disjoint, data);
  SafetensorsFile file;
  std::string error;
  EXPECT_TRUE(file.open(path, &error)) << error;
  std::remove(path.c_str());
  std::string twice =
      R"({"a": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]},)"
      R"( "a": {"dtype": "F32", "shape": [2], "data_offsets": [8, 16]}})";
  EXPECT_NE(
      openError(writeFile("h4", twice, data)).find("header: a: defined twice"),
      std::string::npos);
  std::string backwards =
      R"({"a": {"dtype": "F32", "shape": [0], "data_offsets": [8, 0]}})";
  EXPECT_NE(openError(writeFile("h5", backwards, data))
                .find("header: a: data_offsets: expected [begin, end] with "
                      "0 <= begin <= end"),
            std::string::npos);
  std::string deep = "{\"a\": " + std::string(50000, '[') +
                     std::string(50000, ']') + "}";
  EXPECT_NE(openError(writeFile("h6", deep, data))
                .find("header: JSON nested deeper than 64 levels"),
            std::string::npos);
}
