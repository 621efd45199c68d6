//===- ProfileFitTest.cpp - Profiles in the evaluator, and their fit -----===//
#include "TestUtil.h"

#include "weft/Planner/CostTables.h"
#include "weft/Planner/RunsCalibration.h"

#include "gtest/gtest.h"

using namespace weft;
using namespace weft::plan;
using llvm::Expected;

namespace {

cost::ModelDesc model8() {
  cost::ModelDesc m;
  m.name = "m8";
  m.arch = "llama";
  m.hidden = 2048;
  m.intermediate = 5504;
  m.layers = 8;
  m.heads = m.kvHeads = 16;
  m.vocab = 4096;
  return m;
}

Stage stage(int device, int64_t first, std::vector<int> bits) {
  Stage s;
  s.device = device;
  s.first = first;
  s.end = first + int64_t(bits.size());
  s.bits = std::move(bits);
  return s;
}

Plan makePlan(std::vector<Stage> stages, int64_t mp, int64_t md) {
  Plan p;
  p.stages = std::move(stages);
  p.prefillMicrobatch = mp;
  p.decodeMicrobatch = md;
  return p;
}

/// A runtime unlike weft's: slow quantised kernels and fixed overheads.
cost::RuntimeProfile slowRuntime() {
  cost::RuntimeProfile p;
  p.name = "truth";
  p.kernelFactor = {{{1.2, 1.5, 20, 15}, {1.4, 6, 6.5, 7}}};
  p.stageOverheadMs = {5, 2};
  p.stepOverheadMs = {0, 3};
  p.transferLatencyUs = 300;
  return p;
}

/// Runs of several plans on three clusters, "measured" with `truth`.
struct SyntheticRuns {
  cost::ModelDesc model = model8();
  QualityModel quality = qualityPrior(model);
  MeasuredRuns runs;

  explicit SyntheticRuns(const cost::RuntimeProfile &truth) {
    runs.clusters.push_back(test::makeCluster({{"T4", 0}, {"T4", 0}}));
    runs.clusters.push_back(test::makeCluster({{"A100-40GB", 0}}));
    runs.clusters.push_back(
        test::makeCluster({{"V100-16GB", 0}, {"L4", 0}}, 12));
    runs.clusters.push_back(
        test::makeCluster({{"L4", 0}, {"L4", 0}, {"A10", 0}, {"A10", 0}}));
    std::vector<int> b16(8, 16), b8(8, 8), b4(8, 4),
        mix = {16, 16, 8, 8, 4, 4, 3, 3};
    int n = 0;
    for (size_t c = 0; c < runs.clusters.size(); ++c)
      for (const std::vector<int> *bits : {&b16, &b8, &b4, &mix})
        for (int64_t mp : {2, 8}) {
          // Layers split evenly over every device of the cluster.
          int64_t k = int64_t(runs.clusters[c].devices.size()), per = 8 / k;
          std::vector<Stage> stages;
          for (int64_t d = 0; d < k; ++d)
            stages.push_back(
                stage(int(d), d * per,
                      std::vector<int>(bits->begin() + d * per,
                                       bits->begin() + (d + 1) * per)));
          add("r" + std::to_string(n++), c,
              makePlan(std::move(stages), mp, k > 1 ? 4 : 8), truth);
        }
  }

  void add(const std::string &id, size_t c, const Plan &plan,
           const cost::RuntimeProfile &truth) {
    MeasuredRun r;
    r.id = id;
    r.clusterName = "cluster" + std::to_string(c);
    r.modelName = "m8";
    r.model = &model;
    r.cluster = &runs.clusters[c];
    r.quality = &quality;
    r.workload = Workload{128, 32, 8};
    r.plan = plan;
    Prediction p = evaluate(r.problem(&truth), plan);
    r.prefillS = p.prefillS;
    r.decodeS = p.decodeS;
    r.totalS = p.prefillS + p.decodeS;
    runs.runs.push_back(r);
  }
};

std::vector<RunTerms> termsOf(const MeasuredRuns &runs,
                              const cost::RuntimeProfile &base = {}) {
  std::vector<RunTerms> t;
  for (const MeasuredRun &r : runs.runs) {
    t.push_back(runTerms(r, base));
    t.back().cluster = int(r.cluster - &runs.clusters[0]);
  }
  return t;
}

} // namespace

TEST(ProfileFit, BuiltinProfilesKeepPredictionsUnchanged) {
  SyntheticRuns s(cost::builtinCudaProfile());
  for (const MeasuredRun &r : s.runs.runs) {
    Prediction without = evaluate(r.problem(nullptr), r.plan);
    Prediction with = evaluate(r.problem(&cost::builtinCudaProfile()), r.plan);
    EXPECT_EQ(without.prefillS, with.prefillS);
    EXPECT_EQ(without.decodeS, with.decodeS);
    EXPECT_EQ(without.throughput, with.throughput);
  }
}

