//===- Device.h - Built-in accelerator database -----------------*- C++ -*-===//
//
// Peak numbers of the devices weft plans for, plus the kernel efficiencies
// the latency model was calibrated with (see docs/cost-model.md).
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_COSTMODEL_DEVICE_H
#define WEFT_COSTMODEL_DEVICE_H

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace weft::cost {

struct DeviceSpec {
  std::string name;      // canonical name, e.g. "A100-40GB"
  double memGiB = 0;     // device memory
  double fp16TFLOPS = 0; // dense tensor-core (or SIMT) fp16 peak
  double int8TOPS = 0;   // dense int8 peak (0: none)
  double fp32TFLOPS = 0; // CUDA-core rate: dequantisation and elementwise
  double fp64TFLOPS = 0; // double-precision (non-tensor) rate: HPC loop nests
  double bandwidthGBps = 0;
  int sms = 0; // streaming multiprocessors, for wave quantisation
  /// Limits of one SM from its compute capability (CUDA C++ Programming
  /// Guide, "Technical Specifications per Compute Capability"): resident
  /// threads and blocks, and shared memory; 0 where unknown (CPUs). The
  /// GPU cost model chooses block shapes and shared-memory tiles with them.
  int maxThreadsPerSM = 0;
  int maxBlocksPerSM = 0;
  double sharedKiBPerSM = 0;
  /// Bytes per second all SMs' shared memory serves (128 bytes per clock
  /// per SM, the clock derived from the FP32 peak and the FP32 lanes of an
  /// SM of its compute capability); 0 where unknown.
  double sharedTBps = 0;
  int warpSize = 32;
  /// One CPU core's caches, innermost first (L1, L2, the shared L3), and
  /// the bytes per second the core reads into L1 from L2 and into L2 from
  /// L3 (into L3 from memory: bandwidthGBps x memEff); 0 where unknown
  /// (GPUs). The one-core time of a loop nest (LoopNestCost.h) counts its
  /// traffic through them.
  static constexpr unsigned kCacheLevels = 3;
  double cacheKiB[kCacheLevels] = {0, 0, 0};
  double cacheFillGBps[kCacheLevels - 1] = {0, 0};
  /// Bytes per second a vectorised loop loads and stores in L1.
  double loadStoreGBps = 0;
  /// Bytes per second all cores of one node read from memory together
  /// (effective: what they share when several ranks run on it); 0 where
  /// one core alone draws the node's bandwidthGBps x memEff.
  double nodeMemoryGBps = 0;
  /// Nanoseconds of a dependent floating-point add, multiply or
  /// multiply-add, and of a division or square root: what each iteration
  /// of a loop that carries a value through them waits for.
  double fpLatencyNs = 0;
  double fpDivideLatencyNs = 0;
  /// Doubles one vector instruction of a core computes: code the compiler
  /// cannot vectorise runs at the core's peak divided by it.
  double vectorDoubles = 1;
  /// Host <-> device copies over the card's PCIe generation (x16, what
  /// cudaMemcpy reaches in practice, about 80% of the link's peak).
  double hostLinkGBps = 0;
  bool isCpu = false;
  bool lowPower = false; // 70-150 W inference cards (T4, L4, A10)
  // Calibrated fractions of peak reached by large GEMMs and by streaming
  // kernels; measured devices carry fitted values, others a class default.
  double gemmEff = 0;
  double memEff = 0;
  bool calibrated = false; // true when gemmEff/memEff were fitted on data
};

/// Looks a device up by canonical name or alias, case-insensitively.
llvm::Expected<DeviceSpec> lookupDevice(llvm::StringRef name);

/// Canonical names of the built-in devices, in table order.
std::vector<std::string> knownDeviceNames();

/// "T4, P100, ..." for error messages.
std::string knownDeviceList();

/// Default efficiencies for a device without measurements: the mean of the
/// calibrated devices of the same class (low-power inference cards vs. the
/// rest). Used for inline GPU objects and by the leave-one-device-out test.
void applyClassDefaults(DeviceSpec &d);

} // namespace weft::cost

#endif
