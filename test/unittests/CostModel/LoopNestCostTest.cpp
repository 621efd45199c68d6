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

namespace {
/// C[i][j] += A[i][k] * B[k][j] at n x n x n doubles: A shared by a row of
/// threads, B by a column, C's load and store the same at every k.
TiledNest product(double n) {
  TiledNest nest;
  nest.trips[0] = nest.trips[1] = nest.inner = n;
  nest.readsAlongX = nest.readsAlongY = 1;
  nest.invariantAccesses = 2;
  nest.flopsPerIteration = 2;
  return nest;
}
} // namespace

TEST(TiledNest, TiledTimeIsTheBytesOfTheTilesOverTheBandwidth) {
  // 16 x 16 blocks, tiles of 16, 512^3: 1024 blocks, each fetching a row
  // of A's tile and one of B's per iteration (2 x 16 x 8 bytes) and C's
  // element twice per thread; 8 blocks an SM (2048 threads), 864 slots on
  // 108 SMs, so two waves, the second 160/864 full.
  KernelShape s = predictTiledNest(product(512), gpu(), 16, 16, 16);
  double bytes = 1024 * (512 * 256.0 + 2 * 256 * 8);
  double fill = 1024 / (2 * 864.0);
  EXPECT_EQ(s.blocksPerSM, 8);
  EXPECT_NEAR(s.us, bytes / (1555e3 * 0.8884) / fill, 1e-6);
}

TEST(TiledNest, UntiledWarpsFetchTheirOwnSectors) {
  // 32 x 8 blocks without tiles: each warp fetches 32 doubles of B and one
  // 32-byte sector of A per iteration.
  KernelShape s = predictTiledNest(product(512), gpu(), 32, 8, 0);
  double bytes = 1024 * (512 * (256 * 8 + 8 * 32.0) + 2 * 256 * 8);
  double fill = 1024 / (2 * 864.0);
  EXPECT_NEAR(s.us, bytes / (1555e3 * 0.8884) / fill, 1e-6);
  EXPECT_GT(s.us, 5 * predictTiledNest(product(512), gpu(), 32, 8, 16).us);
}

TEST(TiledNest, SharedMemoryLimitsTheBlocksOfAnSM) {
  // 32 x 16 blocks with tiles of 32: (32 + 16) x 32 doubles, 12 KiB a
  // block; 164 KiB hold 13 of them, the 512 threads only 4.
  DeviceSpec g = gpu();
  EXPECT_EQ(predictTiledNest(product(512), g, 32, 16, 32).blocksPerSM, 4);
  g.sharedKiBPerSM = 24; // two tiles' worth
  EXPECT_EQ(predictTiledNest(product(512), g, 32, 16, 32).blocksPerSM, 2);
}

TEST(TiledNest, ChoosesTheWidestTileThatKeepsTheSMsBlocks) {
  KernelShape s = chooseTiledNestShape(product(512), gpu());
  EXPECT_EQ(s.block[0], 32);
  EXPECT_EQ(s.block[1], 16);
  EXPECT_EQ(s.tile, 32);
  EXPECT_EQ(s.blocksPerSM, 4);
  // A short k loop needs no wider tile than itself.
  TiledNest shortLoop = product(512);
  shortLoop.inner = 5;
  EXPECT_EQ(chooseTiledNestShape(shortLoop, gpu()).tile, 8);
  // On a T4 (1024 threads, 64 KiB an SM) the tiles still fit a block's
  // static shared memory.
  KernelShape t4 =
      chooseTiledNestShape(product(512), llvm::cantFail(lookupDevice("T4")));
  EXPECT_GT(t4.tile, 0);
  EXPECT_LE((t4.block[0] + t4.block[1]) * t4.tile * 8, kStaticSharedBytes);
}

TEST(TiledNest, NoTilesWithoutSharedReadsOrSMLimits) {
  TiledNest alone = product(512);
  alone.readsAlongX = alone.readsAlongY = 0;
  alone.otherAccesses = 2;
  KernelShape s = chooseTiledNestShape(alone, gpu());
  EXPECT_EQ(s.tile, 0);
  EXPECT_EQ(s.block[0], 32);
  EXPECT_EQ(s.block[1], 8);
  DeviceSpec inlineGpu = gpu(); // a cluster file's device: no SM limits
  inlineGpu.maxThreadsPerSM = 0;
  EXPECT_EQ(chooseTiledNestShape(product(512), inlineGpu).tile, 0);
}
