//===- DeviceTest.cpp - Device database -----------------------------------===//
#include "weft/CostModel/Device.h"

#include "gtest/gtest.h"

using namespace weft::cost;

TEST(Device, EveryRequiredTypeIsKnown) {
  for (const char *name : {"T4", "P100", "V100-16GB", "V100-32GB", "A10", "L4",
                           "A100-40GB", "A100-80GB", "A800-80GB", "H100-80GB",
                           "H200", "RTX3090", "RTX4090", "cpu"}) {
    auto d = lookupDevice(name);
    ASSERT_TRUE(bool(d)) << name;
    EXPECT_EQ(d->name, name);
    EXPECT_GT(d->memGiB, 0);
    EXPECT_GT(d->fp16TFLOPS, 0);
    EXPECT_GT(d->bandwidthGBps, 0);
    EXPECT_GT(d->gemmEff, 0);
    EXPECT_LE(d->gemmEff, 1);
    EXPECT_GT(d->memEff, 0);
    EXPECT_LE(d->memEff, 1);
    EXPECT_GT(d->fp64TFLOPS, 0);
    EXPECT_LE(d->fp64TFLOPS, d->fp32TFLOPS);
    if (!d->isCpu) {
      EXPECT_GT(d->hostLinkGBps, 0);
    }
  }
}

TEST(Device, NamesAreCaseInsensitiveWithAliases) {
  EXPECT_EQ(cantFail(lookupDevice("a100-40gb")).name, "A100-40GB");
  EXPECT_EQ(cantFail(lookupDevice("h100")).name, "H100-80GB");
  EXPECT_EQ(cantFail(lookupDevice(" Tesla-T4 ")).name, "T4");
  EXPECT_TRUE(cantFail(lookupDevice("CPU")).isCpu);
}

TEST(Device, UnknownNameListsKnownOnes) {
  auto d = lookupDevice("X");
  ASSERT_FALSE(bool(d));
  std::string msg = llvm::toString(d.takeError());
  EXPECT_NE(msg.find("unknown GPU type 'X'"), std::string::npos);
  EXPECT_NE(msg.find("T4, P100"), std::string::npos);
}

TEST(Device, CalibratedDevicesAreMarked) {
  EXPECT_TRUE(cantFail(lookupDevice("A100-40GB")).calibrated);
  EXPECT_FALSE(cantFail(lookupDevice("H100-80GB")).calibrated);
  // Low-power cards share the class default of T4 and L4.
  DeviceSpec a10 = cantFail(lookupDevice("A10"));
  DeviceSpec t4 = cantFail(lookupDevice("T4")),
             l4 = cantFail(lookupDevice("L4"));
  EXPECT_NEAR(a10.gemmEff, (t4.gemmEff + l4.gemmEff) / 2, 1e-9);
}

TEST(Device, GPUsHaveTheirSMLimits) {
  for (const std::string &name : knownDeviceNames()) {
    DeviceSpec d = llvm::cantFail(lookupDevice(name));
    if (d.isCpu) {
      EXPECT_EQ(d.maxThreadsPerSM, 0) << name;
      continue;
    }
    EXPECT_GE(d.maxThreadsPerSM, 1024) << name;
    EXPECT_GE(d.maxBlocksPerSM, 16) << name;
    EXPECT_GE(d.sharedKiBPerSM, 64) << name;
    EXPECT_EQ(d.warpSize, 32) << name;
  }
  // Compute capability 8.0 and 9.0 (CUDA C++ Programming Guide).
  EXPECT_EQ(llvm::cantFail(lookupDevice("A100-40GB")).sharedKiBPerSM, 164);
  EXPECT_EQ(llvm::cantFail(lookupDevice("H100-80GB")).sharedKiBPerSM, 228);
  EXPECT_EQ(llvm::cantFail(lookupDevice("T4")).maxThreadsPerSM, 1024);
}
