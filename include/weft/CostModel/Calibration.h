//===- Calibration.h - Fit the latency model on measured tables -*- C++ -*-===//
//
// Reads per-layer latency tables (Helix format: one CSV per device and phase,
// rows "tokens,ms"), fits per-device efficiencies and global kernel
// constants, and measures held-out error. The fitted numbers are committed in
// Device.cpp/LayerCost.cpp; this code reproduces and checks them.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_COSTMODEL_CALIBRATION_H
#define WEFT_COSTMODEL_CALIBRATION_H

#include "weft/CostModel/LayerCost.h"

#include "llvm/Support/raw_ostream.h"

#include <map>
#include <string>
#include <vector>

namespace weft::cost {

struct Sample {
  std::string device; // canonical device name
  Phase phase;
  int64_t tokens; // prompt tokens (prefill) or sequences (decode)
  double ms;
  int tensorParallel = 1; // Helix "x2"/"x4" groups
};

/// Link assumed between the GPUs of the Helix tensor-parallel groups
/// (PCIe; the tables do not say).
constexpr double kHelixTpLinkGBps = 16;

/// How the Helix tables were produced (not recorded in the files): prompt
/// rows batch sequences of kHelixPromptLen tokens; decode rows run at a
/// context of kHelixDecodePast tokens. Both were fitted once (see docs).
constexpr int64_t kHelixPromptLen = 512;
constexpr int64_t kHelixDecodePast = 850;

/// Loads `<dir>/<model>__<gpu>__{prompt,decode}_bs2time.csv`: single-GPU
/// tables, and with `withTensorParallel` also the "x2"/"x4" groups.
llvm::Expected<std::vector<Sample>>
loadHelixTables(llvm::StringRef dir, bool withTensorParallel = false);

/// Prediction for one sample with the given devices and kernel constants.
double predictSample(const ModelDesc &m, const DeviceSpec &d, const Sample &s,
                     const KernelParams &k);

/// Mean absolute percentage error over samples.
double meanAbsPctError(const ModelDesc &m,
                       const std::map<std::string, DeviceSpec> &devices,
                       const std::vector<Sample> &samples,
                       const KernelParams &k);

struct FitResult {
  std::map<std::string, DeviceSpec> devices; // with fitted efficiencies
  KernelParams kernel;
  double trainError = 0;
};

/// Fits gemmEff/memEff per device and the global kernel constants by
/// coordinate search minimising mean absolute percentage error.
FitResult fitLatencyModel(const ModelDesc &m,
                          const std::vector<Sample> &samples);

struct CalibrationReport {
  FitResult all;              // fitted on every row
  double rowHoldoutError = 0; // fit on even rows, MAPE on odd rows
  /// Device -> MAPE when that device is left out of the fit and predicted
  /// with the class-default efficiencies of the remaining devices.
  std::map<std::string, double> deviceHoldoutError;
  double meanDeviceHoldoutError = 0;
  /// Tensor-parallel groups ("L4x2", ...) predicted with the single-GPU fit
  /// (never fitted on): MAPE per group.
  std::map<std::string, double> tensorParallelError;
};

CalibrationReport
calibrateWithHoldout(const ModelDesc &m, const std::vector<Sample> &samples,
                     const std::vector<Sample> &tpSamples = {});

void printCalibrationReport(const CalibrationReport &r, llvm::raw_ostream &os);

/// Error of the built-in (committed) coefficients on one measured table.
struct TableCheck {
  std::string table; // "A100-40GB prefill", "T4x4 decode"
  size_t rows = 0;
  double mape = 0; // mean absolute percentage error
  double bias = 0; // mean signed percentage error; < 0: predicted too fast
};

struct CheckReport {
  std::vector<TableCheck> tables;
  TableCheck singleGpu;      // every single-GPU row together
  TableCheck tensorParallel; // every tensor-parallel row together
};

/// Predicts every sample with the built-in device table and kernel constants
/// (nothing is fitted): the error on tables of a model the coefficients were
/// not fitted on is the honest cross-model error.
CheckReport checkAgainstTables(const ModelDesc &m,
                               const std::vector<Sample> &samples);

void printCheckReport(const CheckReport &r, llvm::raw_ostream &os);

/// LLaMA-1-30B, the model of the Helix tables.
ModelDesc llama30B();

} // namespace weft::cost

#endif
