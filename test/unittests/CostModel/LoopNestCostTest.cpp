//===- LoopNestCostTest.cpp - Host or device time of one loop nest --------===//
#include "weft/CostModel/LoopNestCost.h"

#include "gtest/gtest.h"

using namespace weft::cost;

namespace {
DeviceSpec gpu() { return llvm::cantFail(lookupDevice("A100-40GB")); }
DeviceSpec cpu() { return llvm::cantFail(lookupDevice("cpu")); }
} // namespace

TEST(LoopNestCost, CpuSideIsThePartitionersRatePerAccess) {
  // 8 bytes at 50 GB/s x 0.6: 0.2667 ns per access.
  EXPECT_NEAR(secondsPerLoopAccess(cpu()), 8.0 / 30e9, 1e-15);
  LoopNestCounts c;
  c.accesses = 3e6;
  EXPECT_NEAR(predictLoopNest(c, gpu(), cpu()).cpuUs, 800, 1e-6);
}

TEST(LoopNestCost, KernelIsTheSlowerOfMemoryAndCompute) {
  DeviceSpec g = gpu();
  LoopNestCounts c;
  c.kernelBytes = 1e9; // 1 GB at 1555 GB/s x 0.8884
  c.flops = 1e6;
  LoopNestTimes t = predictLoopNest(c, g, cpu());
  EXPECT_NEAR(t.kernelUs, 1e9 / (1555e3 * 0.8884), 1e-6);
  // 1e12 double flops at 9.7 TFLOPS outweigh the bytes.
  c.flops = 1e12;
  EXPECT_NEAR(predictLoopNest(c, g, cpu()).kernelUs, 1e6 / 9.7, 1e-6);
  // Floats run at the fp32 rate.
  c.doublePrecision = false;
  EXPECT_NEAR(predictLoopNest(c, g, cpu()).kernelUs, 1e6 / 19.5, 1e-6);
}

TEST(LoopNestCost, LaunchesAndCopiesAddUp) {
  LoopNestCounts c;
  c.launches = 20; // a kernel under a host loop of 20 iterations
  c.copies = 2;
  c.bytesIn = c.bytesOut = 12.5e6; // 25 MB over PCIe 4 at 25 GB/s: 1 ms
  LoopNestTimes t = predictLoopNest(c, gpu(), cpu());
  EXPECT_DOUBLE_EQ(t.launchUs, 20 * kKernelLaunchUs);
  EXPECT_NEAR(t.copyUs, 2 * kHostCopyAlphaUs + 1000, 1e-6);
  EXPECT_NEAR(t.gpuUs(), t.kernelUs + t.launchUs + t.copyUs, 1e-9);
}

TEST(LoopNestCost, SmallNestStaysOnTheHost) {
  // A 30 x 30 stencil sweep: 4500 accesses, 36 KB in and out.
  LoopNestCounts c;
  c.accesses = 4500;
  c.flops = 3600;
  c.kernelBytes = 2 * 900 * 8;
  c.copies = 2;
  c.bytesIn = c.bytesOut = 900 * 8;
  LoopNestTimes t = predictLoopNest(c, gpu(), cpu());
  EXPECT_LT(t.cpuUs, 2);
  EXPECT_GT(t.gpuUs(), 20);
  EXPECT_FALSE(t.deviceIsFaster());
}

TEST(LoopNestCost, LargeNestRunsOnTheDevice) {
  // A 4096 x 4096 stencil sweep under 100 time steps, data moved once.
  double n2 = 4096.0 * 4096.0;
  LoopNestCounts c;
  c.accesses = 100 * 6 * n2;
  c.flops = 100 * 4 * n2;
  c.launches = 100;
  c.kernelBytes = 100 * 2 * n2 * 8;
  c.copies = 2;
  c.bytesIn = c.bytesOut = n2 * 8;
  LoopNestTimes t = predictLoopNest(c, gpu(), cpu());
  EXPECT_TRUE(t.deviceIsFaster());
  EXPECT_LT(t.gpuUs() * 10, t.cpuUs);
}

TEST(LoopNestCost, TransferBoundNestStaysOnTheHost) {
  // One pass over a large array: copying it both ways costs more than the
  // host's pass over it.
  LoopNestCounts c;
  c.accesses = 2e7;
  c.flops = 1e7;
  c.kernelBytes = 1.6e8;
  c.copies = 2;
  c.bytesIn = c.bytesOut = 0.8e8;
  LoopNestTimes t = predictLoopNest(c, gpu(), cpu());
  EXPECT_GT(t.copyUs, t.cpuUs);
  EXPECT_FALSE(t.deviceIsFaster());
}
