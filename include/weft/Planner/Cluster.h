//===- Cluster.h - Cluster description (DESIGN.md cluster JSON) -*- C++ -*-===//
#ifndef WEFT_PLANNER_CLUSTER_H
#define WEFT_PLANNER_CLUSTER_H

#include "weft/CostModel/Device.h"
#include "weft/CostModel/Link.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <string>
#include <vector>

namespace weft::plan {

struct ClusterDevice {
  std::string id; // "<node name>/<index in node>", e.g. "n0/1"
  int node = 0;   // index into Cluster::nodeNames
  cost::DeviceSpec spec;
};

struct Cluster {
  std::vector<ClusterDevice> devices;
  std::vector<std::string> nodeNames;
  std::vector<double> intraGBps; // per node
  double interGBps = 12.5;

  /// Link between two devices of the cluster (intra- or inter-node).
  cost::Link link(int from, int to) const;
  int find(llvm::StringRef id) const; // -1 when absent
};

/// Parses the cluster JSON; `file` prefixes every error
/// ("cluster.json: nodes[1].gpus[0].type: unknown GPU type ...").
llvm::Expected<Cluster> clusterFromJSON(const llvm::json::Value &v,
                                        llvm::StringRef file);
llvm::Expected<Cluster> loadCluster(llvm::StringRef path);

} // namespace weft::plan

#endif
