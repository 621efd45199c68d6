//===- CalibrationTest.cpp - Fit and held-out error on Helix tables -------===//
#include "weft/CostModel/Calibration.h"

#include "llvm/Support/FileSystem.h"

#include "gtest/gtest.h"

using namespace weft::cost;

namespace {
std::string helixDir() {
  return std::string(WEFT_SHARED_DATA_DIR) + "/latency/helix-llama1-30b";
}
} // namespace

TEST(Calibration, CommittedCoefficientsPredictHeldOutRows) {
  if (!llvm::sys::fs::is_directory(helixDir()))
    GTEST_SKIP() << "no Helix tables at " << helixDir();
  auto samples = loadHelixTables(helixDir());
  ASSERT_TRUE(bool(samples)) << llvm::toString(samples.takeError());
  ASSERT_GT(samples->size(), 200u);
  // The committed numbers (Device.cpp) against every measured row.
  std::map<std::string, DeviceSpec> devices;
  for (const Sample &s : *samples)
    devices[s.device] = cantFail(lookupDevice(s.device));
  EXPECT_LT(
      meanAbsPctError(llama30B(), devices, *samples, defaultKernelParams()),
      8.0);
}

TEST(Calibration, HeldOutErrorIsSmall) {
  if (!llvm::sys::fs::is_directory(helixDir()))
    GTEST_SKIP() << "no Helix tables at " << helixDir();
  auto samples = cantFail(loadHelixTables(helixDir()));
  CalibrationReport r = calibrateWithHoldout(llama30B(), samples);
  EXPECT_LT(r.all.trainError, 8.0);
  EXPECT_LT(r.rowHoldoutError, 8.0);
  // A device left out entirely, predicted from its class default.
  ASSERT_EQ(r.deviceHoldoutError.size(), 4u);
  EXPECT_LT(r.meanDeviceHoldoutError, 15.0);
  for (const auto &[name, e] : r.deviceHoldoutError)
    EXPECT_LT(e, 25.0) << name;
  // Tensor-parallel groups, never fitted on, predicted from the single-GPU
  // fit plus ring all-reduces over PCIe.
  auto withTp = cantFail(loadHelixTables(helixDir(), true));
  std::vector<Sample> tp;
  for (const Sample &s : withTp)
    if (s.tensorParallel > 1)
      tp.push_back(s);
  ASSERT_FALSE(tp.empty());
  CalibrationReport t = calibrateWithHoldout(llama30B(), samples, tp);
  ASSERT_EQ(t.tensorParallelError.size(), 3u);
  for (const auto &[name, e] : t.tensorParallelError)
    EXPECT_LT(e, 30.0) << name;
  // The refit reproduces the committed coefficients.
  for (const auto &[name, d] : r.all.devices) {
    DeviceSpec committed = cantFail(lookupDevice(name));
    EXPECT_NEAR(d.gemmEff, committed.gemmEff, 0.01) << name;
    EXPECT_NEAR(d.memEff, committed.memEff, 0.01) << name;
  }
}

TEST(Calibration, BadTablesAreErrorsNotCrashes) {
  llvm::SmallString<128> dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("weft-helix", dir));
  EXPECT_FALSE(bool(loadHelixTables(dir))); // empty directory
  std::string file = std::string(dir) + "/m__a100__prompt_bs2time.csv";
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(file, ec);
    os << "250,1\nnot a row\n";
  }
  auto r = loadHelixTables(dir);
  ASSERT_FALSE(bool(r));
  EXPECT_NE(llvm::toString(r.takeError()).find(":2: expected"),
            std::string::npos);
  llvm::sys::fs::remove(file);
  llvm::sys::fs::remove(dir);
}

TEST(Calibration, CheckReportsErrorPerTableAndTotals) {
  // Rows measured 25 % slower than the built-in prediction have an error of
  // -20 % each ((p - 1.25 p) / 1.25 p).
  ModelDesc m = llama30B();
  std::vector<Sample> samples = {{"A100-40GB", Phase::Prefill, 1000, 0},
                                 {"A100-40GB", Phase::Prefill, 4000, 0},
                                 {"T4", Phase::Decode, 16, 0},
                                 {"T4", Phase::Decode, 64, 0, 4}};
  for (Sample &s : samples)
    s.ms = 1.25 * predictSample(m, cantFail(lookupDevice(s.device)), s,
                                defaultKernelParams());
  // A third A100 row predicted exactly: that table averages 20, 20, 0.
  samples.push_back(samples[0]);
  samples.back().ms /= 1.25;
  CheckReport r = checkAgainstTables(m, samples);
  ASSERT_EQ(r.tables.size(), 3u);
  EXPECT_EQ(r.tables[0].table, "A100-40GB prefill");
  EXPECT_EQ(r.tables[0].rows, 3u);
  EXPECT_NEAR(r.tables[0].mape, 40.0 / 3, 1e-9);
  EXPECT_NEAR(r.tables[0].bias, -40.0 / 3, 1e-9);
  EXPECT_EQ(r.tables[1].table, "T4 decode");
  EXPECT_NEAR(r.tables[1].mape, 20, 1e-9);
  EXPECT_EQ(r.tables[2].table, "T4x4 decode");
  EXPECT_NEAR(r.tables[2].bias, -20, 1e-9);
  EXPECT_EQ(r.singleGpu.rows, 4u);
  EXPECT_NEAR(r.singleGpu.mape, 15, 1e-9);
  EXPECT_EQ(r.tensorParallel.rows, 1u);
  // A model with other shapes predicts other times: the check is per model.
  ModelDesc wide = m;
  wide.hidden *= 2;
  EXPECT_GT(checkAgainstTables(wide, samples).singleGpu.bias, 50);
}
