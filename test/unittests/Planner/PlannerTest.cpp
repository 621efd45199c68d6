//===- PlannerTest.cpp - Fast planner vs. exact reference and baselines ---===//
#include "TestUtil.h"

#include "weft/Planner/PlanIO.h"
#include "weft/Planner/Planner.h"

#include "gtest/gtest.h"

#include <chrono>
#include <random>

using namespace weft;
using namespace weft::plan;

namespace {

cost::ModelDesc smallModel(int64_t layers) {
  cost::ModelDesc m;
  m.name = "small";
  m.arch = "llama";
  m.hidden = 2048;
  m.intermediate = 5504;
  m.layers = layers;
  m.heads = m.kvHeads = 16;
  m.vocab = 4096;
  return m;
}

cost::ModelDesc llama70B() {
  cost::ModelDesc m = smallModel(80);
  m.name = "llama-2-70b";
  m.hidden = 8192;
  m.intermediate = 28672;
  m.heads = 64;
  m.kvHeads = 8;
  m.vocab = 32000;
  return m;
}

/// Every constraint a plan must satisfy.
void expectValid(const Problem &p, const PlanResult &r, double maxLoss) {
  ASSERT_FALSE(bool(validatePlan(p, r.plan)));
  Prediction again = evaluate(p, r.plan);
  EXPECT_TRUE(again.fitsMemory);
  for (const StagePrediction &s : again.stages)
    EXPECT_LE(s.memoryBytes, s.capacityBytes);
  EXPECT_LE(again.qualityLoss, maxLoss * (1 + 1e-9) + 1e-15);
  EXPECT_NEAR(again.throughput, r.predicted.throughput,
              1e-9 * again.throughput);
  EXPECT_GT(again.throughput, 0);
}

struct SmallCase {
  std::vector<std::pair<const char *, double>> devices;
  int64_t layers;
  double lossAtBits; // quality budget = uniform loss at these bits (0: none)
};

} // namespace

TEST(Planner, FastIsWithinTwoPercentOfExactOnSmallInstances) {
  // Memories of ~1-1.5 GiB make 16-bit impossible on some devices, so bits,
  // split, order and micro-batches all matter.
  std::vector<SmallCase> cases = {
      {{{"T4", 1.2}, {"T4", 1.2}, {"A100-40GB", 1.3}}, 5, 0},
      {{{"T4", 1.2}, {"T4", 1.2}, {"A100-40GB", 1.3}}, 5, 8},
      {{{"T4", 1.2}, {"T4", 1.2}, {"A100-40GB", 1.3}}, 5, 4},
      {{{"V100-16GB", 1.1}, {"L4", 1.3}, {"H100-80GB", 1.0}}, 5, 8},
      {{{"P100", 1.4}, {"A10", 1.1}}, 6, 0},
      {{{"P100", 1.4}, {"A10", 1.1}}, 6, 8},
      {{{"T4", 1.05}, {"A100-80GB", 1.2}}, 6, 4},
  };
  for (auto [i, c] : llvm::enumerate(cases)) {
    SCOPED_TRACE("case " + std::to_string(i));
    Cluster cluster = test::makeCluster(
        std::initializer_list<std::pair<const char *, double>>());
    for (auto [name, mem] : c.devices) {
      Cluster one = test::makeCluster({{name, mem}});
      one.devices[0].id = "n0/" + std::to_string(cluster.devices.size());
      cluster.devices.push_back(one.devices[0]);
    }
    cost::ModelDesc m = smallModel(c.layers);
    QualityModel q = qualityPrior(m);
    Problem p{m, cluster, q, Workload{128, 32, 4}};
    PlannerOptions o;
    if (c.lossAtBits)
      o.maxQualityLoss = q.uniformLoss(int(c.lossAtBits));
    auto exact = planExact(p, o);
    auto fast = planFast(p, o);
    ASSERT_EQ(bool(exact), bool(fast));
    if (!exact) {
      consumeError(exact.takeError());
      consumeError(fast.takeError());
      continue;
    }
    expectValid(p, *fast, o.maxQualityLoss);
    expectValid(p, *exact, o.maxQualityLoss);
    EXPECT_LE(fast->predicted.throughput,
              exact->predicted.throughput * (1 + 1e-9));
    double gap = 1 - fast->predicted.throughput / exact->predicted.throughput;
    EXPECT_LE(gap, 0.02) << "fast " << fast->predicted.throughput << " exact "
                         << exact->predicted.throughput;
  }
}

