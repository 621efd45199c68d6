//===- Device.cpp - Built-in accelerator database -------------------------===//
//
// Peaks are dense datasheet numbers (see shared cost-model anchors, section
// 3.2). gemmEff/memEff of A100-40GB, V100, L4 and T4 were fitted on the Helix
// LLaMA-30B tables (weft cost calibrate); the others use class defaults.
//
//===----------------------------------------------------------------------===//
#include "weft/CostModel/Device.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace weft::cost {
namespace {

struct Entry {
  DeviceSpec spec;
  const char *aliases; // comma separated, lower case
};

DeviceSpec make(const char *name, double mem, double fp16, double int8,
                double fp32, double fp64, double bw, int sms, double hostLink,
                bool lowPower = false) {
  DeviceSpec d;
  d.name = name;
  d.memGiB = mem;
  d.fp16TFLOPS = fp16;
  d.int8TOPS = int8;
  d.fp32TFLOPS = fp32;
  d.fp64TFLOPS = fp64;
  d.bandwidthGBps = bw;
  d.sms = sms;
  d.hostLinkGBps = hostLink;
  d.lowPower = lowPower;
  return d;
}

/// The `cpu` device: a 16-core server socket, 50 GB/s of memory bandwidth.
/// A core's caches are an AMD Zen 4 core's (48 KiB of L1, 1 MiB of L2, a
/// 32 MiB L3 per 8 cores); its read rates and latencies were measured with
/// bench/cpu-core.c on the development machine (one Zen 4 EPYC core: 590
/// GB/s loaded and stored by a vectorised loop in L1, 133 read from L2, 102
/// from L3, 31 from memory; 0.48 ns a dependent add, 3.37 more a dependent
/// division). Its vectors are AVX-512's. All 16 cores together read 123
/// GB/s from memory: eight channels of DDR4-3200 (204.8 GB/s) at the same
/// 0.6, a description of such a socket, not a measurement (the development
/// machine has 2 cores, and two of them reading at once each read what one
/// does alone); from five ranks on a node, they share it.
DeviceSpec hostCpu() {
  DeviceSpec d = make("cpu", 64, 1.0, 2.0, 1.0, 0.5, 50, 16, 0);
  d.cacheKiB[0] = 48;
  d.cacheKiB[1] = 1024;
  d.cacheKiB[2] = 32 * 1024;
  d.cacheFillGBps[0] = 133;
  d.cacheFillGBps[1] = 102;
  d.loadStoreGBps = 590;
  d.nodeMemoryGBps = 8 * 25.6 * 0.6;
  d.fpLatencyNs = 0.48;
  d.fpDivideLatencyNs = 3.37;
  d.vectorDoubles = 8; // AVX-512
  return d;
}

/// An SM's limits by compute capability, from the CUDA C++ Programming
/// Guide's table "Technical Specifications per Compute Capability":
/// resident threads, resident blocks, shared memory (KiB); and from its
/// table "Throughput of Native Arithmetic Instructions", FP32 multiply-adds
/// per clock.
struct SMLimits {
  int threads, blocks;
  double sharedKiB;
  int fp32Lanes;
};
constexpr SMLimits kSM60{2048, 32, 64, 64};   // P100
constexpr SMLimits kSM70{2048, 32, 96, 64};   // V100
constexpr SMLimits kSM75{1024, 16, 64, 64};   // T4
constexpr SMLimits kSM80{2048, 32, 164, 64};  // A100, A800
constexpr SMLimits kSM86{1536, 16, 100, 128}; // A10, RTX 3090
constexpr SMLimits kSM89{1536, 24, 100, 128}; // L4, RTX 4090
constexpr SMLimits kSM90{2048, 32, 228, 128}; // H100, H200

/// Shared memory serves 128 bytes per clock per SM (32 banks of 4 bytes)
/// since compute capability 5.0.
constexpr double kSharedBytesPerClock = 128;

DeviceSpec make(const char *name, double mem, double fp16, double int8,
                double fp32, double fp64, double bw, int sms, double hostLink,
                SMLimits sm, bool lowPower = false) {
  DeviceSpec d =
      make(name, mem, fp16, int8, fp32, fp64, bw, sms, hostLink, lowPower);
  d.maxThreadsPerSM = sm.threads;
  d.maxBlocksPerSM = sm.blocks;
  d.sharedKiBPerSM = sm.sharedKiB;
  double clockGHz = fp32 * 1e3 / (2.0 * sm.fp32Lanes * sms);
  d.sharedTBps = sms * kSharedBytesPerClock * clockGHz / 1e3;
  return d;
}

DeviceSpec calibrated(DeviceSpec d, double gemmEff, double memEff) {
  d.gemmEff = gemmEff;
  d.memEff = memEff;
  d.calibrated = true;
  return d;
}

/// What cudaMemcpy of pageable host memory reaches over x16 PCIe of each
/// generation (about 80% of the link's peak per direction; a prediction).
constexpr double kGen3 = 12, kGen4 = 25, kGen5 = 50;

const std::vector<Entry> &table() {
  static const std::vector<Entry> entries = [] {
    std::vector<Entry> e = {
        {calibrated(
             make("T4", 16, 65, 130, 8.1, 0.25, 320, 40, kGen3, kSM75, true),
             0.4371, 0.8049),
         "tesla-t4,t4-16gb"},
        {make("P100", 16, 18.7, 0, 9.3, 4.7, 732, 56, kGen3, kSM60),
         "p100-16gb,tesla-p100"},
        {calibrated(
             make("V100-16GB", 16, 125, 62, 15.7, 7.8, 900, 80, kGen3, kSM70),
             0.7038, 0.7725),
         "v100,v100-sxm2-16gb,tesla-v100"},
        {calibrated(
             make("V100-32GB", 32, 125, 62, 15.7, 7.8, 900, 80, kGen3, kSM70),
             0.7038, 0.7725),
         "v100-sxm2-32gb,v100s"},
        {make("A10", 24, 125, 250, 31.2, 0.98, 600, 72, kGen4, kSM86, true),
         "a10-24gb"},
        {calibrated(make("L4", 24, 121, 242.5, 30.3, 0.47, 300, 58, kGen4,
                         kSM89, true),
                    0.4544, 0.8130),
         "nvidia-l4"},
        {calibrated(make("A100-40GB", 40, 312, 624, 19.5, 9.7, 1555, 108, kGen4,
                         kSM80),
                    0.8316, 0.8884),
         "a100,a100-sxm4-40gb,a100-pcie-40gb"},
        {make("A100-80GB", 80, 312, 624, 19.5, 9.7, 2039, 108, kGen4, kSM80),
         "a100-sxm4-80gb,a100-80g"},
        {make("A800-80GB", 80, 312, 624, 19.5, 9.7, 2039, 108, kGen4, kSM80),
         "a800,a800-80g"},
        {make("H100-80GB", 80, 989, 1979, 66.9, 33.5, 3350, 132, kGen5, kSM90),
         "h100,h100-sxm,h100-sxm5-80gb"},
        {make("H200", 141, 989, 1979, 67, 33.5, 4800, 132, kGen5, kSM90),
         "h200-141gb"},
        {make("RTX3090", 24, 71, 284, 35.6, 0.56, 936, 82, kGen4, kSM86),
         "rtx-3090,3090"},
        {make("RTX4090", 24, 165.2, 660.6, 82.6, 1.29, 1008, 128, kGen4, kSM89),
         "rtx-4090,4090"},
        {hostCpu(), "host"},
    };
    for (Entry &x : e) {
      x.spec.isCpu = x.spec.name == "cpu";
      if (!x.spec.calibrated)
        applyClassDefaults(x.spec);
    }
    return e;
  }();
  return entries;
}

} // namespace

