//===- LoopNestCost.cpp - Host or device time of one loop nest ------------===//
#include "weft/CostModel/LoopNestCost.h"

#include <algorithm>

namespace weft::cost {

double secondsPerLoopAccess(const DeviceSpec &d) {
  return 8.0 / (d.bandwidthGBps * 1e9 * d.memEff);
}

LoopNestTimes predictLoopNest(const LoopNestCounts &counts,
                              const DeviceSpec &gpu, const DeviceSpec &cpu) {
  LoopNestTimes t;
  t.cpuUs = counts.accesses * secondsPerLoopAccess(cpu) * 1e6;
  double memoryUs = counts.kernelBytes / (gpu.bandwidthGBps * 1e3 * gpu.memEff);
  // Devices described inline (cluster files) carry no fp64 rate: take the
  // fp32 one halved, as on the datacenter cards.
  double tflops =
      counts.doublePrecision
          ? (gpu.fp64TFLOPS > 0 ? gpu.fp64TFLOPS : gpu.fp32TFLOPS / 2)
          : gpu.fp32TFLOPS;
  double computeUs = counts.flops / (tflops * 1e6);
  t.kernelUs = std::max(memoryUs, computeUs);
  t.launchUs = counts.launches * kKernelLaunchUs;
  double linkGBps = gpu.hostLinkGBps > 0 ? gpu.hostLinkGBps : 12;
  t.copyUs = counts.copies * kHostCopyAlphaUs +
             (counts.bytesIn + counts.bytesOut) / (linkGBps * 1e3);
  return t;
}

} // namespace weft::cost
