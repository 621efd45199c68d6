//===- CostCommand.cpp - `weft cost ...` ----------------------------------===//
//
// `weft cost layer`: predicted latency of one decoder layer (ms).
// `weft cost calibrate --data DIR`: refits the latency model on measured
// tables and prints the coefficients and held-out errors.
// `weft cost calibrate --runs RUNS.json [-o PROFILE.json]`: fits a runtime
// profile on measured end-to-end runs and prints fit, leave-one-cluster-out
// and plan-order errors.
// `weft cost check --data DIR --model CONFIG`: the built-in coefficients'
// error on measured tables, e.g. of a model they were not fitted on.
// `weft cost profile`: measures weft's own runtime (CostProfileCommand.cpp).
//
//===----------------------------------------------------------------------===//
#include "Commands.h"

#include "weft/CostModel/Calibration.h"
#include "weft/Planner/ModelImport.h"
#include "weft/Planner/ProfileFile.h"
#include "weft/Planner/RunsCalibration.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <climits>
#include <cmath>
#include <ctime>

using namespace llvm;
using namespace weft;

static int costLayerMain(int argc, char **argv) {
  cl::OptionCategory cat("weft cost layer options");
  cl::opt<std::string> model("model",
                             cl::desc("config.json, directory or "
                                      "llama2.c checkpoint"),
                             cl::Required, cl::cat(cat));
  cl::opt<std::string> device("device", cl::desc("GPU type"), cl::Required,
                              cl::cat(cat));
  cl::opt<cost::Phase> phase(
      "phase", cl::desc("Phase"), cl::Required,
      cl::values(clEnumValN(cost::Phase::Prefill, "prefill", "prompt"),
                 clEnumValN(cost::Phase::Decode, "decode", "one token")),
      cl::cat(cat));
  cl::opt<int64_t> batch("batch", cl::desc("Sequences"), cl::init(1),
                         cl::cat(cat));
  cl::opt<int64_t> seq("seq",
                       cl::desc("New tokens per sequence (prefill) "
                                "or context length (decode)"),
                       cl::init(1), cl::cat(cat));
  cl::opt<int64_t> past("past", cl::desc("Tokens already cached"), cl::init(-1),
                        cl::cat(cat));
  cl::opt<int> bits("bits", cl::desc("Weight bits: 16, 8, 4 or 3"),
                    cl::init(16), cl::cat(cat));
  cl::opt<std::string> profilePath(
      "profile",
      cl::desc("Runtime profile (file or built-in name; default: the "
               "built-in profile of the device)"),
      cl::value_desc("PROFILE.json"), cl::cat(cat));
  cl::HideUnrelatedOptions(cat);
  if (!cl::ParseCommandLineOptions(argc, argv, "weft cost layer\n", &errs()))
    return 1;
  auto m = plan::importModel(model);
  if (!m)
    return commandError(toString(m.takeError()));
  auto d = cost::lookupDevice(device);
  if (!d)
    return commandError("--device: " + toString(d.takeError()));
  if (!cost::isSupportedBits(bits) || batch < 1 || seq < 1)
    return commandError("need --bits in {16,8,4,3}, --batch >= 1, --seq >= 1");
  cost::LayerQuery q;
  q.phase = phase;
  q.batch = batch;
  q.bits = bits;
  if (phase == cost::Phase::Prefill) {
    q.seq = seq;
    q.past = past < 0 ? 0 : past;
  } else {
    // Decode runs one new token; --seq (or --past) is the context so far.
    q.seq = 1;
    q.past = past < 0 ? seq : past;
  }
  // Without --profile, the built-in profile of the device (the analytical
  // model unchanged).
  cost::RuntimeProfile profile = cost::builtinProfileFor(d->isCpu);
  if (!profilePath.empty()) {
    auto p = plan::loadRuntimeProfile(profilePath);
    if (!p)
      return commandError(toString(p.takeError()));
    profile = std::move(*p);
  }
  double ms = cost::layerLatencyMs(m->desc, *d, q, profile);
  if (profile.estimated)
    errs() << "weft: note: profile '" << profile.name
           << "' is estimated, not measured\n";
  outs() << format("%.4f", ms) << "\n";
  return 0;
}

