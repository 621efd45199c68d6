//===- PlanCommand.cpp - `weft plan` --------------------------------------===//
//
// Reads model, cluster, workload and quality target; runs the planner and
// the two baselines; writes plan.json (atomically) and optionally an HTML
// report. `--evaluate PLAN.json` predicts a given plan instead.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "PlanReport.h"

#include "weft/LLM/AnnotatePlan.h"
#include "weft/Planner/ModelImport.h"
#include "weft/Planner/PlanIO.h"
#include "weft/Planner/PlanPolicy.h"
#include "weft/Planner/ProfileFile.h"
#include "weft/Support/JSONFile.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <optional>

using namespace llvm;
using namespace weft;
using namespace weft::plan;

namespace {

int fail(const Twine &msg) { return commandError(msg); }

json::Object summary(const char *name, const PlanResult *r) {
  if (!r)
    return json::Object{{"name", name}, {"error", "infeasible"}};
  return json::Object{{"name", name},
                      {"throughput_tokens_per_s", r->predicted.throughput},
                      {"quality_loss", r->predicted.qualityLoss},
                      {"planning_s", r->seconds}};
}

} // namespace

int weft::planMain(int argc, char **argv) {
  cl::OptionCategory cat("weft plan options");
  cl::opt<std::string> modelPath("model",
                                 cl::desc("config.json, directory or "
                                          "llama2.c checkpoint"),
                                 cl::Required, cl::cat(cat));
  cl::opt<std::string> clusterPath("cluster", cl::desc("Cluster JSON"),
                                   cl::Required, cl::cat(cat));
  cl::opt<int64_t> promptLen("prompt-len", cl::desc("Prompt tokens"),
                             cl::init(512), cl::cat(cat));
  cl::opt<int64_t> genLen("gen-len", cl::desc("Generated tokens"),
                          cl::init(128), cl::cat(cat));
  cl::opt<int64_t> batch("batch", cl::desc("Sequences served together"),
                         cl::init(32), cl::cat(cat));
  cl::opt<double> maxLoss("max-quality-loss",
                          cl::desc("Largest predicted quality loss (1.0 = "
                                   "every layer at 4 bits)"),
                          cl::init(-1), cl::cat(cat));
  cl::opt<int> floorBits("quality-floor-bits",
                         cl::desc("Loss no worse than every layer at B bits"),
                         cl::init(0), cl::cat(cat));
  cl::list<int> allowedBits("bits", cl::desc("Allowed bit-widths"),
                            cl::CommaSeparated, cl::cat(cat));
  cl::opt<std::string> planner(
      "planner", cl::desc("fast (default), uniform, pipeedge or exact"),
      cl::init("fast"), cl::cat(cat));
  cl::opt<std::string> output("o", cl::desc("Plan file to write"),
                              cl::value_desc("PLAN.json"), cl::cat(cat));
  cl::opt<std::string> emit(
      "emit",
      cl::desc("Format of -o: json (plan.json, default) or mlir "
               "(the llm IR annotated with the plan)"),
      cl::init("json"), cl::cat(cat));
  cl::opt<std::string> report("report", cl::desc("HTML report to write"),
                              cl::value_desc("PLAN.html"), cl::cat(cat));
  cl::opt<std::string> evaluatePath("evaluate",
                                    cl::desc("Predict this plan instead"),
                                    cl::value_desc("PLAN.json"), cl::cat(cat));
  cl::opt<std::string> profilePath(
      "profile",
      cl::desc("Runtime profile of the runtime that runs the plan (file or "
               "built-in name; default: weft-cpu on CPU clusters, "
               "weft-cuda-estimated otherwise)"),
      cl::value_desc("PROFILE.json"), cl::cat(cat));
  cl::HideUnrelatedOptions(cat);
  if (!cl::ParseCommandLineOptions(argc, argv, "weft plan\n", &errs()))
    return 1;

  auto model = importModel(modelPath);
  if (!model)
    return fail(toString(model.takeError()));
  auto cluster = loadCluster(clusterPath);
  if (!cluster)
    return fail(toString(cluster.takeError()));
  if (cluster->devices.empty())
    return fail(clusterPath + ": nodes: the cluster has no devices");
  Expected<QualityModel> quality =
      qualityFromCheckpoint(model->desc, modelPath);
  if (!quality)
    return fail(toString(quality.takeError()));
  Workload workload{promptLen, genLen, batch};
  if (!evaluatePath.empty()) {
    // A plan records the workload it was made for; flags given here win.
    if (Expected<json::Value> v = readJSONFile(evaluatePath)) {
      const json::Object *w =
          v->getAsObject() ? v->getAsObject()->getObject("workload") : nullptr;
      auto take = [&](cl::opt<int64_t> &flag, StringRef key, int64_t &dst) {
        std::optional<int64_t> x = w ? integerField(*w, key) : std::nullopt;
        if (!flag.getNumOccurrences() && x && *x >= 1)
          dst = *x;
      };
      take(promptLen, "prompt_len", workload.promptLen);
      take(genLen, "gen_len", workload.genLen);
      take(batch, "batch", workload.batch);
    } else {
      consumeError(v.takeError()); // loadPlan reports it below
    }
  }
  if (workload.promptLen < 1 || workload.genLen < 1 || workload.batch < 1)
    return fail("--prompt-len, --gen-len and --batch must be >= 1");
  // Keep every byte count of the memory model inside 64 bits.
  double kvBytes = 4.0 * double(workload.batch) *
                   double(workload.promptLen + workload.genLen) *
                   double(model->desc.kvDim()) * double(model->desc.layers);
  if (workload.batch > (1 << 20) || workload.promptLen > (1 << 24) ||
      workload.genLen > (1 << 24) || kvBytes > 1e18)
    return fail("--batch/--prompt-len/--gen-len: workload too large (the KV "
                "cache alone would need " +
                formatv("{0:E2}", kvBytes / 1e9).str() + " GB)");
  std::optional<cost::RuntimeProfile> profile;
  if (!profilePath.empty()) {
    auto p = loadRuntimeProfile(profilePath);
    if (!p)
      return fail(toString(p.takeError()));
    profile = std::move(*p);
  }
  Problem problem{model->desc, *cluster, *quality, workload,
                  profile ? &*profile : nullptr};
  json::Object profileJSON = cost::profileSummaryJSON(runtimeProfile(problem));

  if (!evaluatePath.empty()) {
    auto plan = loadPlan(evaluatePath, problem);
    if (!plan)
      return fail(toString(plan.takeError()));
    Prediction pred = evaluate(problem, *plan);
    outs() << formatv("{0:2}\n",
                      json::Value(json::Object{
                          {"model", model->desc.name},
                          {"predicted", predictionToJSON(problem, *plan, pred)},
                          {"profile", std::move(profileJSON)}}));
    return 0;
  }
  if (output.empty())
    return fail("-o PLAN.json is required (or use --evaluate)");
  if (emit != "json" && emit != "mlir")
    return fail("--emit: expected json or mlir, got '" + emit + "'");

  PlanRequest request;
  request.planner = planner;
  if (!allowedBits.empty())
    request.bits.assign(allowedBits.begin(), allowedBits.end());
  request.qualityFloorBits = floorBits;
  if (maxLoss.getNumOccurrences())
    request.maxQualityLoss = maxLoss;
  if (Error e = validatePlanRequest(request))
    return fail("--" + toString(std::move(e)));
  Expected<PlanOutcome> outcome = makePlan(problem, request);
  if (!outcome)
    return fail(toString(outcome.takeError()));
  const PlanResult *result = &outcome->result;
  const PlanResult *uniform = outcome->uniform ? &*outcome->uniform : nullptr;
  const PlanResult *pipeedge =
      outcome->pipeedge ? &*outcome->pipeedge : nullptr;
  json::Object extra{
      {"workload", json::Object{{"prompt_len", int64_t(promptLen)},
                                {"gen_len", int64_t(genLen)},
                                {"batch", int64_t(batch)}}},
      {"planner", json::Object{{"name", std::string(planner)},
                               {"planning_s", result->seconds},
                               {"searched", result->searched},
                               {"max_quality_loss",
                                std::isfinite(outcome->maxQualityLoss)
                                    ? json::Value(outcome->maxQualityLoss)
                                    : json::Value(nullptr)},
                               {"quality_source", quality->source}}},
      {"baselines",
       json::Array{summary("uniform", uniform), summary("pipeedge", pipeedge)}},
      {"profile", std::move(profileJSON)}};
  json::Object planJSON =
      planToJSON(problem, result->plan, result->predicted, std::move(extra));
  std::string text = formatv("{0:2}\n", json::Value(std::move(planJSON)));
  if (emit == "mlir") {
    mlir::MLIRContext ctx;
    auto module = llm::importPlannedModel(ctx, problem, result->plan);
    if (!module)
      return fail(modelPath + ": " + toString(module.takeError()));
    if (failed(mlir::verify(**module)))
      return fail("internal error: the llm IR of the plan does not verify");
    text.clear();
    raw_string_ostream os(text);
    (*module)->print(os);
  }
  if (!report.empty()) {
    std::string html = renderPlanReport(problem, *result, uniform, pipeedge);
    if (Error e = writeFileAtomically(report, html))
      return fail(report + ": " + toString(std::move(e)));
  }
  if (Error e = writeFileAtomically(output, text))
    return fail(output + ": " + toString(std::move(e)));
  return 0;
}