TEST(ProfileFit, ProfilesChangeTheEvaluatorAsTheyShould) {
  SyntheticRuns s(cost::builtinCudaProfile());
  const MeasuredRun &r = s.runs.runs[2]; // T4 x2, 8-bit
  Prediction base = evaluate(r.problem(nullptr), r.plan);
  cost::RuntimeProfile slow;
  slow.kernelFactor[1][bitIndex(8)] = 3;
  Prediction p = evaluate(r.problem(&slow), r.plan);
  EXPECT_EQ(p.prefillS, base.prefillS);
  EXPECT_GT(p.decodeS, 2 * base.decodeS); // decode is mostly kernels
  cost::RuntimeProfile step;
  step.stepOverheadMs = {100, 10};
  p = evaluate(r.problem(&step), r.plan);
  EXPECT_NEAR(p.prefillS, base.prefillS + 0.1, 1e-12);
  EXPECT_NEAR(p.decodeS, base.decodeS + 31 * 0.01, 1e-12);
  cost::RuntimeProfile held;
  held.reservedBytesPerDevice = int64_t(1) << 60; // nothing fits
  EXPECT_FALSE(evaluate(r.problem(&held), r.plan).fitsMemory);
}

TEST(ProfileFit, TermsPredictWhatTheEvaluatorPredicts) {
  cost::RuntimeProfile truth = slowRuntime();
  truth.deviceFactor["T4"] = {1.5, 0.8};
  truth.layerOverheadMs = {0.5, 0.25};
  truth.stagingGBps = 2;
  SyntheticRuns s(truth);
  for (const MeasuredRun &r : s.runs.runs) {
    std::array<double, 2> t = predictFromTerms(runTerms(r, truth), truth);
    EXPECT_NEAR(t[0], r.prefillS, 1e-9 * r.prefillS) << r.id;
    EXPECT_NEAR(t[1], r.decodeS, 1e-9 * r.decodeS) << r.id;
  }
}

TEST(ProfileFit, RecoversTheRuntimeThatProducedTheRuns) {
  cost::RuntimeProfile truth = slowRuntime();
  SyntheticRuns s(truth);
  ProfileFitOptions o;
  o.ridge = 1e-9;
  o.minRunsPerDevice = 1 << 30; // no device factors
  cost::RuntimeProfile fit =
      fitRuntimeProfile(termsOf(s.runs), cost::RuntimeProfile(), o);
  for (int ph = 0; ph < 2; ++ph)
    for (int b = 0; b < 4; ++b)
      EXPECT_NEAR(fit.kernelFactor[ph][b], truth.kernelFactor[ph][b],
                  0.02 * truth.kernelFactor[ph][b])
          << "phase " << ph << " bits " << kBitMenu[b];
  // Per-stage, per-message and per-step overheads are nearly collinear
  // (every stage but the last sends once): only the predictions they make
  // together are checked.
  for (const MeasuredRun &r : s.runs.runs) {
    std::array<double, 2> t = predictFromTerms(runTerms(r, fit), fit);
    EXPECT_NEAR(t[0], r.prefillS, 0.005 * r.prefillS) << r.id;
    EXPECT_NEAR(t[1], r.decodeS, 0.005 * r.decodeS) << r.id;
  }
  // The default (regularised) fit still predicts every run closely.
  RunsCalibrationReport r = calibrateOnRuns(s.runs, cost::builtinCudaProfile());
  EXPECT_GT(r.base.total, 50);
  EXPECT_LT(r.fitted.prefill, 2);
  EXPECT_LT(r.fitted.decode, 2);
  EXPECT_LT(r.heldOut.total, 10);
  EXPECT_EQ(r.fittedPairs.agree, r.fittedPairs.pairs);
  EXPECT_GT(r.fittedPairs.pairs, 10u);
}

