//===- LoopNestCostTest.cpp - Host or device time of one loop nest --------===//
#include "weft/CostModel/LoopNestCost.h"

#include "gtest/gtest.h"

using namespace weft::cost;

namespace {
DeviceSpec gpu() { return llvm::cantFail(lookupDevice("A100-40GB")); }
DeviceSpec cpu() { return llvm::cantFail(lookupDevice("cpu")); }
} // namespace

TEST(LoopNestCost, OneCoreIsTheSlowestOfItsCachesFlopsAndChains) {
  DeviceSpec c = cpu();
  CoreWork w;
  // 3 GB from memory at 50 GB/s x 0.6: 0.1 s.
  w.fills[2] = 3e9;
  w.fills[1] = 5.1e9;  // into L2 from L3 at 102 GB/s: 0.05 s
  w.fills[0] = 6.65e9; // into L1 from L2 at 133 GB/s: 0.05 s
  w.flops = 1e9;       // at 0.5 TFLOPS / 16 cores: 0.032 s
  w.chainNs = 5e7;     // 0.05 s
  EXPECT_NEAR(predictCoreSeconds(w, c), 0.1, 1e-12);
  w.fills[1] = 2.04e10; // 0.2 s: L3 is the bottleneck
  EXPECT_NEAR(predictCoreSeconds(w, c), 0.2, 1e-12);
  w.fills[0] = 3.99e10; // 0.3 s: L2
  EXPECT_NEAR(predictCoreSeconds(w, c), 0.3, 1e-12);
  w.flops = 1e10; // 0.32 s of doubles; floats at the fp32 rate, 0.16 s
  EXPECT_NEAR(predictCoreSeconds(w, c), 0.32, 1e-12);
  w.doublePrecision = false;
  EXPECT_NEAR(predictCoreSeconds(w, c), 0.3, 1e-12);
  w.chainNs = 4e8; // an accumulator's adds, one after the other: 0.4 s
  EXPECT_NEAR(predictCoreSeconds(w, c), 0.4, 1e-12);
  // The CUDA targets' host side is that core's time.
  LoopNestCounts counts;
  counts.core = w;
  EXPECT_NEAR(predictLoopNest(counts, gpu(), c).cpuUs, 0.4e6, 1e-6);
}

