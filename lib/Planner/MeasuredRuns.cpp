//===- MeasuredRuns.cpp - Measured end-to-end serving runs ----------------===//
#include "weft/Planner/MeasuredRuns.h"

#include "weft/Planner/ModelImport.h"
#include "weft/Planner/PlanIO.h"
#include "weft/Support/JSONFile.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Path.h"

#include <cmath>

using namespace llvm;

namespace weft::plan {
namespace {

/// Runs beyond this are surely not a measurement campaign (each one loads a
/// plan and is predicted many times by the fit).
constexpr size_t kMaxRuns = 10000;

class RunsReader {
public:
  explicit RunsReader(StringRef path) : out() {
    out.path = path.str();
    dir = sys::path::parent_path(path).str();
  }

  Expected<MeasuredRuns> read();

private:
  Error error(const Twine &field, const Twine &msg) const {
    return createStringError(inconvertibleErrorCode(),
                             out.path + ": " + field + ": " + msg);
  }
  /// `rel` resolved against the runs file's directory.
  std::string resolve(StringRef rel) const {
    if (sys::path::is_absolute(rel) || dir.empty())
      return rel.str();
    SmallString<256> p(dir);
    sys::path::append(p, rel);
    return std::string(p);
  }
  Expected<std::string> pathField(const json::Object &o, StringRef key,
                                  const Twine &where) const {
    std::optional<StringRef> s = o.getString(key);
    if (!s || s->empty())
      return error(where + "." + key, "missing (expected a path relative to "
                                      "the runs file)");
    return s->str();
  }
  Error readRun(const json::Value &v, size_t index);
  Expected<size_t> model(StringRef rel, const Twine &field);
  Expected<size_t> cluster(StringRef rel, const Twine &field);

  MeasuredRuns out;
  std::string dir;
  StringMap<size_t> modelIndex, clusterIndex;
  StringSet<> ids;
};

Expected<size_t> RunsReader::model(StringRef rel, const Twine &field) {
  auto it = modelIndex.find(rel);
  if (it != modelIndex.end())
    return it->second;
  Expected<ImportedModel> m = importModel(resolve(rel));
  if (!m)
    return error(field, toString(m.takeError()));
  out.models.push_back(m->desc);
  out.qualities.push_back(qualityPrior(m->desc));
  return modelIndex[rel] = out.models.size() - 1;
}

Expected<size_t> RunsReader::cluster(StringRef rel, const Twine &field) {
  auto it = clusterIndex.find(rel);
  if (it != clusterIndex.end())
    return it->second;
  Expected<Cluster> c = loadCluster(resolve(rel));
  if (!c)
    return error(field, toString(c.takeError()));
  if (c->devices.empty())
    return error(field, rel + ": the cluster has no devices");
  out.clusters.push_back(std::move(*c));
  return clusterIndex[rel] = out.clusters.size() - 1;
}

Error RunsReader::readRun(const json::Value &v, size_t index) {
  std::string where = "runs[" + std::to_string(index) + "]";
  const json::Object *o = v.getAsObject();
  if (!o)
    return error(where, "expected an object");
  MeasuredRun run;
  std::optional<StringRef> id = o->getString("id");
  if (!id || id->empty())
    return error(where + ".id", "missing (expected a string)");
  run.id = id->str();
  if (!ids.insert(run.id).second)
    return error(where + ".id", "'" + run.id + "' is used by two runs");

  const json::Object *w = o->getObject("workload");
  if (!w)
    return error(where + ".workload", "missing (expected an object)");
  for (auto [key, dst] :
       {std::pair<StringRef, int64_t *>{"batch", &run.workload.batch},
        {"prompt_len", &run.workload.promptLen},
        {"gen_len", &run.workload.genLen}}) {
    std::optional<int64_t> x = integerField(*w, key);
    // The planner's own workload limits (weft plan).
    if (!x || *x < 1 || *x > (int64_t(1) << 20))
      return error(where + ".workload." + key,
                   "expected an integer in [1, 1048576]");
    *dst = *x;
  }

  const json::Object *m = o->getObject("measured");
  if (!m)
    return error(where + ".measured", "missing (expected an object)");
  for (auto [key, dst] :
       {std::pair<StringRef, double *>{"prefill_s", &run.prefillS},
        {"decode_s", &run.decodeS},
        {"total_s", &run.totalS}}) {
    std::optional<double> x = m->getNumber(key);
    if (!x || !std::isfinite(*x) || *x <= 0)
      return error(where + ".measured." + key, "expected a positive number");
    *dst = *x;
  }

  auto modelPath = pathField(*o, "model", where);
  if (!modelPath)
    return modelPath.takeError();
  auto clusterPath = pathField(*o, "cluster", where);
  if (!clusterPath)
    return clusterPath.takeError();
  auto planPath = pathField(*o, "plan", where);
  if (!planPath)
    return planPath.takeError();
  auto mi = model(*modelPath, where + ".model");
  if (!mi)
    return mi.takeError();
  auto ci = cluster(*clusterPath, where + ".cluster");
  if (!ci)
    return ci.takeError();
  run.modelName = *modelPath;
  run.clusterName = *clusterPath;
  run.model = &out.models[*mi];
  run.quality = &out.qualities[*mi];
  run.cluster = &out.clusters[*ci];
  // The plan must cover the model's layers on devices of the cluster. (Its
  // "model" name is not compared: names differ between configs and plans,
  // "bigscience/bloom" vs "bloom-176b".)
  Expected<Plan> plan = loadPlan(resolve(*planPath), run.problem(nullptr));
  if (!plan)
    return error(where + ".plan", toString(plan.takeError()));
  run.plan = std::move(*plan);
  out.runs.push_back(std::move(run));
  return Error::success();
}

Expected<MeasuredRuns> RunsReader::read() {
  Expected<json::Value> v = readJSONFile(out.path);
  if (!v)
    return v.takeError();
  const json::Object *top = v->getAsObject();
  if (!top)
    return error("(top level)", "expected a JSON object");
  if (const json::Object *rt = top->getObject("runtime"))
    if (std::optional<StringRef> e = rt->getString("engine"))
      out.engine = e->str();
  const json::Array *runs = top->getArray("runs");
  if (!runs)
    return error("runs", "missing (expected an array)");
  if (runs->empty())
    return error("runs", "no runs");
  if (runs->size() > kMaxRuns)
    return error("runs", "more than " + Twine(kMaxRuns) + " runs");
  for (auto [i, r] : enumerate(*runs))
    if (Error e = readRun(r, i))
      return std::move(e);
  return std::move(out);
}

} // namespace

Expected<MeasuredRuns> loadMeasuredRuns(StringRef path) {
  return RunsReader(path).read();
}

} // namespace weft::plan
