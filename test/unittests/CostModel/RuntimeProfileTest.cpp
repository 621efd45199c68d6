//===- RuntimeProfileTest.cpp - Runtime profile reader and writer --------===//
#include "weft/CostModel/RuntimeProfile.h"

#include "gtest/gtest.h"

using namespace weft::cost;
using namespace llvm;

namespace {

json::Value parse(StringRef text) { return cantFail(json::parse(text)); }

/// The error of reading `text` as profile file "p.json" ("" when it reads).
std::string readError(StringRef text) {
  Expected<RuntimeProfile> p = profileFromJSON(parse(text), "p.json");
  return p ? "" : toString(p.takeError());
}

} // namespace

TEST(RuntimeProfile, BuiltinsAreTheAnalyticalModelAndSayTheyAreEstimated) {
  for (const RuntimeProfile *p :
       {&builtinCpuProfile(), &builtinCudaProfile()}) {
    EXPECT_TRUE(p->estimated) << p->name;
    for (Phase ph : {Phase::Prefill, Phase::Decode})
      for (int bits : kProfileBits)
        EXPECT_EQ(p->kernelScale(ph, bits, "T4"), 1.0);
    EXPECT_EQ(p->transferExtraMs(1 << 20), 0.0);
    EXPECT_EQ(p->reservedBytesPerDevice, 0);
  }
  EXPECT_EQ(builtinProfileFor(true).name, "weft-cpu");
  EXPECT_EQ(builtinProfileFor(false).name, "weft-cuda-estimated");
}

TEST(RuntimeProfile, KernelScaleMultipliesBitAndDeviceFactors) {
  RuntimeProfile p;
  p.kernelFactor[phaseIndex(Phase::Decode)][1] = 6; // 8 bits
  p.deviceFactor["T4"] = {2, 3};
  EXPECT_EQ(p.kernelScale(Phase::Decode, 8, "t4"), 18.0);
  EXPECT_EQ(p.kernelScale(Phase::Prefill, 8, "T4"), 2.0);
  EXPECT_EQ(p.kernelScale(Phase::Decode, 8, "A100-40GB"), 6.0);
  EXPECT_EQ(p.kernelScale(Phase::Decode, 16, "A100-40GB"), 1.0);
  p.transferLatencyUs = 500;
  p.stagingGBps = 2;
  // 0.5 ms + 2e6 bytes at 2 GB/s (1 ms).
  EXPECT_DOUBLE_EQ(p.transferExtraMs(2'000'000), 1.5);
}

TEST(RuntimeProfile, WrittenProfilesReadBackUnchanged) {
  RuntimeProfile p;
  p.name = "fitted";
  p.target = "cuda";
  p.estimated = false;
  p.provenance = {"34 runs", "LLM-PQ", "2026-12-02", "weft cost calibrate"};
  p.kernelFactor = {{{1.05, 1.5, 26.3, 22.8}, {1.46, 6.3, 6.5, 6.7}}};
  p.deviceFactor["P100-PCIE-12GB"] = {0.5, 1.25};
  p.layerOverheadMs = {0.25, 0.125};
  p.stageOverheadMs = {28, 8.9};
  p.stepOverheadMs = {0, 10.6};
  p.transferPath = "host-staged-tcp";
  p.transferLatencyUs = 54;
  p.stagingGBps = 3.5;
  p.reservedBytesPerDevice = 123456789;
  Expected<RuntimeProfile> q =
      profileFromJSON(json::Value(profileToJSON(p)), "p.json");
  ASSERT_TRUE(bool(q)) << toString(q.takeError());
  EXPECT_EQ(q->name, p.name);
  EXPECT_EQ(q->target, p.target);
  EXPECT_FALSE(q->estimated);
  EXPECT_EQ(q->provenance.measured, "34 runs");
  EXPECT_EQ(q->provenance.command, "weft cost calibrate");
  EXPECT_EQ(q->kernelFactor, p.kernelFactor);
  EXPECT_EQ(q->deviceFactor, p.deviceFactor);
  EXPECT_EQ(q->layerOverheadMs, p.layerOverheadMs);
  EXPECT_EQ(q->stageOverheadMs, p.stageOverheadMs);
  EXPECT_EQ(q->stepOverheadMs, p.stepOverheadMs);
  EXPECT_EQ(q->transferPath, p.transferPath);
  EXPECT_EQ(q->transferLatencyUs, p.transferLatencyUs);
  EXPECT_EQ(q->stagingGBps, p.stagingGBps);
  EXPECT_EQ(q->reservedBytesPerDevice, p.reservedBytesPerDevice);
}

