//===- ClusterTest.cpp - Cluster JSON -------------------------------------===//
#include "weft/Planner/Cluster.h"

#include "gtest/gtest.h"

using namespace weft::plan;

namespace {
llvm::Expected<Cluster> parse(llvm::StringRef text) {
  return clusterFromJSON(llvm::cantFail(llvm::json::parse(text)),
                         "cluster.json");
}
std::string error(llvm::StringRef text) {
  auto c = parse(text);
  return c ? "" : llvm::toString(c.takeError());
}
} // namespace

TEST(Cluster, DesignExample) {
  auto c = parse(R"({ "nodes": [
    { "name": "n0", "gpus": [{ "type": "A100-40GB", "count": 2 }],
      "intra_link_GBps": 300 },
    { "name": "n1", "gpus": [{ "type": "T4", "count": 4 }],
      "intra_link_GBps": 16 } ],
    "inter_node_GBps": 12.5 })");
  ASSERT_TRUE(bool(c)) << llvm::toString(c.takeError());
  ASSERT_EQ(c->devices.size(), 6u);
  EXPECT_EQ(c->devices[0].id, "n0/0");
  EXPECT_EQ(c->devices[5].id, "n1/3");
  EXPECT_EQ(c->devices[5].spec.name, "T4");
  EXPECT_EQ(c->find("n1/2"), 4);
  EXPECT_EQ(c->find("n9/0"), -1);
  // Intra-node links are faster and start sooner than inter-node ones.
  EXPECT_LT(c->link(0, 1).timeMs(1 << 20), c->link(1, 2).timeMs(1 << 20));
  EXPECT_NEAR(c->link(1, 2).timeMs(12'500'000), 1.0 + 0.04, 1e-9);
}

TEST(Cluster, InlineGpuObject) {
  auto c = parse(R"({ "nodes": [ { "gpus": [{ "type": { "name": "MyGPU",
    "memory_GB": 48, "fp16_TFLOPS": 150, "int8_TOPS": 300,
    "bandwidth_GBps": 864 }, "count": 2 }] } ] })");
  ASSERT_TRUE(bool(c)) << llvm::toString(c.takeError());
  ASSERT_EQ(c->devices.size(), 2u);
  EXPECT_EQ(c->devices[1].id, "n0/1");
  EXPECT_EQ(c->devices[1].spec.name, "MyGPU");
  EXPECT_EQ(c->devices[1].spec.memGiB, 48);
  EXPECT_GT(c->devices[1].spec.gemmEff, 0);
}

TEST(Cluster, EveryBadFieldIsNamed) {
  EXPECT_EQ(error("[]"), "cluster.json: (top level): expected a JSON object");
  EXPECT_EQ(error("{}"), "cluster.json: nodes: missing (expected an array)");
  EXPECT_EQ(error(R"({"nodes": [1]})"),
            "cluster.json: nodes[0]: expected an object");
  EXPECT_EQ(error(R"({"nodes": [{"name": "a"}]})"),
            "cluster.json: nodes[0].gpus: missing (expected an array)");
  std::string e = error(R"({"nodes": [{"gpus": [{"type": "T4"}]},
                                      {"gpus": [{"type": "X"}]}]})");
  EXPECT_EQ(e.rfind("cluster.json: nodes[1].gpus[0].type: unknown GPU type "
                    "'X' (known: T4, P100, V100-16GB",
                    0),
            0u)
      << e;
  EXPECT_EQ(error(R"({"nodes": [{"gpus": [{"count": 2}]}]})"),
            "cluster.json: nodes[0].gpus[0].type: missing");
  EXPECT_EQ(error(R"({"nodes": [{"gpus": [{"type": "T4", "count": -1}]}]})"),
            "cluster.json: nodes[0].gpus[0].count: expected an integer in "
            "[0, 4096]");
  EXPECT_EQ(error(R"({"nodes": [{"gpus": [], "intra_link_GBps": 0}]})"),
            "cluster.json: nodes[0].intra_link_GBps: expected a positive "
            "number (at most 1e7)");
  EXPECT_EQ(error(R"({"nodes": [], "inter_node_GBps": "fast"})"),
            "cluster.json: inter_node_GBps: expected a positive number");
  EXPECT_EQ(error(R"({"nodes": [{"name": "a", "gpus": []},
                               {"name": "a", "gpus": []}]})"),
            "cluster.json: nodes[1].name: duplicate node 'a'");
  EXPECT_EQ(error(R"({"nodes": [{"gpus": [{"type": {"memory_GB": 8}}]}]})"),
            "cluster.json: nodes[0].gpus[0].type.fp16_TFLOPS: missing");
}

TEST(Cluster, EmptyClusterParses) {
  // An empty cluster is valid JSON; planners reject it with a clear error.
  auto c = parse(R"({"nodes": []})");
  ASSERT_TRUE(bool(c));
  EXPECT_TRUE(c->devices.empty());
}