/// Measured tables of DIR (tensor-parallel groups included) and the model
/// they were measured on: `--model`, or LLaMA-1-30B (the shipped tables'
/// model) when the option is empty.
struct MeasuredTables {
  cost::ModelDesc model;
  std::vector<cost::Sample> samples;
};

static Expected<MeasuredTables> loadMeasuredTables(StringRef data,
                                                   StringRef model) {
  MeasuredTables t;
  if (model.empty()) {
    t.model = cost::llama30B();
  } else {
    auto m = plan::importModel(model);
    if (!m)
      return m.takeError();
    t.model = m->desc;
  }
  auto samples = cost::loadHelixTables(data, /*withTensorParallel=*/true);
  if (!samples)
    return samples.takeError();
  t.samples = std::move(*samples);
  return t;
}

/// `--data`: refits the latency model on per-layer tables.
static int calibrateOnTables(StringRef data, StringRef model) {
  auto tables = loadMeasuredTables(data, model);
  if (!tables)
    return commandError(toString(tables.takeError()));
  // Tensor-parallel groups are only predicted, never fitted on.
  std::vector<cost::Sample> single, tp;
  for (const cost::Sample &s : tables->samples)
    (s.tensorParallel > 1 ? tp : single).push_back(s);
  if (single.empty())
    return commandError(data + ": no latency tables found");
  cost::CalibrationReport r =
      cost::calibrateWithHoldout(tables->model, single, tp);
  cost::printCalibrationReport(r, outs());
  return 0;
}

/// The command line, for a profile's provenance.
static std::string commandLine(int argc, char **argv) {
  std::string s = "weft cost calibrate";
  for (int i = 1; i < argc; ++i)
    s += " " + std::string(argv[i]);
  return s;
}

static std::string todayUTC() {
  std::time_t now = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d", std::gmtime(&now));
  return buf;
}

/// `--runs`: fits a profile on measured end-to-end runs, prints the report
/// and writes the profile to `output` when given.
static int calibrateOnRunsMain(StringRef runsPath, StringRef baseArg,
                               StringRef name, StringRef output,
                               const plan::ProfileFitOptions &o,
                               const std::string &command) {
  auto runs = plan::loadMeasuredRuns(runsPath);
  if (!runs)
    return commandError(toString(runs.takeError()));
  cost::RuntimeProfile base = cost::builtinCudaProfile();
  if (!baseArg.empty()) {
    auto p = plan::loadRuntimeProfile(baseArg);
    if (!p)
      return commandError(toString(p.takeError()));
    base = *p;
  }
  plan::RunsCalibrationReport r = plan::calibrateOnRuns(*runs, base, o);
  cost::RuntimeProfile &fitted = r.profile;
  fitted.name = name.str();
  fitted.estimated = false;
  fitted.provenance.measured =
      formatv("prefill and decode seconds of {0} end-to-end runs ({1} "
              "clusters, {2} models) in {3}; fit MAPE total {4:F1}%, "
              "leave-one-cluster-out {5}",
              r.runs.size(), r.clusters, r.models, runsPath, r.fitted.total,
              r.heldOut.runs ? formatv("{0:F1}%", r.heldOut.total).str()
                             : std::string("n/a"))
          .str();
  fitted.provenance.where =
      runs->engine.empty() ? "the runs' clusters" : runs->engine;
  fitted.provenance.when = todayUTC();
  fitted.provenance.command = command;
  plan::printRunsCalibrationReport(r, outs());
  if (!output.empty())
    if (Error e = plan::writeRuntimeProfile(output, fitted))
      return commandError(output + ": " + toString(std::move(e)));
  return 0;
}

