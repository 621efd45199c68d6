//===- FuzzCluster.cpp - Cluster files, JSON and YAML ---------------------===//
//
// Every input is read both as JSON and as YAML (weft reads a .yaml/.yml
// file as YAML), then as a cluster: devices, links between all pairs.
//
//===----------------------------------------------------------------------===//
#include "FuzzPlanSupport.h"

#include <algorithm>

using namespace weft::plan;

namespace {

void readCluster(llvm::Expected<llvm::json::Value> v) {
  if (!v)
    return llvm::consumeError(v.takeError());
  llvm::Expected<Cluster> cluster = clusterFromJSON(*v, "cluster");
  if (!cluster)
    return llvm::consumeError(cluster.takeError());
  // What the planner asks of every cluster it reads (links: of the first
  // 64 devices, so that a 4096-device file stays fast).
  const int n = int(cluster->devices.size());
  double sum = 0;
  for (int i = 0; i < n; ++i) {
    if (cluster->find(cluster->devices[i].id) != i)
      __builtin_trap(); // a device id that does not find itself
    for (int j = 0; j < std::min(n, 64) && i < 64; ++j)
      sum += cluster->link(i, j).timeMs(1 << 20);
  }
  if (!(sum >= 0))
    __builtin_trap(); // a negative or NaN transfer time
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  weft::fuzz::readAsJSONAndYAML(data, size, "cluster", readCluster);
  return 0;
}
