//===- CostCommand.cpp - `weft cost ...` ----------------------------------===//
//
// `weft cost layer`: predicted latency of one decoder layer (ms).
// `weft cost calibrate --data DIR`: refits the latency model on measured
// tables and prints the coefficients and held-out errors.
// `weft cost check --data DIR --model CONFIG`: the built-in coefficients'
// error on measured tables, e.g. of a model they were not fitted on.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"

#include "weft/CostModel/Calibration.h"
#include "weft/Planner/ModelImport.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

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
  outs() << format("%.4f", cost::layerLatencyMs(m->desc, *d, q)) << "\n";
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

static int costCalibrateMain(int argc, char **argv) {
  cl::OptionCategory cat("weft cost calibrate options");
  cl::opt<std::string> data("data", cl::desc("Directory of Helix tables"),
                            cl::Required, cl::cat(cat));
  cl::opt<std::string> model(
      "model", cl::desc("Model of the tables (default: LLaMA-1-30B)"),
      cl::cat(cat));
  cl::HideUnrelatedOptions(cat);
  if (!cl::ParseCommandLineOptions(argc, argv, "weft cost calibrate\n",
                                   &errs()))
    return 1;
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
  errs() << "usage: weft cost layer|calibrate|check [options]\n";
  return 1;
}