TEST(LoopNestCost, CoresOfANodeShareItsMemoryBandwidth) {
  DeviceSpec c = cpu();
  CoreWork w;
  w.fills[2] = 3e9;     // 0.1 s alone
  w.fills[1] = 1.02e10; // 0.1 s from L3, which no sharing slows here
  w.flops = 1e9;        // 0.032 s
  EXPECT_NEAR(predictCoreSeconds(w, c, 1), 0.1, 1e-12);
  EXPECT_NEAR(predictCoreSeconds(w, c, 0), 0.1, 1e-12); // taken as alone
  // Four cores reading at once still each read 30 GB/s (the node's 122.88
  // over 4 is 30.72).
  EXPECT_NEAR(predictCoreSeconds(w, c, 4), 0.1, 1e-12);
  // Eight or sixteen share the node's 122.88 GB/s.
  EXPECT_NEAR(predictCoreSeconds(w, c, 8), 3e9 / (122.88e9 / 8), 1e-12);
  EXPECT_NEAR(predictCoreSeconds(w, c, 16), 3e9 / (122.88e9 / 16), 1e-12);
  // Work bound by its flops or chains is not slowed by sharing.
  w.fills[2] = 3e8;
  w.fills[1] = 0;
  EXPECT_NEAR(predictCoreSeconds(w, c, 16), 0.039, 1e-3);
  w.fills[2] = 1e8;
  EXPECT_NEAR(predictCoreSeconds(w, c, 16), 0.032, 1e-12);
  // A device without a node figure: one core draws all of it.
  c.nodeMemoryGBps = 0;
  w.fills[2] = 3e9;
  EXPECT_NEAR(predictCoreSeconds(w, c, 2), 0.2, 1e-12);
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
  c.core.flops = c.flops;
  for (double &bytes : c.core.fills)
    bytes = c.kernelBytes;
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
  // On one core: each sweep reads and writes both arrays from memory.
  c.core.flops = c.flops;
  for (double &bytes : c.core.fills)
    bytes = c.kernelBytes;
  LoopNestTimes t = predictLoopNest(c, gpu(), cpu());
  EXPECT_NEAR(t.cpuUs, c.kernelBytes / 30e3, 1e-3); // 0.89 s at 30 GB/s
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
  c.core.flops = c.flops;
  for (double &bytes : c.core.fills)
    bytes = c.kernelBytes;
  LoopNestTimes t = predictLoopNest(c, gpu(), cpu());
  EXPECT_NEAR(t.cpuUs, 1.6e8 / 30e3, 1e-3); // 5.3 ms at 30 GB/s
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
  // 108 SMs, so two waves, the second 160/864 full. (The reads of the tiles
  // in shared memory, bound otherwise, are left out: sharedTBps = 0.)
  DeviceSpec g = gpu();
  g.sharedTBps = 0;
  KernelShape s = predictTiledNest(product(512), g, 16, 16, 16);
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

TEST(TiledNest, SharedMemoryBandwidthFromTheFP32Peak) {
  // 128 bytes a clock an SM; the clock from the FP32 peak and the FP32
  // lanes of an SM: 19.5 TFLOPS / (2 x 64 x 108) = 1.41 GHz on an A100,
  // 66.9 / (2 x 128 x 132) = 1.98 GHz on an H100.
  EXPECT_NEAR(gpu().sharedTBps, 19.5, 1e-9);
  EXPECT_NEAR(llvm::cantFail(lookupDevice("H100-80GB")).sharedTBps, 33.45,
              1e-9);
  EXPECT_EQ(cpu().sharedTBps, 0);
}

TEST(TiledNest, TileReadsBoundAThreadOfOneElement) {
  // 32 x 16 blocks, tiles of 32, 4096^3 on an A100: per iteration a warp
  // reads B's tile (32 doubles, 256 bytes) and A's (one row of threads:
  // one 128-byte wavefront); 16 warps, 32768 blocks. That is slower than
  // the device memory the tiles come from and than the fp64 peak. 4 blocks
  // an SM: 76 waves of 432 blocks, the last nearly full.
  KernelShape s = predictTiledNest(product(4096), gpu(), 32, 16, 32);
  double shared = 32768.0 * 4096 * 16 * (256 + 128);
  double fill = 32768 / (76 * 432.0);
  EXPECT_NEAR(s.us, shared / 19.5e6 / fill, 1e-6);
  EXPECT_GT(s.us, 2 * 4096.0 * 4096 * 4096 / (9.7e6));
}

TEST(TiledNest, RegisterTilesShareEachTileReadBetweenElements) {
  // 4 x 4 elements a thread: a warp reads 4 rows of A's tile and 4 of B's
  // per iteration for 16 multiply-adds per thread, 0.5 reads a multiply-add
  // instead of 2.
  TiledNest nest = product(4096);
  nest.registerTiles = true;
  KernelShape one = predictTiledNest(nest, gpu(), 32, 8, 16);
  KernelShape four = predictTiledNest(nest, gpu(), 32, 8, 16, 4, 4);
  double blocks = (4096 / 128) * (4096 / 32);
  double shared = blocks * 4096 * 8 * (4 * 256 + 4 * 128.0);
  EXPECT_EQ(four.coarsen[0], 4);
  EXPECT_EQ(four.coarsen[1], 4);
  EXPECT_LT(four.us, one.us / 2);
  EXPECT_GE(four.us, shared / 19.5e6 - 1e-6);
}

TEST(TiledNest, RegistersLimitTheBlocksOfAnSM) {
  // 4 x 4 doubles a thread: 40 + 1.25 x 2 x (16 + 4 + 4) = 100 registers;
  // 512 threads hold 51200 of the SM's 65536, one block.
  TiledNest nest = product(4096);
  nest.registerTiles = true;
  EXPECT_EQ(predictTiledNest(nest, gpu(), 32, 16, 16, 4, 4).blocksPerSM, 1);
  EXPECT_EQ(predictTiledNest(nest, gpu(), 32, 16, 16).blocksPerSM, 4);
}

TEST(TiledNest, ABlockMustFitTheRegisterFile) {
  // 8 x 8 doubles a thread: 40 + 1.25 x 2 x (64 + 8 + 8) = 240 registers;
  // 512 threads would need 122880, more than the SM's 65536: the block
  // cannot run, whatever its predicted time. 256 threads of 4 x 8 (150
  // registers, 38400) can, as can one element a thread.
  TiledNest nest = product(4096);
  nest.registerTiles = true;
  KernelShape wide = predictTiledNest(nest, gpu(), 32, 16, 16, 8, 8);
  EXPECT_DOUBLE_EQ(wide.registers, 240);
  EXPECT_FALSE(wide.fits);
  KernelShape narrow = predictTiledNest(nest, gpu(), 32, 8, 16, 4, 8);
  EXPECT_DOUBLE_EQ(narrow.registers, 150);
  EXPECT_TRUE(narrow.fits);
  EXPECT_TRUE(predictTiledNest(nest, gpu(), 32, 16, 16).fits);
  EXPECT_TRUE(chooseTiledNestShape(nest, gpu()).fits);
}

TEST(TiledNest, RegisterTileLimitsTheElementsAlongEachDimension) {
  // On an H100, 4 x 4 elements a thread leave the kernel bound by its
  // shared-memory reads (4 + 4 rows of tiles for 16 multiply-adds); up to 8
  // along each dimension, the choice takes 4 x 8 on 256 threads, whose 150
  // registers still fit the SM.
  TiledNest nest = product(4096);
  nest.registerTiles = true;
  DeviceSpec h100 = llvm::cantFail(lookupDevice("H100-80GB"));
  KernelShape four = chooseTiledNestShape(nest, h100);
  EXPECT_LE(four.coarsen[0], 4);
  EXPECT_LE(four.coarsen[1], 4);
  KernelShape eight = chooseTiledNestShape(nest, h100, 8);
  EXPECT_EQ(eight.coarsen[0] * eight.coarsen[1], 32);
  EXPECT_TRUE(eight.fits);
  EXPECT_LT(eight.us, four.us);
  KernelShape one = chooseTiledNestShape(nest, h100, 1);
  EXPECT_EQ(one.coarsen[0] * one.coarsen[1], 1);
}

TEST(TiledNest, ChoosesRegisterTilesOnlyWhereTheNestAllowsThem) {
  TiledNest nest = product(4096);
  KernelShape plain = chooseTiledNestShape(nest, gpu());
  EXPECT_EQ(plain.coarsen[0] * plain.coarsen[1], 1);
  nest.registerTiles = true;
  KernelShape tiled = chooseTiledNestShape(nest, gpu());
  EXPECT_GT(tiled.coarsen[0] * tiled.coarsen[1], 1);
  EXPECT_LT(tiled.us, plain.us);
  EXPECT_LE((tiled.block[0] * tiled.coarsen[0] +
             tiled.block[1] * tiled.coarsen[1]) *
                tiled.tile * 8,
            kStaticSharedBytes);
  // A grid too small for the SMs keeps one element a thread.
  TiledNest small = product(64);
  small.registerTiles = true;
  KernelShape s = chooseTiledNestShape(small, gpu());
  EXPECT_EQ(s.coarsen[0] * s.coarsen[1], 1);
}

TEST(TiledNest, RegisterTilesComputeWhatARowSharesOnce) {
  // gemm's C[i][j] += alpha * A[i][k] * B[k][j]: 3 flops an element, of
  // which alpha * A[i][k] differs only along y. With 4 x 4 elements a
  // thread it is computed once per row: 2 + 1 / 4 flops an element. On a
  // device whose memories never bound the kernel, the time is the flops
  // over the fp64 peak (9.7 TFLOP/s), over the fill of the last wave: 4096
  // blocks of 32 x 8 threads, 8 an SM (the tiles of 16 take 20 KiB), 864
  // slots, 5 waves.
  TiledNest nest = product(4096);
  nest.flopsPerIteration = 3;
  nest.flopsAlongY = 1;
  nest.registerTiles = true;
  DeviceSpec g = gpu();
  g.bandwidthGBps = 1e12;
  g.sharedTBps = 1e12;
  double n3 = 4096.0 * 4096 * 4096;
  KernelShape four = predictTiledNest(nest, g, 32, 8, 16, 4, 4);
  EXPECT_NEAR(four.us, n3 * 2.25 / 9.7e6 / (4096 / (5 * 864.0)), 1e-6);
  // One element a thread: all 3 flops, 65536 blocks in 76 waves.
  KernelShape one = predictTiledNest(nest, g, 32, 8, 16);
  EXPECT_NEAR(one.us, n3 * 3 / 9.7e6 / (65536 / (76 * 864.0)), 1e-6);
}

TEST(TiledNest, ATrianglesBlocksBeyondItsDiagonalDoNoWork) {
  // syrk's j <= i at 4096: 32 x 8 blocks of 4 x 4 elements, tiles of 16,
  // a grid of 32 x 128 blocks. The 2048 below the diagonal and the 80 it
  // crosses (half of 32 + 128) load their tiles; the other 1968 leave at
  // once. Bytes and flops are those of the 2128 working blocks, and so are
  // the waves: 8 blocks an SM (by threads and tiles, 20 KiB each; the
  // registers do not count, see predictTiledNest) give 864 slots, 3 waves
  // against the whole box's 5.
  TiledNest box = product(4096);
  box.registerTiles = true;
  TiledNest triangle = box;
  triangle.triangle = true;
  KernelShape whole = predictTiledNest(box, gpu(), 32, 8, 16, 4, 4);
  KernelShape half = predictTiledNest(triangle, gpu(), 32, 8, 16, 4, 4);
  EXPECT_EQ(whole.blocksPerSM, half.blocksPerSM);
  EXPECT_NEAR(half.us / whole.us, 3.0 / 5, 1e-12);
  // Without tiles alike: 32 x 8 blocks of one element, a grid of 128 x 512,
  // 32768 + 320 working of 65536; 864 slots, 39 waves against 76.
  EXPECT_NEAR(predictTiledNest(triangle, gpu(), 32, 8, 0).us /
                  predictTiledNest(box, gpu(), 32, 8, 0).us,
              39.0 / 76, 1e-12);
}