TEST(Planner, RandomClustersKeepEveryConstraintAndBeatBaselines) {
  const char *types[] = {"T4", "P100",      "V100-16GB", "V100-32GB", "A10",
                         "L4", "A100-40GB", "A100-80GB", "H100-80GB"};
  std::mt19937 rng(42);
  cost::ModelDesc models[] = {smallModel(40), smallModel(60), llama70B()};
  for (int trial = 0; trial < 12; ++trial) {
    SCOPED_TRACE("trial " + std::to_string(trial));
    Cluster c;
    int nodes = 1 + rng() % 3;
    for (int n = 0; n < nodes; ++n) {
      c.nodeNames.push_back("n" + std::to_string(n));
      c.intraGBps.push_back(n % 2 ? 16 : 100);
      int count = 1 + rng() % 4;
      cost::DeviceSpec d =
          cantFail(cost::lookupDevice(types[rng() % std::size(types)]));
      for (int k = 0; k < count; ++k)
        c.devices.push_back(
            {c.nodeNames.back() + "/" + std::to_string(k), n, d});
    }
    const cost::ModelDesc &m = models[trial % 3];
    QualityModel q = qualityPrior(m);
    Problem p{
        m, c, q,
        Workload{int64_t(128 << (rng() % 3)), 64, int64_t(4 << (rng() % 4))}};
    auto pipeedge = planPipeEdge(p);
    auto uniform = planUniform(p);
    PlannerOptions o;
    if (pipeedge)
      o.maxQualityLoss = pipeedge->predicted.qualityLoss;
    auto fast = planFast(p, o);
    if (!fast) {
      // Only allowed when nothing fits at all.
      EXPECT_FALSE(bool(pipeedge));
      consumeError(fast.takeError());
      consumeError(pipeedge.takeError());
      consumeError(uniform.takeError());
      continue;
    }
    expectValid(p, *fast, o.maxQualityLoss);
    if (pipeedge) {
      expectValid(p, *pipeedge, 1e9);
      EXPECT_GE(fast->predicted.throughput,
                pipeedge->predicted.throughput * (1 - 1e-9));
    } else {
      consumeError(pipeedge.takeError());
    }
    if (uniform) {
      expectValid(p, *uniform, 1e9);
      if (uniform->predicted.qualityLoss <= o.maxQualityLoss) {
        EXPECT_GE(fast->predicted.throughput,
                  uniform->predicted.throughput * (1 - 1e-9));
      }
    } else {
      consumeError(uniform.takeError());
    }
  }
}

TEST(Planner, EightyLayersOnSixteenGpusIsFast) {
  Cluster c = test::makeCluster({{"H100-80GB", 0},
                                 {"H100-80GB", 0},
                                 {"A100-80GB", 0},
                                 {"A100-80GB", 0},
                                 {"A100-40GB", 0},
                                 {"A100-40GB", 0},
                                 {"A100-40GB", 0},
                                 {"A100-40GB", 0},
                                 {"L4", 0},
                                 {"L4", 0},
                                 {"L4", 0},
                                 {"L4", 0},
                                 {"T4", 0},
                                 {"T4", 0},
                                 {"T4", 0},
                                 {"T4", 0}});
  cost::ModelDesc m = llama70B();
  QualityModel q = qualityPrior(m);
  Problem p{m, c, q, Workload{512, 128, 32}};
  PlannerOptions o;
  o.maxQualityLoss = q.uniformLoss(8);
  auto r = planFast(p, o);
  ASSERT_TRUE(bool(r)) << llvm::toString(r.takeError());
  expectValid(p, *r, o.maxQualityLoss);
  // Goal: well under a second (0.4-0.7 s here, bench/planner.sh); the bound
  // is the issue's hard limit, so a loaded shared machine cannot flake it.
  EXPECT_LT(r->seconds, 10.0);
}

