//===- CpuDescription.cpp - A CPU measured by its user -------------------===//
#include "weft/CostModel/CpuDescription.h"

#include "weft/Support/JSONFile.h"

#include "FieldReader.h"

using namespace llvm;

namespace weft::cost {

namespace {
/// Bounds that keep every predicted time finite and every count sane.
constexpr double kMaxCores = 1 << 16, kMaxKiB = 1 << 30, kMaxGBps = 1e6,
                 kMaxGFLOPS = 1e6, kMaxNs = 1e6, kMaxVectorDoubles = 64;

/// The keys, in the order bench/cpu-core.c prints them.
constexpr StringRef kKeys[] = {"name",
                               "cores",
                               "l1_KiB",
                               "l2_KiB",
                               "l3_KiB",
                               "load_store_GBps",
                               "l2_read_GBps",
                               "l3_read_GBps",
                               "memory_read_GBps",
                               "node_memory_read_GBps",
                               "fp64_GFLOPS",
                               "vector_doubles",
                               "fp_latency_ns",
                               "fp_divide_latency_ns"};
} // namespace

Expected<DeviceSpec> cpuFromJSON(const json::Value &v, StringRef file) {
  detail::FieldReader r(file);
  const json::Object *o = v.getAsObject();
  if (!o)
    return r.error("(top level)", "expected a JSON object");
  if (Error e = r.onlyKnownKeys(*o, "", kKeys))
    return std::move(e);
  // Every figure is required: a missing one would silently take the
  // built-in device's, which is another machine's.
  auto field = [&](StringRef key, bool positive,
                   double max) -> Expected<double> {
    const json::Value *x = o->get(key);
    if (!x)
      return r.error(key, "missing");
    return r.number(*x, key, positive, max);
  };
  auto integer = [&](StringRef key, double max) -> Expected<double> {
    Expected<double> n = field(key, /*positive=*/true, max);
    if (n && *n != std::floor(*n))
      return r.error(key, "expected a whole number");
    return n;
  };
  DeviceSpec d;
  d.name = "cpu";
  if (const json::Value *x = o->get("name")) {
    Expected<std::string> name = r.string(*x, "name");
    if (!name)
      return name.takeError();
    if (StringRef(*name).trim().empty())
      return r.error("name", "expected a non-empty string");
    d.name = *name;
  }
  Expected<double> cores = integer("cores", kMaxCores);
  Expected<double> vector = integer("vector_doubles", kMaxVectorDoubles);
  Expected<double> gflops = field("fp64_GFLOPS", true, kMaxGFLOPS);
  Expected<double> memory = field("memory_read_GBps", true, kMaxGBps);
  Expected<double> node = field("node_memory_read_GBps", true, kMaxGBps);
  Expected<double> loadStore = field("load_store_GBps", true, kMaxGBps);
  for (Expected<double> *x :
       {&cores, &vector, &gflops, &memory, &node, &loadStore})
    if (!*x)
      return x->takeError();
  static constexpr StringRef kCaches[] = {"l1_KiB", "l2_KiB", "l3_KiB"};
  for (unsigned c = 0; c < DeviceSpec::kCacheLevels; ++c) {
    // Required too: a size of 0 would make the level hold everything (a
    // GPU's convention, CoreTraffic.cpp).
    Expected<double> kib = field(kCaches[c], /*positive=*/true, kMaxKiB);
    if (!kib)
      return kib.takeError();
    d.cacheKiB[c] = *kib;
  }
  static constexpr StringRef kFills[] = {"l2_read_GBps", "l3_read_GBps"};
  for (unsigned c = 0; c + 1 < DeviceSpec::kCacheLevels; ++c) {
    Expected<double> rate = field(kFills[c], true, kMaxGBps);
    if (!rate)
      return rate.takeError();
    d.cacheFillGBps[c] = *rate;
  }
  Expected<double> add = field("fp_latency_ns", true, kMaxNs);
  if (!add)
    return add.takeError();
  Expected<double> divide = field("fp_divide_latency_ns", false, kMaxNs);
  if (!divide)
    return divide.takeError();
  d.isCpu = true;
  d.sms = int(*cores);
  d.fp64TFLOPS = *gflops * *cores / 1e3;
  d.fp32TFLOPS = 2 * d.fp64TFLOPS;
  d.fp16TFLOPS = d.fp32TFLOPS;
  // What one core reads from memory is measured: no efficiency on top.
  d.bandwidthGBps = *memory;
  d.memEff = 1;
  d.gemmEff = 0.5;
  d.nodeMemoryGBps = *node;
  d.loadStoreGBps = *loadStore;
  d.vectorDoubles = *vector;
  d.fpLatencyNs = *add;
  d.fpDivideLatencyNs = *divide;
  return d;
}

Expected<DeviceSpec> lookupCpu(StringRef spec) {
  if (!spec.ends_with(".json"))
    return lookupDevice(spec);
  Expected<json::Value> v = readJSONFile(spec);
  if (!v)
    return v.takeError();
  return cpuFromJSON(*v, spec);
}

} // namespace weft::cost
