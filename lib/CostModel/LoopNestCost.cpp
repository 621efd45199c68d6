//===- LoopNestCost.cpp - Host or device time of one loop nest ------------===//
#include "weft/CostModel/LoopNestCost.h"

#include "llvm/ADT/ArrayRef.h"

#include <algorithm>
#include <cmath>

namespace weft::cost {

/// `gpu`'s peak floating-point rate. Devices described inline (cluster
/// files) carry no fp64 rate: take the fp32 one halved, as on the
/// datacenter cards.
static double peakTFLOPS(const DeviceSpec &gpu, bool doublePrecision) {
  if (!doublePrecision)
    return gpu.fp32TFLOPS;
  return gpu.fp64TFLOPS > 0 ? gpu.fp64TFLOPS : gpu.fp32TFLOPS / 2;
}

double predictCoreSeconds(const CoreWork &work, const DeviceSpec &cpu,
                          unsigned sharers) {
  constexpr unsigned levels = DeviceSpec::kCacheLevels;
  double coreGBps = cpu.bandwidthGBps * cpu.memEff;
  double nodeGBps = cpu.nodeMemoryGBps > 0 ? cpu.nodeMemoryGBps : coreGBps;
  double memoryGBps = std::min(coreGBps, nodeGBps / std::max(1u, sharers));
  double seconds = work.fills[levels - 1] / (memoryGBps * 1e9);
  if (cpu.loadStoreGBps > 0)
    seconds = std::max(seconds, work.accessBytes / (cpu.loadStoreGBps * 1e9));
  for (unsigned c = 0; c + 1 < levels; ++c)
    if (cpu.cacheFillGBps[c] > 0)
      seconds = std::max(seconds, work.fills[c] / (cpu.cacheFillGBps[c] * 1e9));
  double corePeak =
      peakTFLOPS(cpu, work.doublePrecision) * 1e12 / std::max(1, cpu.sms);
  double scalarPeak = corePeak / std::max(1.0, cpu.vectorDoubles) *
                      (work.doublePrecision ? 1 : 0.5);
  return std::max({seconds, work.flops / corePeak, work.scalarOps / scalarPeak,
                   work.chainNs * 1e-9});
}

LoopNestTimes predictLoopNest(const LoopNestCounts &counts,
                              const DeviceSpec &gpu, const DeviceSpec &cpu) {
  LoopNestTimes t;
  t.cpuUs = predictCoreSeconds(counts.core, cpu) * 1e6;
  double memoryUs = counts.kernelBytes / (gpu.bandwidthGBps * 1e3 * gpu.memEff);
  double computeUs =
      counts.flops / (peakTFLOPS(gpu, counts.doublePrecision) * 1e6);
  t.kernelUs = std::max(memoryUs, computeUs);
  t.launchUs = counts.launches * kKernelLaunchUs;
  t.copyUs = predictCopies(counts, gpu);
  return t;
}

double predictCopies(const LoopNestCounts &counts, const DeviceSpec &gpu) {
  double linkGBps = gpu.hostLinkGBps > 0 ? gpu.hostLinkGBps : 12;
  return counts.copies * kHostCopyAlphaUs +
         (counts.bytesIn + counts.bytesOut) / (linkGBps * 1e3);
}

/// Bytes of the tiles of one block whose threads compute `cx` x `cy`
/// elements.
static double tileBytes(const TiledNest &nest, int64_t bx, int64_t by,
                        int64_t tile, int64_t cx, int64_t cy) {
  return double(nest.readsAlongX * bx * cx + nest.readsAlongY * by * cy +
                nest.readsUniform) *
         tile * nest.elementBytes;
}

/// Registers of one SM (65536 32-bit registers since compute capability
/// 5.0). A thread with register tiles takes kBaseRegisters plus
/// kRegistersPerWord for each word of its elements and of the tile values
/// it reads at a step: fitted on ptxas -v (CUDA 13, sm_90) for the 2 x 4
/// and 4 x 4 kernels of test/E2E/seq/register-tiles.c and
/// test/Driver/cuda-report-tiles.c, 72, 103 and 69 registers against 75,
/// 100 and 70 predicted.
constexpr double kRegistersPerSM = 65536;
constexpr double kMaxRegistersPerThread = 255;
constexpr double kBaseRegisters = 40;
constexpr double kRegistersPerWord = 1.25;

KernelShape predictTiledNest(const TiledNest &nest, const DeviceSpec &gpu,
                             int64_t bx, int64_t by, int64_t tile, int64_t cx,
                             int64_t cy) {
  KernelShape shape;
  shape.block[0] = bx;
  shape.block[1] = by;
  shape.tile = tile;
  shape.coarsen[0] = cx;
  shape.coarsen[1] = cy;
  double threads = double(bx * by);
  double warps = std::ceil(threads / gpu.warpSize);
  double columns = std::ceil(nest.trips[0] / double(bx * cx));
  double rows = std::ceil(nest.trips[1] / double(by * cy));
  double blocks = columns * rows;
  // Of a triangle, the blocks wholly beyond the diagonal leave at once; the
  // others (half the grid and those the diagonal crosses) do a whole block's
  // work, loading every tile.
  double working = blocks;
  if (nest.triangle)
    working = std::min(blocks, std::ceil(blocks / 2 + (columns + rows) / 2));
  double eb = nest.elementBytes;
  // Bytes one block fetches per iteration of the sequential loop. A warp
  // spans warpSize / bx rows of threads.
  double rowsPerWarp = std::max(1.0, double(gpu.warpSize) / bx);
  double perThread = threads * eb; // one element per thread, coalesced
  double alongX, alongY, uniform;
  if (tile > 0) {
    alongX = bx * cx * eb; // the tile's rows, each loaded once a step
    alongY = by * cy * eb;
    uniform = eb;
  } else {
    alongX = perThread;                  // each warp fetches its own
    alongY = warps * rowsPerWarp * 32.0; // a sector per row of a warp
    uniform = warps * 32.0;              // a sector per warp
  }
  double perIteration = nest.readsAlongX * alongX + nest.readsAlongY * alongY +
                        nest.readsUniform * uniform +
                        cx * cy * nest.otherAccesses * perThread;
  double bytes = working * (nest.inner * perIteration +
                            cx * cy * nest.invariantAccesses * perThread);
  // A thread of cx x cy elements computes what differs only along x once
  // per column of them, what differs only along y once per row.
  double flopsAlongBoth = nest.flopsPerIteration - nest.flopsAlongX -
                          nest.flopsAlongY - nest.flopsUniform;
  double flops = nest.trips[0] * nest.trips[1] * (working / blocks) *
                 nest.inner *
                 (flopsAlongBoth + nest.flopsAlongX / cy +
                  nest.flopsAlongY / cx + nest.flopsUniform / (cx * cy));
  double us = std::max(bytes / (gpu.bandwidthGBps * 1e3 * gpu.memEff),
                       flops / (peakTFLOPS(gpu, nest.doublePrecision) * 1e6));
  // Reads of the tiles, in 128-byte shared-memory wavefronts a warp's load
  // takes: a read along x differs between lanes, one along y is the same
  // for a row of threads (one wavefront a row), a uniform one is one.
  if (tile > 0 && gpu.sharedTBps > 0) {
    double wavefront = gpu.warpSize * 4.0;
    double perWarp = nest.readsAlongX * cx *
                         std::max(wavefront, gpu.warpSize * eb) +
                     nest.readsAlongY * cy * rowsPerWarp * wavefront +
                     nest.readsUniform * wavefront;
    double sharedBytes = working * nest.inner * warps * perWarp;
    us = std::max(us, sharedBytes / (gpu.sharedTBps * 1e6));
  }
  // Blocks an SM holds, and how full the waves keep the SMs.
  int resident = std::max(1, gpu.maxThreadsPerSM / int(threads));
  resident = std::min(resident, std::max(1, gpu.maxBlocksPerSM));
  double shared = tileBytes(nest, bx, by, tile, cx, cy);
  if (shared > 0 && gpu.sharedKiBPerSM > 0)
    resident = std::min(resident,
                        std::max(1, int(gpu.sharedKiBPerSM * 1024 / shared)));
  double slots = double(std::max(gpu.sms, 1)) * resident;
  double waves = std::max(1.0, std::ceil(working / slots));
  double fill = working / (waves * slots);
  // A thread with register tiles holds its elements and the values of the
  // tiles it reads at each step in registers, which bound the blocks an SM
  // holds at once (one thread of one element is taken to fit at full
  // occupancy). Not the waves: such a thread has several independent
  // multiply-adds in flight, so fewer blocks keep the SM as busy.
  if (cx * cy > 1) {
    double words = std::max(1.0, eb / 4);
    double registers =
        kBaseRegisters +
        kRegistersPerWord * words *
            double(cx * cy * std::max(1u, nest.invariantAccesses / 2) +
                   cx * nest.readsAlongX + cy * nest.readsAlongY);
    resident = std::min(
        resident, std::max(1, int(kRegistersPerSM / (registers * threads))));
    shape.registers = registers;
    shape.fits = registers <= kMaxRegistersPerThread &&
                 registers * threads <= kRegistersPerSM;
  }
  shape.blocksPerSM = resident;
  shape.us = fill > 0 ? us / fill : us;
  return shape;
}

KernelShape chooseTiledNestShape(const TiledNest &nest, const DeviceSpec &gpu,
                                 int64_t registerTile) {
  KernelShape untiled = predictTiledNest(nest, gpu, 32, 8, 0);
  if (nest.readsAlongX + nest.readsAlongY + nest.readsUniform == 0 ||
      gpu.maxThreadsPerSM == 0 || nest.inner < 1)
    return untiled;
  static constexpr int64_t kOne[] = {1};
  llvm::ArrayRef<int64_t> coarsenings(kOne);
  if (nest.registerTiles)
    coarsenings = kCoarsenings;
  KernelShape best;
  best.us = -1;
  for (const auto &b : kBlockShapes)
    for (int64_t cx : coarsenings)
      for (int64_t cy : coarsenings) {
        if (cx > registerTile || cy > registerTile)
          continue;
        KernelShape withoutTiles =
            predictTiledNest(nest, gpu, b[0], b[1], 0, cx, cy);
        for (int64_t tile : {32, 16, 8}) {
          // No wider than the loop needs, unless that is the narrowest.
          if (tile > 8 && tile / 2 >= nest.inner)
            continue;
          if (tileBytes(nest, b[0], b[1], tile, cx, cy) > kStaticSharedBytes)
            continue;
          KernelShape s = predictTiledNest(nest, gpu, b[0], b[1], tile, cx, cy);
          if (!s.fits)
            break;
          if (s.blocksPerSM < withoutTiles.blocksPerSM && tile > 8)
            continue;
          if (best.us < 0 || s.us < best.us)
            best = s;
          break;
        }
      }
  return best.us >= 0 && best.us < untiled.us ? best : untiled;
}

} // namespace weft::cost