TEST(ProfileFit, GemmUnitsOfTheBaseCarryIntoTermsAndFit) {
  // GPTQ-style 4- and 3-bit prefill GEMMs on the CUDA cores: slower than
  // dequantising for the tensor cores on every device, and by how much
  // depends on the device's fp32 to fp16-tensor ratio.
  cost::RuntimeProfile truth = slowRuntime();
  truth.kernelFactor[0] = {1.2, 1.5, 3, 2.5};
  truth.cudaCoreGemm[0] = {false, false, true, true};
  SyntheticRuns s(truth);
  cost::RuntimeProfile tensorCores = truth;
  tensorCores.cudaCoreGemm = {};
  const MeasuredRun &mixed = s.runs.runs[6]; // T4 x 2, 16/8/4/3 bits
  EXPECT_GT(evaluate(mixed.problem(&truth), mixed.plan).prefillS,
            evaluate(mixed.problem(&tensorCores), mixed.plan).prefillS);
  for (const MeasuredRun &r : s.runs.runs) {
    std::array<double, 2> t = predictFromTerms(runTerms(r, truth), truth);
    EXPECT_NEAR(t[0], r.prefillS, 1e-9 * r.prefillS) << r.id;
  }
  // A base with the same units lets the fit recover the factors.
  cost::RuntimeProfile base;
  base.cudaCoreGemm = truth.cudaCoreGemm;
  ProfileFitOptions o;
  o.ridge = 1e-9;
  o.minRunsPerDevice = 1 << 30;
  cost::RuntimeProfile fit = fitRuntimeProfile(termsOf(s.runs, base), base, o);
  EXPECT_EQ(fit.cudaCoreGemm, truth.cudaCoreGemm);
  for (int b = 0; b < 4; ++b)
    EXPECT_NEAR(fit.kernelFactor[0][b], truth.kernelFactor[0][b],
                0.02 * truth.kernelFactor[0][b])
        << "bits " << kBitMenu[b];
}

TEST(ProfileFit, FittedParametersStayPhysical) {
  // A runtime 100x faster than the roofline cannot exist: factors stop at
  // their bound and overheads at zero.
  cost::RuntimeProfile fast;
  fast.kernelFactor = {{{0.01, 0.01, 0.01, 0.01}, {0.01, 0.01, 0.01, 0.01}}};
  SyntheticRuns s(fast);
  ProfileFitOptions o;
  cost::RuntimeProfile fit =
      fitRuntimeProfile(termsOf(s.runs), cost::RuntimeProfile(), o);
  for (int ph = 0; ph < 2; ++ph) {
    for (int b = 0; b < 4; ++b)
      EXPECT_GE(fit.kernelFactor[ph][b], o.minFactor);
    EXPECT_GE(fit.layerOverheadMs[ph], 0);
    EXPECT_GE(fit.stageOverheadMs[ph], 0);
    EXPECT_GE(fit.stepOverheadMs[ph], 0);
  }
  EXPECT_GE(fit.transferLatencyUs, 0);
  EXPECT_GE(fit.stagingGBps, 0);
  for (const auto &[name, f] : fit.deviceFactor)
    EXPECT_GE(std::min(f[0], f[1]), o.minFactor) << name;
}

TEST(ProfileFit, PairOrderComparesPlansOfTheSameCase) {
  SyntheticRuns s(slowRuntime());
  std::vector<RunSeconds> exact, reversed;
  for (const MeasuredRun &r : s.runs.runs) {
    exact.push_back({r.prefillS, r.decodeS, r.totalS});
    reversed.push_back({0, 0, 1 / r.totalS});
  }
  PairOrder same = pairOrder(s.runs, exact);
  // 8 plans per cluster, one workload: 28 pairs per cluster.
  EXPECT_EQ(same.pairs + same.ties, 4u * 28);
  EXPECT_EQ(same.agree, same.pairs);
  EXPECT_EQ(pairOrder(s.runs, reversed).agree, 0u);
  RunErrors e = runErrors({{1, 2, 3}}, {{1.1, 1, 3}});
  EXPECT_NEAR(e.prefill, 10, 1e-9);
  EXPECT_NEAR(e.decode, 50, 1e-9);
  EXPECT_NEAR(e.total, 0, 1e-9);
}

TEST(ProfileFit, LoadsMeasuredRunsRelativeToTheFile) {
  Expected<MeasuredRuns> runs = loadMeasuredRuns(
      WEFT_SOURCE_DIR "/test/Planner/Inputs/runs-tiny/runs.json");
  ASSERT_TRUE(bool(runs)) << toString(runs.takeError());
  ASSERT_EQ(runs->runs.size(), 12u);
  EXPECT_EQ(runs->models.size(), 1u);   // shared by every run
  EXPECT_EQ(runs->clusters.size(), 3u); // one per cluster file
  EXPECT_EQ(runs->engine, "made-up test runtime");
  const MeasuredRun &r = runs->runs[0];
  EXPECT_EQ(r.id, "t4-fp16");
  EXPECT_EQ(r.clusterName, "clusters/t4x2.json");
  EXPECT_EQ(r.model->layers, 4);
  EXPECT_EQ(r.plan.stages.size(), 2u);
  EXPECT_EQ(r.workload.batch, 16);
  EXPECT_NEAR(r.throughput(), 16.0 * 32 / r.totalS, 1e-9);
  // Moving the runs keeps the pointers into their models and clusters.
  MeasuredRuns moved = std::move(*runs);
  EXPECT_EQ(moved.runs[5].cluster, &moved.clusters[1]);
  EXPECT_EQ(moved.runs[5].model, &moved.models[0]);
}
