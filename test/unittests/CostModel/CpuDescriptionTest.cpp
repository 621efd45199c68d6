//===- CpuDescriptionTest.cpp - A CPU measured by its user ---------------===//
#include "weft/CostModel/CpuDescription.h"
#include "weft/CostModel/LoopNestCost.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

using namespace weft::cost;

namespace {
/// What bench/cpu-core.c --json printed on a 2-core machine.
const char *kDescription = R"({
  "name": "two-cores",
  "cores": 2,
  "l1_KiB": 48,
  "l2_KiB": 2048,
  "l3_KiB": 16384,
  "load_store_GBps": 250,
  "l2_read_GBps": 80,
  "l3_read_GBps": 25,
  "memory_read_GBps": 10,
  "node_memory_read_GBps": 15,
  "fp64_GFLOPS": 40,
  "vector_doubles": 8,
  "fp_latency_ns": 0.5,
  "fp_divide_latency_ns": 4
})";

llvm::Expected<DeviceSpec> parse(llvm::StringRef text) {
  llvm::Expected<llvm::json::Value> v = llvm::json::parse(text);
  if (!v)
    return v.takeError();
  return cpuFromJSON(*v, "cpu.json");
}

std::string errorOf(llvm::StringRef text) {
  llvm::Expected<DeviceSpec> d = parse(text);
  if (d)
    return "(no error)";
  return llvm::toString(d.takeError());
}

/// kDescription with `key`'s value replaced by `value` (or the key removed
/// where `value` is empty).
std::string with(llvm::StringRef key, llvm::StringRef value) {
  llvm::json::Value v = llvm::cantFail(llvm::json::parse(kDescription));
  llvm::json::Object &o = *v.getAsObject();
  if (value.empty())
    o.erase(key);
  else
    o[key] = llvm::cantFail(llvm::json::parse(value));
  std::string text;
  llvm::raw_string_ostream(text) << v;
  return text;
}
} // namespace

TEST(CpuDescription, ReadsEveryFigure) {
  DeviceSpec d = llvm::cantFail(parse(kDescription));
  EXPECT_EQ(d.name, "two-cores");
  EXPECT_TRUE(d.isCpu);
  EXPECT_EQ(d.sms, 2);
  EXPECT_DOUBLE_EQ(d.cacheKiB[0], 48);
  EXPECT_DOUBLE_EQ(d.cacheKiB[2], 16384);
  EXPECT_DOUBLE_EQ(d.cacheFillGBps[0], 80);
  EXPECT_DOUBLE_EQ(d.cacheFillGBps[1], 25);
  EXPECT_DOUBLE_EQ(d.loadStoreGBps, 250);
  EXPECT_DOUBLE_EQ(d.nodeMemoryGBps, 15);
  EXPECT_DOUBLE_EQ(d.vectorDoubles, 8);
  EXPECT_DOUBLE_EQ(d.fpLatencyNs, 0.5);
  EXPECT_DOUBLE_EQ(d.fpDivideLatencyNs, 4);
  // One core's time: memory at the measured 10 GB/s (no efficiency on
  // top), flops at one core's 40 GFLOPS.
  CoreWork w;
  w.fills[2] = 1e9;
  EXPECT_NEAR(predictCoreSeconds(w, d), 0.1, 1e-12);
  // Two cores reading at once share the node's 15 GB/s.
  EXPECT_NEAR(predictCoreSeconds(w, d, 2), 1e9 / 7.5e9, 1e-12);
  w.fills[2] = 0;
  w.flops = 4e9;
  EXPECT_NEAR(predictCoreSeconds(w, d), 0.1, 1e-12);
}

TEST(CpuDescription, NamesTheFieldOfEachError) {
  EXPECT_EQ(errorOf("[1]"), "cpu.json: (top level): expected a JSON object");
  EXPECT_EQ(errorOf(with("memory_read_GBps", "")),
            "cpu.json: memory_read_GBps: missing");
  EXPECT_EQ(errorOf(with("memory_read_GBps", "0")),
            "cpu.json: memory_read_GBps: expected a positive number");
  EXPECT_EQ(errorOf(with("l3_KiB", "0")),
            "cpu.json: l3_KiB: expected a positive number");
  EXPECT_EQ(errorOf(with("fp_divide_latency_ns", "-1")),
            "cpu.json: fp_divide_latency_ns: expected a non-negative number");
  EXPECT_EQ(errorOf(with("cores", "2.5")),
            "cpu.json: cores: expected a whole number");
  EXPECT_EQ(errorOf(with("cores", "1e9")),
            "cpu.json: cores: expected a number at most 7e+04");
  EXPECT_EQ(errorOf(with("fp_latency_ns", "\"fast\"")),
            "cpu.json: fp_latency_ns: expected a positive number");
  EXPECT_EQ(errorOf(with("name", "\" \"")),
            "cpu.json: name: expected a non-empty string");
  EXPECT_NE(
      errorOf(with("l4_KiB", "1"))
          .find("cpu.json: l4_KiB: unknown field (expected one of: name, "),
      std::string::npos);
  // Comments are allowed; the name is optional.
  EXPECT_EQ(errorOf(with("_measured", "\"2026-12-07\"")), "(no error)");
  EXPECT_EQ(llvm::cantFail(parse(with("name", ""))).name, "cpu");
}

TEST(CpuDescription, LooksUpNamesAndFiles) {
  EXPECT_EQ(llvm::cantFail(lookupCpu("cpu")).name, "cpu");
  llvm::Expected<DeviceSpec> missing = lookupCpu("/nonexistent/cpu.json");
  ASSERT_FALSE(missing);
  EXPECT_NE(llvm::toString(missing.takeError())
                .find("/nonexistent/cpu.json: cannot read: "),
            std::string::npos);
  llvm::SmallString<128> path;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("cpu", "json", path));
  auto lookupText = [&](llvm::StringRef text) {
    std::error_code ec;
    {
      llvm::raw_fd_ostream os(path, ec);
      os << text;
    }
    EXPECT_FALSE(ec);
    return lookupCpu(path);
  };
  llvm::Expected<DeviceSpec> truncated = lookupText("{\"cores\": 2,");
  ASSERT_FALSE(truncated);
  EXPECT_NE(llvm::toString(truncated.takeError()).find(": invalid JSON: "),
            std::string::npos);
  EXPECT_EQ(llvm::cantFail(lookupText(kDescription)).name, "two-cores");
  // A hostile file nests deeper than a parser may recurse: an error.
  llvm::Expected<DeviceSpec> deep = lookupText(std::string(100000, '['));
  ASSERT_FALSE(deep);
  EXPECT_NE(llvm::toString(deep.takeError()).find("nested deeper than"),
            std::string::npos);
  llvm::sys::fs::remove(path);
}