void applyClassDefaults(DeviceSpec &d) {
  // Means of the calibrated devices per class (see Device.cpp header).
  if (d.isCpu) {
    d.gemmEff = 0.5;
    d.memEff = 0.6;
  } else if (d.lowPower) {
    d.gemmEff = (0.4371 + 0.4544) / 2;
    d.memEff = (0.8049 + 0.8130) / 2;
  } else {
    d.gemmEff = (0.7038 + 0.8316) / 2;
    d.memEff = (0.7725 + 0.8884) / 2;
  }
  d.calibrated = false;
}

Expected<DeviceSpec> lookupDevice(StringRef name) {
  std::string key = name.trim().lower();
  for (const Entry &e : table()) {
    if (key == StringRef(e.spec.name).lower())
      return e.spec;
    SmallVector<StringRef, 4> aliases;
    StringRef(e.aliases).split(aliases, ',');
    if (is_contained(aliases, key))
      return e.spec;
  }
  return createStringError(inconvertibleErrorCode(),
                           "unknown GPU type '" + name.str() +
                               "' (known: " + knownDeviceList() + ")");
}

std::vector<std::string> knownDeviceNames() {
  std::vector<std::string> names;
  for (const Entry &e : table())
    names.push_back(e.spec.name);
  return names;
}

std::string knownDeviceList() { return join(knownDeviceNames(), ", "); }

} // namespace weft::cost