TEST(RuntimeProfile, MinimalFileIsTheIdentityAndEstimated) {
  Expected<RuntimeProfile> p =
      profileFromJSON(parse(R"({"version": 1, "name": "x"})"), "p.json");
  ASSERT_TRUE(bool(p)) << toString(p.takeError());
  EXPECT_TRUE(p->estimated); // only a file that says so is measured
  EXPECT_EQ(p->kernelScale(Phase::Prefill, 4, "T4"), 1.0);
  // Fields not given keep the identity; given ones are taken.
  p = profileFromJSON(
      parse(R"({"version": 1, "name": "x", "kernels": {"decode": {"8": 4}}})"),
      "p.json");
  ASSERT_TRUE(bool(p));
  EXPECT_EQ(p->kernelScale(Phase::Decode, 8, "T4"), 4.0);
  EXPECT_EQ(p->kernelScale(Phase::Prefill, 8, "T4"), 1.0);
}

TEST(RuntimeProfile, MalformedFilesAreFieldNamedErrors) {
  const std::string head = R"({"version": 1, "name": "x", )";
  EXPECT_EQ(readError(head + R"("kernels": {"decode": {"8": -1}}})"),
            "p.json: kernels.decode.8: expected a positive number");
  EXPECT_EQ(readError(head + R"("kernels": {"decode": {"8": "fast"}}})"),
            "p.json: kernels.decode.8: expected a positive number");
  EXPECT_EQ(readError(head + R"("kernels": {"decode": {"2": 1}}})"),
            "p.json: kernels.decode.2: unsupported bit-width (expected 16, "
            "8, 4 or 3)");
  EXPECT_EQ(readError(head + R"("kernels": {"prompt": {}}})"),
            "p.json: kernels.prompt: unknown field (expected one of: "
            "prefill, decode)");
  EXPECT_EQ(readError(head + R"("kernels": [1]})"),
            "p.json: kernels: expected an object");
  EXPECT_EQ(readError(head + R"("devices": {"T4": {"decode": 0}}})"),
            "p.json: devices.T4.decode: expected a positive number");
  EXPECT_EQ(readError(head + R"("overheads_ms": {"stage": {"prefill": -2}}})"),
            "p.json: overheads_ms.stage.prefill: expected a non-negative "
            "number");
  EXPECT_EQ(readError(head + R"("transfer": {"latency_us": null}})"),
            "p.json: transfer.latency_us: expected a non-negative number");
  EXPECT_EQ(
      readError(head + R"("memory": {"reserved_bytes_per_device": 1.5}})"),
      "p.json: memory.reserved_bytes_per_device: expected an integer in [0, "
      "2^50]");
  EXPECT_EQ(readError(head + R"("kernels": {"decode": {"16": 1e308}}})"),
            "p.json: kernels.decode.16: expected a number at most 1e+06");
  EXPECT_EQ(readError(head + R"("overheads_ms": {"step": {"decode": 1e7}}})"),
            "p.json: overheads_ms.step.decode: expected a number at most "
            "1e+06");
  EXPECT_EQ(readError(head + R"("transfer": {"staging_GBps": 1e-300}})"),
            "p.json: transfer.staging_GBps: expected 0 (no staging) or at "
            "least 1e-06");
  EXPECT_EQ(readError(head + R"("estimated": "no"})"),
            "p.json: estimated: expected true or false");
  EXPECT_EQ(readError(head + R"("kernel": {}})"),
            "p.json: kernel: unknown field (expected one of: format, "
            "version, name, target, estimated, provenance, kernels, "
            "devices, overheads_ms, transfer, memory)");
  EXPECT_EQ(readError(R"({"name": "x"})"),
            "p.json: version: missing (expected 1)");
  EXPECT_EQ(readError(R"({"version": 2, "name": "x"})"),
            "p.json: version: unsupported version 2 (this weft reads "
            "version 1)");
  EXPECT_EQ(readError(R"({"version": 1, "name": " "})"),
            "p.json: name: missing (expected a non-empty string)");
  EXPECT_EQ(readError(R"([1])"), "p.json: (top level): expected a JSON object");
  // Comments are welcome anywhere.
  EXPECT_EQ(readError(head + R"("_why": 1, "kernels": {"_c": 0}})"), "");
}
