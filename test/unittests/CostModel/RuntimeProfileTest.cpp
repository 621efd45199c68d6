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
  p.cudaCoreGemm[0] = {false, false, true, true};
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
  EXPECT_EQ(q->cudaCoreGemm, p.cudaCoreGemm);
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
  EXPECT_EQ(
      readError(head + R"("gemm_units": {"prefill": {"16": "cuda-cores"}}})"),
      "p.json: gemm_units.prefill.16: expected a quantised bit-width "
      "(8, 4 or 3)");
  EXPECT_EQ(readError(head + R"("gemm_units": {"decode": {"4": "gpu"}}})"),
            "p.json: gemm_units.decode.4: expected \"cuda-cores\" or "
            "\"tensor-cores\"");
  EXPECT_EQ(readError(head + R"("estimated": "no"})"),
            "p.json: estimated: expected true or false");
  EXPECT_EQ(readError(head + R"("kernel": {}})"),
            "p.json: kernel: unknown field (expected one of: format, "
            "version, name, target, estimated, provenance, kernels, "
            "gemm_units, devices, overheads_ms, transfer, memory, curves)");
  EXPECT_EQ(readError(R"({"name": "x"})"),
            "p.json: version: missing (expected 2)");
  EXPECT_EQ(readError(R"({"version": 3, "name": "x"})"),
            "p.json: version: unsupported version 3 (this weft reads "
            "versions 1 and 2)");
  EXPECT_EQ(readError(R"({"version": 1, "name": " "})"),
            "p.json: name: missing (expected a non-empty string)");
  EXPECT_EQ(readError(R"([1])"), "p.json: (top level): expected a JSON object");
  // Comments are welcome anywhere.
  EXPECT_EQ(readError(head + R"("_why": 1, "kernels": {"_c": 0}})"), "");
}

TEST(RuntimeProfile, KernelCurvesReadBackAndReplaceTheRooflineOnTheirDevice) {
  RuntimeProfile p;
  p.name = "measured";
  p.target = "cpu";
  p.estimated = false;
  KernelCurves c;
  c.threads = 2;
  c.weightNs = {{{0.01, 0.02, 0.03, 0.04}, {0.5, 0.3, 0.2, 0.25}}};
  c.rowWeightNs = {{{0.011, 0.04, 0.05, 0.06}, {0.01, 0.04, 0.05, 0.06}}};
  c.attentionNs = {0.4, 0.8};
  c.attentionHeadNs = {1, 3};
  c.elementwiseNs = {10, 20};
  c.headWeightNs = 0.3;
  c.headRowWeightNs = 0.05;
  c.embeddingNs = 2;
  p.curves = c;
  p.layerOverheadMs = {0.03, 0.015};
  Expected<RuntimeProfile> q =
      profileFromJSON(json::Value(profileToJSON(p)), "p.json");
  ASSERT_TRUE(bool(q)) << toString(q.takeError());
  ASSERT_TRUE(q->curves.has_value());
  EXPECT_EQ(q->curves->device, "cpu");
  EXPECT_EQ(q->curves->threads, 2);
  EXPECT_EQ(q->curves->weightNs, c.weightNs);
  EXPECT_EQ(q->curves->rowWeightNs, c.rowWeightNs);
  EXPECT_EQ(q->curves->attentionHeadNs, c.attentionHeadNs);
  EXPECT_EQ(q->curves->embeddingNs, 2);

  // A decode layer of a dim-512 model (FFN 1376, 8/4 heads) at 8 bits, 3
  // rows, 100 positions past: the curves' formula, plus the overhead.
  ModelDesc m;
  m.hidden = 512;
  m.intermediate = 1376;
  m.heads = 8;
  m.kvHeads = 4;
  m.vocab = 4096;
  m.layers = 4;
  LayerQuery query{Phase::Decode, 3, 1, 100, 8};
  double weights = 512.0 * (512 + 512) + 512.0 * 512 + 3 * 512.0 * 1376;
  double positions = 3 * 101.0;
  double want = (weights * (0.3 + 3 * 0.04) + positions * (512 * 0.8 + 8 * 3) +
                 3 * 512 * 20) *
                    1e-6 +
                0.015;
  DeviceSpec cpu = *lookupDevice("cpu");
  EXPECT_NEAR(layerLatencyMs(m, cpu, query, *q), want, 1e-9);
  // Other devices keep the roofline.
  DeviceSpec t4 = *lookupDevice("T4");
  EXPECT_NEAR(layerLatencyMs(m, t4, query, *q),
              layerLatencyMs(m, t4, query) + 0.015, 1e-12);
  // Head and embedding.
  EXPECT_NEAR(lmHeadLatencyMs(m, cpu, Phase::Decode, 4, *q),
              4096 * 512 * (0.3 + 4 * 0.05) * 1e-6, 1e-12);
  EXPECT_NEAR(embeddingLatencyMs(m, cpu, Phase::Prefill, 64, *q),
              64 * 512 * 2 * 1e-6, 1e-12);
}

TEST(RuntimeProfile, MalformedCurvesAreFieldNamedErrors) {
  const std::string head = R"({"version": 2, "name": "x", )";
  EXPECT_EQ(readError(R"({"version": 1, "name": "x", "curves": {}})"),
            "p.json: curves: needs version 2 or later");
  EXPECT_EQ(readError(head + R"("curves": {"threads": 0}})"),
            "p.json: curves.threads: expected an integer in [1, 4096]");
  EXPECT_EQ(
      readError(head +
                R"("curves": {"layer": {"decode": {"weight_ns": {"5": 1}}}}})"),
      "p.json: curves.layer.decode.weight_ns.5: unsupported bit-width "
      "(expected 16, 8, 4 or 3)");
  EXPECT_EQ(
      readError(head +
                R"("curves": {"layer": {"decode": {"attention_ns": -1}}}})"),
      "p.json: curves.layer.decode.attention_ns: expected a "
      "non-negative number");
  EXPECT_EQ(readError(head + R"("curves": {"head_ns": {"weight": 1e9}}})"),
            "p.json: curves.head_ns.weight: expected a number at most 1e+06");
  EXPECT_EQ(readError(head + R"("curves": {"layers": {}}})"),
            "p.json: curves.layers: unknown field (expected one of: device, "
            "threads, layer, head_ns, embedding_ns)");
}
