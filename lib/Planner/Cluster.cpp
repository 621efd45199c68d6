//===- Cluster.cpp - Cluster description ----------------------------------===//
#include "weft/Planner/Cluster.h"

#include "weft/Support/JSONFile.h"

#include "llvm/ADT/StringSet.h"

using namespace llvm;

namespace weft::plan {
namespace {

constexpr double kDefaultIntraGBps = 16; // PCIe 3.0 x16

Error specError(StringRef file, const Twine &field, const Twine &msg) {
  return createStringError(inconvertibleErrorCode(),
                           file + ": " + field + ": " + msg);
}

Expected<double> positiveNumber(const json::Object &o, StringRef key,
                                StringRef file, const Twine &where,
                                std::optional<double> fallback) {
  const json::Value *v = o.get(key);
  if (!v) {
    if (fallback)
      return *fallback;
    return specError(file, where + "." + key, "missing");
  }
  std::optional<double> d = v->getAsNumber();
  // The upper bound keeps byte and time arithmetic finite.
  if (!d || !(*d > 0) || *d > 1e7)
    return specError(file, where + "." + key,
                     "expected a positive number (at most 1e7)");
  return *d;
}

/// An inline GPU object: {"name", "memory_GB", "fp16_TFLOPS", "int8_TOPS",
/// "bandwidth_GBps", optional "fp32_TFLOPS", "sms"}.
Expected<cost::DeviceSpec> inlineDevice(const json::Object &o, StringRef file,
                                        const Twine &where) {
  cost::DeviceSpec d;
  d.name = o.getString("name").value_or("custom").str();
  auto mem = positiveNumber(o, "memory_GB", file, where, {});
  if (!mem)
    return mem.takeError();
  auto fp16 = positiveNumber(o, "fp16_TFLOPS", file, where, {});
  if (!fp16)
    return fp16.takeError();
  auto bw = positiveNumber(o, "bandwidth_GBps", file, where, {});
  if (!bw)
    return bw.takeError();
  auto int8 = positiveNumber(o, "int8_TOPS", file, where, 2 * *fp16);
  if (!int8)
    return int8.takeError();
  auto fp32 = positiveNumber(o, "fp32_TFLOPS", file, where, *fp16 / 8);
  if (!fp32)
    return fp32.takeError();
  auto sms = positiveNumber(o, "sms", file, where, 80);
  if (!sms)
    return sms.takeError();
  d.memGiB = *mem;
  d.fp16TFLOPS = *fp16;
  d.bandwidthGBps = *bw;
  d.int8TOPS = *int8;
  d.fp32TFLOPS = *fp32;
  d.sms = int(*sms);
  d.lowPower = false;
  cost::applyClassDefaults(d);
  return d;
}

} // namespace

cost::Link Cluster::link(int from, int to) const {
  if (devices[from].node == devices[to].node)
    return cost::intraNodeLink(intraGBps[devices[from].node]);
  return cost::interNodeLink(interGBps);
}

int Cluster::find(StringRef id) const {
  for (auto [i, d] : enumerate(devices))
    if (d.id == id)
      return int(i);
  return -1;
}

/// Most devices a cluster file may declare (as many as one gpus entry).
constexpr int64_t kMaxClusterDevices = 4096;

Expected<Cluster> clusterFromJSON(const json::Value &v, StringRef file) {
  const json::Object *top = v.getAsObject();
  if (!top)
    return specError(file, "(top level)", "expected a JSON object");
  Cluster c;
  auto inter =
      positiveNumber(*top, "inter_node_GBps", file, "(top level)", 12.5);
  if (!inter) {
    consumeError(inter.takeError());
    return specError(file, "inter_node_GBps", "expected a positive number");
  }
  c.interGBps = *inter;
  const json::Array *nodes = top->getArray("nodes");
  if (!nodes)
    return specError(file, "nodes", "missing (expected an array)");
  StringSet<> seenNames; // node names, so a long list is not quadratic
  for (auto [n, nodeValue] : enumerate(*nodes)) {
    std::string where = "nodes[" + std::to_string(n) + "]";
    const json::Object *node = nodeValue.getAsObject();
    if (!node)
      return specError(file, where, "expected an object");
    std::string name =
        node->getString("name").value_or("n" + std::to_string(n)).str();
    if (!seenNames.insert(name).second)
      return specError(file, where + ".name", "duplicate node '" + name + "'");
    auto intra = positiveNumber(*node, "intra_link_GBps", file, where,
                                kDefaultIntraGBps);
    if (!intra)
      return intra.takeError();
    c.nodeNames.push_back(name);
    c.intraGBps.push_back(*intra);
    const json::Array *gpus = node->getArray("gpus");
    if (!gpus)
      return specError(file, where + ".gpus", "missing (expected an array)");
    int index = 0;
    for (auto [g, gpuValue] : enumerate(*gpus)) {
      std::string gw = where + ".gpus[" + std::to_string(g) + "]";
      const json::Object *gpu = gpuValue.getAsObject();
      if (!gpu)
        return specError(file, gw, "expected an object");
      const json::Value *type = gpu->get("type");
      if (!type)
        return specError(file, gw + ".type", "missing");
      cost::DeviceSpec spec;
      if (std::optional<StringRef> s = type->getAsString()) {
        auto d = cost::lookupDevice(*s);
        if (!d)
          return specError(file, gw + ".type", toString(d.takeError()));
        spec = *d;
      } else if (const json::Object *o = type->getAsObject()) {
        auto d = inlineDevice(*o, file, gw + ".type");
        if (!d)
          return d.takeError();
        spec = *d;
      } else {
        return specError(file, gw + ".type",
                         "expected a GPU name or an object");
      }
      int64_t count = 1;
      if (const json::Value *cv = gpu->get("count")) {
        std::optional<int64_t> i = integerOf(*cv);
        if (!i || *i < 0 || *i > 4096)
          return specError(file, gw + ".count",
                           "expected an integer in [0, 4096]");
        count = *i;
      }
      // The per-entry bound does not bound the whole file.
      if (int64_t(c.devices.size()) + count > kMaxClusterDevices)
        return specError(file, gw + ".count",
                         "the cluster has more than " +
                             Twine(kMaxClusterDevices) + " devices");
      for (int64_t k = 0; k < count; ++k)
        c.devices.push_back({name + "/" + std::to_string(index++),
                             int(c.nodeNames.size() - 1), spec});
    }
  }
  return c;
}

Expected<Cluster> loadCluster(StringRef path) {
  Expected<json::Value> v = readJSONFile(path);
  if (!v)
    return v.takeError();
  return clusterFromJSON(*v, path);
}

} // namespace weft::plan