TEST(Planner, ImpossibleRequestsAreClearErrors) {
  cost::ModelDesc m = llama70B();
  QualityModel q = qualityPrior(m);
  Cluster tiny = test::makeCluster({{"T4", 0}});
  Problem p{m, tiny, q, Workload{512, 128, 8}};
  auto r = planFast(p);
  ASSERT_FALSE(bool(r));
  std::string msg = llvm::toString(r.takeError());
  EXPECT_NE(msg.find("does not fit even at 3 bits"), std::string::npos) << msg;
  EXPECT_NE(msg.find("GB are missing"), std::string::npos) << msg;

  Cluster empty;
  Problem none{m, empty, q, Workload{}};
  auto e = planFast(none);
  ASSERT_FALSE(bool(e));
  EXPECT_NE(llvm::toString(e.takeError()).find("no devices"),
            std::string::npos);

  Cluster big = test::makeCluster({{"H100-80GB", 0}, {"H100-80GB", 0}});
  Problem fits{m, big, q, Workload{512, 128, 8}};
  PlannerOptions o;
  o.bits = {8, 4};
  o.maxQualityLoss = q.uniformLoss(16);
  auto u = planFast(fits, o);
  ASSERT_FALSE(bool(u));
  EXPECT_NE(llvm::toString(u.takeError()).find("quality target unreachable"),
            std::string::npos);
}

TEST(Planner, PlanJsonRoundTrip) {
  Cluster c = test::makeCluster({{"A100-40GB", 0}, {"T4", 0}, {"T4", 0}});
  cost::ModelDesc m = smallModel(40);
  QualityModel q = qualityPrior(m);
  Problem p{m, c, q, Workload{256, 64, 16}};
  PlanResult r = cantFail(planFast(p));
  llvm::json::Object o = planToJSON(p, r.plan, r.predicted);
  auto back = planFromJSON(llvm::json::Value(std::move(o)), "plan.json", p);
  ASSERT_TRUE(bool(back)) << llvm::toString(back.takeError());
  ASSERT_EQ(back->stages.size(), r.plan.stages.size());
  for (size_t i = 0; i < back->stages.size(); ++i) {
    EXPECT_EQ(back->stages[i].device, r.plan.stages[i].device);
    EXPECT_EQ(back->stages[i].bits, r.plan.stages[i].bits);
  }
  EXPECT_NEAR(evaluate(p, *back).throughput, r.predicted.throughput, 1e-9);

  auto bad = planFromJSON(cantFail(llvm::json::parse(
                              R"({"prefill_microbatch": 1,
                                  "decode_microbatch": 1, "stages": [
                                  {"device": "n0/0", "layers": [0, 20],
                                   "bits": [16]}]})")),
                          "plan.json", p);
  ASSERT_FALSE(bool(bad));
  EXPECT_EQ(llvm::toString(bad.takeError()),
            "plan.json: stages[0].bits: expected 20 entries");
}

TEST(Planner, PartitionIsPhaseAware) {
  // P100: high bandwidth, low fp16 compute (no tensor cores). It should get
  // more layers when decode (bandwidth-bound) dominates than when prefill
  // (compute-bound) does.
  Cluster c = test::makeCluster({{"A10", 0}, {"T4", 0}, {"P100", 0}});
  cost::ModelDesc m = smallModel(40);
  m.hidden = 5120;
  m.intermediate = 13824;
  m.heads = m.kvHeads = 40;
  QualityModel q = qualityPrior(m);
  auto layersOnP100 = [&](int64_t genLen) {
    Problem p{m, c, q, Workload{1024, genLen, 16}};
    PlannerOptions o;
    o.maxQualityLoss = 0; // fp16 only: the split alone adapts
    PlanResult r = cantFail(planFast(p, o));
    for (const Stage &s : r.plan.stages)
      if (c.devices[s.device].spec.name == "P100")
        return s.end - s.first;
    return int64_t(0);
  };
  EXPECT_LT(layersOnP100(2), layersOnP100(512));
}