static int costCalibrateMain(int argc, char **argv) {
  cl::OptionCategory cat("weft cost calibrate options");
  cl::opt<std::string> data("data", cl::desc("Directory of Helix tables"),
                            cl::cat(cat));
  cl::opt<std::string> model(
      "model", cl::desc("Model of the tables (default: LLaMA-1-30B)"),
      cl::cat(cat));
  cl::opt<std::string> runs("runs",
                            cl::desc("Measured end-to-end runs to fit a "
                                     "runtime profile on"),
                            cl::value_desc("RUNS.json"), cl::cat(cat));
  cl::opt<std::string> output("o", cl::desc("Runtime profile to write"),
                              cl::value_desc("PROFILE.json"), cl::cat(cat));
  cl::opt<std::string> profile(
      "profile",
      cl::desc("Profile the fit starts from (default: weft-cuda-estimated)"),
      cl::value_desc("PROFILE.json"), cl::cat(cat));
  cl::opt<std::string> name("name", cl::desc("Name of the fitted profile"),
                            cl::init("calibrated"), cl::cat(cat));
  plan::ProfileFitOptions defaults;
  cl::opt<double> ridge("ridge",
                        cl::desc("Ridge weight towards the base profile"),
                        cl::init(defaults.ridge), cl::cat(cat));
  cl::opt<double> minFactor("min-factor",
                            cl::desc("Smallest kernel or device factor"),
                            cl::init(defaults.minFactor), cl::cat(cat));
  cl::opt<std::string> deviceFactors(
      "device-factors",
      cl::desc("Per-device-type kernel factors for types with at least 3 "
               "runs: auto (only when they predict held-out clusters of the "
               "runs better, default), on or off"),
      cl::init("auto"), cl::cat(cat));
  cl::HideUnrelatedOptions(cat);
  if (!cl::ParseCommandLineOptions(argc, argv, "weft cost calibrate\n",
                                   &errs()))
    return 1;
  if (data.empty() && runs.empty())
    return commandError("need --data DIR, --runs RUNS.json or both");
  if (runs.empty() && !output.empty())
    return commandError("-o writes the profile fitted with --runs");
  if (!data.empty())
    if (int rc = calibrateOnTables(data, model))
      return rc;
  if (runs.empty())
    return 0;
  if (StringRef(name).trim().empty())
    return commandError("--name: expected a non-empty name");
  if (!(ridge >= 0) || !std::isfinite(ridge))
    return commandError("--ridge: expected a non-negative number");
  if (!(minFactor > 0) || !std::isfinite(minFactor))
    return commandError("--min-factor: expected a positive number");
  plan::ProfileFitOptions o;
  o.ridge = ridge;
  o.minFactor = minFactor;
  if (deviceFactors == "off")
    o.minRunsPerDevice = INT_MAX;
  else if (deviceFactors == "on")
    o.crossValidateDeviceFactors = false;
  else if (deviceFactors != "auto")
    return commandError("--device-factors: expected auto, on or off, got '" +
                        deviceFactors + "'");
  return calibrateOnRunsMain(runs, profile, name, output, o,
                             commandLine(argc, argv));
}

static int costCheckMain(int argc, char **argv) {
  cl::OptionCategory cat("weft cost check options");
  cl::opt<std::string> data("data", cl::desc("Directory of Helix tables"),
                            cl::Required, cl::cat(cat));
  cl::opt<std::string> model("model",
                             cl::desc("Model of the tables: config.json, "
                                      "directory or llama2.c checkpoint"),
                             cl::Required, cl::cat(cat));
  cl::HideUnrelatedOptions(cat);
  if (!cl::ParseCommandLineOptions(argc, argv, "weft cost check\n", &errs()))
    return 1;
  auto tables = loadMeasuredTables(data, model);
  if (!tables)
    return commandError(toString(tables.takeError()));
  cost::printCheckReport(
      cost::checkAgainstTables(tables->model, tables->samples), outs());
  return 0;
}

int weft::costMain(int argc, char **argv) {
  if (argc >= 2 && StringRef(argv[1]) == "layer")
    return costLayerMain(argc - 1, argv + 1);
  if (argc >= 2 && StringRef(argv[1]) == "calibrate")
    return costCalibrateMain(argc - 1, argv + 1);
  if (argc >= 2 && StringRef(argv[1]) == "check")
    return costCheckMain(argc - 1, argv + 1);
  if (argc >= 2 && StringRef(argv[1]) == "profile")
    return costProfileMain(argc - 1, argv + 1);
  errs() << "usage: weft cost layer|calibrate|check|profile [options]\n";
  return 1;
}
