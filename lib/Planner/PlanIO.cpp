//===- PlanIO.cpp - plan.json (DESIGN.md schema) --------------------------===//
#include "weft/Planner/PlanIO.h"
#include "weft/Support/OutputFile.h"

#include "weft/Support/JSONFile.h"

#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace weft::plan {

json::Object predictionToJSON(const Problem &p, const Plan &plan,
                              const Prediction &pred) {
  json::Object memory;
  json::Array stages;
  for (auto [i, s] : enumerate(plan.stages)) {
    const std::string &id = p.cluster.devices[s.device].id;
    const StagePrediction &sp = pred.stages[i];
    memory[id] = sp.memoryBytes;
    stages.push_back(json::Object{{"device", id},
                                  {"prefill_ms", sp.prefillMs},
                                  {"decode_ms", sp.decodeMs},
                                  {"memory_bytes", sp.memoryBytes},
                                  {"capacity_bytes", sp.capacityBytes}});
  }
  return json::Object{{"throughput_tokens_per_s", pred.throughput},
                      {"prefill_s", pred.prefillS},
                      {"decode_s", pred.decodeS},
                      {"memory_bytes", std::move(memory)},
                      {"quality_loss", pred.qualityLoss},
                      {"fits_memory", pred.fitsMemory},
                      {"stages", std::move(stages)}};
}

json::Object planToJSON(const Problem &p, const Plan &plan,
                        const Prediction &pred, json::Object extra) {
  json::Array stages;
  for (const Stage &s : plan.stages) {
    const ClusterDevice &d = p.cluster.devices[s.device];
    stages.push_back(json::Object{{"device", d.id},
                                  {"type", d.spec.name},
                                  {"layers", json::Array{s.first, s.end}},
                                  {"bits", json::Array(s.bits)}});
  }
  json::Object o{{"model", p.model.name},
                 {"prefill_microbatch", plan.prefillMicrobatch},
                 {"decode_microbatch", plan.decodeMicrobatch},
                 {"stages", std::move(stages)},
                 {"predicted", predictionToJSON(p, plan, pred)}};
  for (auto &kv : extra)
    o[kv.first] = std::move(kv.second);
  return o;
}

Expected<Plan> planFromJSON(const json::Value &v, StringRef file,
                            const Problem &p) {
  auto err = [&](const Twine &field, const Twine &msg) {
    return createStringError(inconvertibleErrorCode(),
                             file + ": " + field + ": " + msg);
  };
  const json::Object *o = v.getAsObject();
  if (!o)
    return err("(top level)", "expected a JSON object");
  Plan plan;
  for (auto [key, dst] : {std::pair<StringRef, int64_t *>{
                              "prefill_microbatch", &plan.prefillMicrobatch},
                          {"decode_microbatch", &plan.decodeMicrobatch}}) {
    // serve takes at most 2^24 sequences per micro-batch (an int in the
    // generated program).
    std::optional<int64_t> i = integerField(*o, key);
    if (!i || *i < 1 || *i > (int64_t(1) << 24))
      return err(key, "expected an integer in [1, 16777216]");
    *dst = *i;
  }
  const json::Array *stages = o->getArray("stages");
  if (!stages)
    return err("stages", "missing (expected an array)");
  for (auto [i, sv] : enumerate(*stages)) {
    std::string where = "stages[" + std::to_string(i) + "]";
    const json::Object *so = sv.getAsObject();
    if (!so)
      return err(where, "expected an object");
    Stage s;
    std::optional<StringRef> id = so->getString("device");
    if (!id)
      return err(where + ".device", "missing");
    s.device = p.cluster.find(*id);
    if (s.device < 0)
      return err(where + ".device", "'" + *id + "' is not in the cluster");
    const json::Array *layers = so->getArray("layers");
    if (!layers || layers->size() != 2 || !integerOf((*layers)[0]) ||
        !integerOf((*layers)[1]))
      return err(where + ".layers", "expected [first, end)");
    s.first = *integerOf((*layers)[0]);
    s.end = *integerOf((*layers)[1]);
    const json::Array *bits = so->getArray("bits");
    if (!bits)
      return err(where + ".bits", "missing (expected an array)");
    for (const json::Value &b : *bits) {
      std::optional<int64_t> x = integerOf(b);
      if (!x || *x < INT32_MIN || *x > INT32_MAX) // never truncated to a width
        return err(where + ".bits", "expected integers");
      s.bits.push_back(int(*x));
    }
    plan.stages.push_back(std::move(s));
  }
  if (Error e = validatePlan(p, plan))
    return createStringError(inconvertibleErrorCode(),
                             file + ": " + toString(std::move(e)));
  return plan;
}

Expected<Plan> loadPlan(StringRef path, const Problem &p) {
  Expected<json::Value> v = readJSONFile(path);
  if (!v)
    return v.takeError();
  return planFromJSON(*v, path, p);
}

Expected<Cluster> clusterOfPlan(const json::Value &v, StringRef file) {
  auto err = [&](const Twine &field, const Twine &msg) {
    return createStringError(inconvertibleErrorCode(),
                             file + ": " + field + ": " + msg);
  };
  const json::Object *top = v.getAsObject();
  const json::Array *stages = top ? top->getArray("stages") : nullptr;
  if (!stages)
    return err("stages", "missing (expected an array)");
  Cluster cluster;
  for (auto [i, sv] : enumerate(*stages)) {
    std::string where = "stages[" + std::to_string(i) + "]";
    const json::Object *s = sv.getAsObject();
    std::optional<StringRef> id = s ? s->getString("device") : std::nullopt;
    if (!id)
      return err(where + ".device", "missing");
    std::optional<StringRef> type = s->getString("type");
    if (!type)
      return err(where + ".type", "missing");
    Expected<cost::DeviceSpec> spec = cost::lookupDevice(*type);
    if (!spec)
      return err(where + ".type", toString(spec.takeError()));
    ClusterDevice d;
    d.id = id->str();
    d.spec = *spec;
    StringRef node = StringRef(d.id).split('/').first;
    auto known = llvm::find(cluster.nodeNames, node.str());
    d.node = int(known - cluster.nodeNames.begin());
    if (known == cluster.nodeNames.end()) {
      cluster.nodeNames.push_back(node.str());
      cluster.intraGBps.push_back(cluster.interGBps);
    }
    cluster.devices.push_back(std::move(d));
  }
  return cluster;
}

Workload workloadOfPlan(const json::Value &v, Workload fallback) {
  const json::Object *top = v.getAsObject();
  const json::Object *o = top ? top->getObject("workload") : nullptr;
  auto take = [&](StringRef key, int64_t &dst) {
    if (std::optional<int64_t> x = o ? integerField(*o, key) : std::nullopt)
      if (*x >= 1)
        dst = *x;
  };
  take("prompt_len", fallback.promptLen);
  take("gen_len", fallback.genLen);
  take("batch", fallback.batch);
  return fallback;
}

Error writeFileAtomically(StringRef path, StringRef text) {
  return writeOutputFile(path, text);
}

} // namespace weft::plan
