//===- RuntimeProfile.cpp - How a serving runtime runs a plan -------------===//
#include "weft/CostModel/RuntimeProfile.h"
#include "weft/Support/JSONInteger.h"

#include "FieldReader.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>

using namespace llvm;

namespace weft::cost {

double RuntimeProfile::kernelScale(Phase phase, int bits,
                                   StringRef device) const {
  int b = bitWidthIndex(bits);
  double f = b < 0 ? 1 : kernelFactor[phaseIndex(phase)][size_t(b)];
  return f * deviceScale(phase, device);
}

const KernelCurves *RuntimeProfile::curvesFor(StringRef device) const {
  return curves && device.equals_insensitive(curves->device) ? &*curves
                                                             : nullptr;
}

LayerWork layerWork(const ModelDesc &m, const LayerQuery &q) {
  double tp = std::max(1, q.tensorParallel);
  LayerWork w;
  w.rows = double(q.batch) * double(q.seq);
  w.weights = double(m.linearParamsPerLayer()) / tp;
  // Causal: each new row attends to the past and half the new block.
  double positions = w.rows * (double(q.past) + double(q.seq + 1) / 2);
  w.attended = positions * double(m.hidden) / tp;
  w.scores = positions * double(m.heads) / tp;
  w.elementwise = w.rows * double(m.hidden);
  return w;
}

namespace {

/// A decoder layer's kernels on the measured curves (ms).
double curveLayerMs(const ModelDesc &m, const KernelCurves &c,
                    const LayerQuery &q) {
  int ph = phaseIndex(q.phase), b = std::max(0, bitWidthIndex(q.bits));
  LayerWork w = layerWork(m, q);
  double ns = w.weights * (c.weightNs[ph][b] + w.rows * c.rowWeightNs[ph][b]) +
              w.attended * c.attentionNs[ph] +
              w.scores * c.attentionHeadNs[ph] +
              w.elementwise * c.elementwiseNs[ph];
  return ns * 1e-6;
}

} // namespace

double layerLatencyMs(const ModelDesc &m, const DeviceSpec &d,
                      const LayerQuery &q, const RuntimeProfile &profile) {
  const KernelCurves *c = profile.curvesFor(d.name);
  double kernels = 0;
  if (c) {
    kernels = curveLayerMs(m, *c, q);
  } else {
    KernelParams k = defaultKernelParams();
    k.cudaCoreGemm = profile.cudaCoreGemm[phaseIndex(q.phase)];
    kernels = layerLatencyMs(m, d, q, k);
  }
  return kernels * profile.kernelScale(q.phase, q.bits, d.name) +
         profile.layerOverheadMs[phaseIndex(q.phase)];
}

double embeddingLatencyMs(const ModelDesc &m, const DeviceSpec &d, Phase phase,
                          int64_t tokens, const RuntimeProfile &profile) {
  double scale = profile.kernelScale(phase, 16, d.name);
  if (const KernelCurves *c = profile.curvesFor(d.name))
    return double(tokens) * double(m.hidden) * c->embeddingNs * 1e-6 * scale;
  return embeddingLatencyMs(m, d, tokens) * scale;
}

double lmHeadLatencyMs(const ModelDesc &m, const DeviceSpec &d, Phase phase,
                       int64_t rows, const RuntimeProfile &profile) {
  double scale = profile.kernelScale(phase, 16, d.name);
  if (const KernelCurves *c = profile.curvesFor(d.name))
    return double(m.vocab) * double(m.hidden) *
           (c->headWeightNs + double(rows) * c->headRowWeightNs) * 1e-6 * scale;
  return lmHeadLatencyMs(m, d, rows) * scale;
}

double RuntimeProfile::deviceScale(Phase phase, StringRef device) const {
  for (const auto &[name, perPhase] : deviceFactor)
    if (device.equals_insensitive(name))
      return perPhase[phaseIndex(phase)];
  return 1;
}

double RuntimeProfile::transferExtraMs(int64_t bytes) const {
  double ms = transferLatencyUs * 1e-3;
  if (stagingGBps > 0)
    ms += double(bytes) / (stagingGBps * 1e9) * 1e3;
  return ms;
}

namespace {

RuntimeProfile analyticalProfile(const char *name, const char *target) {
  RuntimeProfile p;
  p.name = name;
  p.target = target;
  p.estimated = true;
  p.provenance.measured =
      "nothing: weft's analytical roofline model unchanged (device "
      "efficiencies fitted on per-layer tables, docs/cost-model.md)";
  p.provenance.where = "built into weft";
  p.provenance.when = "";
  p.provenance.command = "";
  return p;
}

} // namespace

const RuntimeProfile &builtinCpuProfile() {
  static const RuntimeProfile p = analyticalProfile("weft-cpu", "cpu");
  return p;
}

const RuntimeProfile &builtinCudaProfile() {
  static const RuntimeProfile p =
      analyticalProfile("weft-cuda-estimated", "cuda");
  return p;
}

const RuntimeProfile &builtinProfileFor(bool allCpu) {
  return allCpu ? builtinCpuProfile() : builtinCudaProfile();
}

//===----------------------------------------------------------------------===//
// JSON
//===----------------------------------------------------------------------===//

namespace {

using detail::FieldReader;

const char *const kPhaseKeys[2] = {"prefill", "decode"};
constexpr const char *kFormat = "weft-runtime-profile";
// Keeps byte counts far from int64 overflow when added to plan memory.
constexpr double kMaxReservedBytes = double(int64_t(1) << 50);
// Bounds that keep every predicted time finite: factors up to 1e6,
// overheads up to 1e6 ms, latencies up to 1e9 us, staging at >= 1 kB/s.
constexpr double kMaxFactor = 1e6, kMaxOverheadMs = 1e6, kMaxLatencyUs = 1e9,
                 kMinStagingGBps = 1e-6;
// Curves: at most a millisecond per weight element or attended position.
constexpr double kMaxCurveNs = 1e6;

/// {"prefill": x, "decode": y}: either phase may be omitted.
Error readPerPhase(const FieldReader &r, const json::Value &v,
                   const Twine &field, bool positive, double max,
                   std::array<double, 2> &dst) {
  auto o = r.object(v, field);
  if (!o)
    return o.takeError();
  if (Error e = r.onlyKnownKeys(**o, field, {"prefill", "decode"}))
    return e;
  for (int ph = 0; ph < 2; ++ph)
    if (const json::Value *x = (*o)->get(kPhaseKeys[ph])) {
      auto n = r.number(*x, field + "." + kPhaseKeys[ph], positive, max);
      if (!n)
        return n.takeError();
      dst[ph] = *n;
    }
  return Error::success();
}

/// {"16": x, "8": y, ...}: a number per bit-width.
Error readPerBits(const FieldReader &r, const json::Value &v,
                  const std::string &where, bool positive, double max,
                  std::array<double, 4> &dst) {
  auto o = r.object(v, where);
  if (!o)
    return o.takeError();
  for (const auto &[key, value] : **o) {
    if (StringRef(key).starts_with("_"))
      continue;
    std::string field = where + "." + StringRef(key).str();
    int b = 0;
    int index = StringRef(key).getAsInteger(10, b) ? -1 : bitWidthIndex(b);
    if (index < 0)
      return r.error(field, "unsupported bit-width (expected 16, 8, 4 or 3)");
    auto n = r.number(value, field, positive, max);
    if (!n)
      return n.takeError();
    dst[size_t(index)] = *n;
  }
  return Error::success();
}

Error readKernels(const FieldReader &r, const json::Value &v,
                  RuntimeProfile &p) {
  auto o = r.object(v, "kernels");
  if (!o)
    return o.takeError();
  if (Error e = r.onlyKnownKeys(**o, "kernels", {"prefill", "decode"}))
    return e;
  for (int ph = 0; ph < 2; ++ph)
    if (const json::Value *phase = (*o)->get(kPhaseKeys[ph]))
      if (Error e =
              readPerBits(r, *phase, std::string("kernels.") + kPhaseKeys[ph],
                          /*positive=*/true, kMaxFactor, p.kernelFactor[ph]))
        return e;
  return Error::success();
}

/// {"prefill": {"4": "cuda-cores", "8": "tensor-cores"}, "decode": ...}
Error readGemmUnits(const FieldReader &r, const json::Value &v,
                    RuntimeProfile &p) {
  auto o = r.object(v, "gemm_units");
  if (!o)
    return o.takeError();
  if (Error e = r.onlyKnownKeys(**o, "gemm_units", {"prefill", "decode"}))
    return e;
  for (int ph = 0; ph < 2; ++ph) {
    const json::Value *phase = (*o)->get(kPhaseKeys[ph]);
    if (!phase)
      continue;
    std::string where = std::string("gemm_units.") + kPhaseKeys[ph];
    auto bits = r.object(*phase, where);
    if (!bits)
      return bits.takeError();
    for (const auto &[key, value] : **bits) {
      if (StringRef(key).starts_with("_"))
        continue;
      std::string field = where + "." + StringRef(key).str();
      int b = 0;
      if (StringRef(key).getAsInteger(10, b) || b == 16 || bitWidthIndex(b) < 0)
        return r.error(field, "expected a quantised bit-width (8, 4 or 3)");
      std::optional<StringRef> unit = value.getAsString();
      if (!unit || (*unit != "cuda-cores" && *unit != "tensor-cores"))
        return r.error(field, "expected \"cuda-cores\" or \"tensor-cores\"");
      p.cudaCoreGemm[ph][size_t(bitWidthIndex(b))] = *unit == "cuda-cores";
    }
  }
  return Error::success();
}

Error readOverheads(const FieldReader &r, const json::Value &v,
                    RuntimeProfile &p) {
  auto o = r.object(v, "overheads_ms");
  if (!o)
    return o.takeError();
  if (Error e =
          r.onlyKnownKeys(**o, "overheads_ms", {"layer", "stage", "step"}))
    return e;
  std::pair<const char *, std::array<double, 2> *> parts[] = {
      {"layer", &p.layerOverheadMs},
      {"stage", &p.stageOverheadMs},
      {"step", &p.stepOverheadMs}};
  for (auto [key, dst] : parts)
    if (const json::Value *x = (*o)->get(key))
      if (Error e = readPerPhase(r, *x, Twine("overheads_ms.") + key,
                                 /*positive=*/false, kMaxOverheadMs, *dst))
        return e;
  return Error::success();
}

Error readTransfer(const FieldReader &r, const json::Value &v,
                   RuntimeProfile &p) {
  auto o = r.object(v, "transfer");
  if (!o)
    return o.takeError();
  if (Error e = r.onlyKnownKeys(**o, "transfer",
                                {"path", "latency_us", "staging_GBps"}))
    return e;
  if (const json::Value *x = (*o)->get("path")) {
    auto s = r.string(*x, "transfer.path");
    if (!s)
      return s.takeError();
    p.transferPath = *s;
  }
  if (const json::Value *x = (*o)->get("latency_us")) {
    auto n =
        r.number(*x, "transfer.latency_us", /*positive=*/false, kMaxLatencyUs);
    if (!n)
      return n.takeError();
    p.transferLatencyUs = *n;
  }
  if (const json::Value *x = (*o)->get("staging_GBps")) {
    auto n = r.number(*x, "transfer.staging_GBps", /*positive=*/false, 1e6);
    if (!n)
      return n.takeError();
    if (*n != 0 && *n < kMinStagingGBps)
      return r.error("transfer.staging_GBps",
                     "expected 0 (no staging) or at least 1e-06");
    p.stagingGBps = *n;
  }
  return Error::success();
}

Error readMemory(const FieldReader &r, const json::Value &v,
                 RuntimeProfile &p) {
  auto o = r.object(v, "memory");
  if (!o)
    return o.takeError();
  if (Error e = r.onlyKnownKeys(**o, "memory", {"reserved_bytes_per_device"}))
    return e;
  if (const json::Value *x = (*o)->get("reserved_bytes_per_device")) {
    std::optional<int64_t> n = integerOf(*x);
    if (!n || *n < 0 || double(*n) > kMaxReservedBytes)
      return r.error("memory.reserved_bytes_per_device",
                     "expected an integer in [0, 2^50]");
    p.reservedBytesPerDevice = *n;
  }
  return Error::success();
}

/// Non-negative nanoseconds `o[key]`, when present, into *dst.
Error readNs(const FieldReader &r, const json::Object &o, StringRef key,
             const std::string &where, double *dst) {
  const json::Value *x = o.get(key);
  if (!x)
    return Error::success();
  auto n =
      r.number(*x, where + "." + key.str(), /*positive=*/false, kMaxCurveNs);
  if (!n)
    return n.takeError();
  *dst = *n;
  return Error::success();
}

Error readLayerCurves(const FieldReader &r, const json::Value &v,
                      KernelCurves &c) {
  auto layer = r.object(v, "curves.layer");
  if (!layer)
    return layer.takeError();
  if (Error e = r.onlyKnownKeys(**layer, "curves.layer", {"prefill", "decode"}))
    return e;
  for (int ph = 0; ph < 2; ++ph) {
    const json::Value *phase = (*layer)->get(kPhaseKeys[ph]);
    if (!phase)
      continue;
    std::string where = std::string("curves.layer.") + kPhaseKeys[ph];
    auto po = r.object(*phase, where);
    if (!po)
      return po.takeError();
    if (Error e = r.onlyKnownKeys(**po, where,
                                  {"weight_ns", "row_weight_ns", "attention_ns",
                                   "attention_head_ns", "elementwise_ns"}))
      return e;
    if (const json::Value *y = (*po)->get("weight_ns"))
      if (Error e = readPerBits(r, *y, where + ".weight_ns", /*positive=*/false,
                                kMaxCurveNs, c.weightNs[ph]))
        return e;
    if (const json::Value *y = (*po)->get("row_weight_ns"))
      if (Error e =
              readPerBits(r, *y, where + ".row_weight_ns",
                          /*positive=*/false, kMaxCurveNs, c.rowWeightNs[ph]))
        return e;
    if (Error e = readNs(r, **po, "attention_ns", where, &c.attentionNs[ph]))
      return e;
    if (Error e =
            readNs(r, **po, "attention_head_ns", where, &c.attentionHeadNs[ph]))
      return e;
    if (Error e =
            readNs(r, **po, "elementwise_ns", where, &c.elementwiseNs[ph]))
      return e;
  }
  return Error::success();
}

Error readCurves(const FieldReader &r, const json::Value &v,
                 RuntimeProfile &p) {
  auto o = r.object(v, "curves");
  if (!o)
    return o.takeError();
  if (Error e = r.onlyKnownKeys(
          **o, "curves",
          {"device", "threads", "layer", "head_ns", "embedding_ns"}))
    return e;
  KernelCurves c;
  if (const json::Value *x = (*o)->get("device")) {
    auto s = r.string(*x, "curves.device");
    if (!s)
      return s.takeError();
    c.device = *s;
  }
  if (const json::Value *x = (*o)->get("threads")) {
    std::optional<int64_t> n = integerOf(*x);
    if (!n || *n < 1 || *n > 4096)
      return r.error("curves.threads", "expected an integer in [1, 4096]");
    c.threads = int(*n);
  }
  if (const json::Value *x = (*o)->get("layer"))
    if (Error e = readLayerCurves(r, *x, c))
      return e;
  if (const json::Value *x = (*o)->get("head_ns")) {
    auto head = r.object(*x, "curves.head_ns");
    if (!head)
      return head.takeError();
    if (Error e =
            r.onlyKnownKeys(**head, "curves.head_ns", {"weight", "row_weight"}))
      return e;
    if (Error e =
            readNs(r, **head, "weight", "curves.head_ns", &c.headWeightNs))
      return e;
    if (Error e = readNs(r, **head, "row_weight", "curves.head_ns",
                         &c.headRowWeightNs))
      return e;
  }
  if (Error e = readNs(r, **o, "embedding_ns", "curves", &c.embeddingNs))
    return e;
  p.curves = std::move(c);
  return Error::success();
}

Error readProvenance(const FieldReader &r, const json::Value &v,
                     RuntimeProfile &p) {
  auto o = r.object(v, "provenance");
  if (!o)
    return o.takeError();
  if (Error e = r.onlyKnownKeys(**o, "provenance",
                                {"measured", "where", "when", "command"}))
    return e;
  std::pair<const char *, std::string *> parts[] = {
      {"measured", &p.provenance.measured},
      {"where", &p.provenance.where},
      {"when", &p.provenance.when},
      {"command", &p.provenance.command}};
  for (auto [key, dst] : parts)
    if (const json::Value *x = (*o)->get(key)) {
      auto s = r.string(*x, Twine("provenance.") + key);
      if (!s)
        return s.takeError();
      *dst = *s;
    }
  return Error::success();
}

} // namespace

Expected<RuntimeProfile> profileFromJSON(const json::Value &v, StringRef file) {
  FieldReader r(file);
  const json::Object *o = v.getAsObject();
  if (!o)
    return r.error("(top level)", "expected a JSON object");
  if (Error e =
          r.onlyKnownKeys(*o, "",
                          {"format", "version", "name", "target", "estimated",
                           "provenance", "kernels", "gemm_units", "devices",
                           "overheads_ms", "transfer", "memory", "curves"}))
    return std::move(e);
  if (const json::Value *f = o->get("format"))
    if (f->getAsString() != std::optional<StringRef>(kFormat))
      return r.error("format", Twine("expected \"") + kFormat + "\"");
  std::optional<int64_t> version = integerField(*o, "version");
  if (!version)
    return r.error("version",
                   "missing (expected " + Twine(kRuntimeProfileVersion) + ")");
  if (*version != 1 && *version != kRuntimeProfileVersion)
    return r.error("version", "unsupported version " + Twine(*version) +
                                  " (this weft reads versions 1 and " +
                                  Twine(kRuntimeProfileVersion) + ")");
  if (*version == 1 && o->get("curves"))
    return r.error("curves", "needs version 2 or later");
  RuntimeProfile p;
  std::optional<StringRef> name = o->getString("name");
  if (!name || name->trim().empty())
    return r.error("name", "missing (expected a non-empty string)");
  p.name = name->str();
  if (const json::Value *t = o->get("target")) {
    auto s = r.string(*t, "target");
    if (!s)
      return s.takeError();
    p.target = *s;
  }
  if (const json::Value *e = o->get("estimated")) {
    std::optional<bool> b = e->getAsBoolean();
    if (!b)
      return r.error("estimated", "expected true or false");
    p.estimated = *b;
  } // absent: estimated (only a measurement may say otherwise)
  if (const json::Value *x = o->get("provenance"))
    if (Error e = readProvenance(r, *x, p))
      return std::move(e);
  if (const json::Value *x = o->get("kernels"))
    if (Error e = readKernels(r, *x, p))
      return std::move(e);
  if (const json::Value *x = o->get("gemm_units"))
    if (Error e = readGemmUnits(r, *x, p))
      return std::move(e);
  if (const json::Value *x = o->get("devices")) {
    auto devices = r.object(*x, "devices");
    if (!devices)
      return devices.takeError();
    for (const auto &[key, value] : **devices) {
      if (StringRef(key).starts_with("_"))
        continue;
      std::array<double, 2> f = {1, 1};
      if (Error e = readPerPhase(r, value, "devices." + StringRef(key).str(),
                                 /*positive=*/true, kMaxFactor, f))
        return std::move(e);
      p.deviceFactor[StringRef(key).str()] = f;
    }
  }
  if (const json::Value *x = o->get("overheads_ms"))
    if (Error e = readOverheads(r, *x, p))
      return std::move(e);
  if (const json::Value *x = o->get("transfer"))
    if (Error e = readTransfer(r, *x, p))
      return std::move(e);
  if (const json::Value *x = o->get("memory"))
    if (Error e = readMemory(r, *x, p))
      return std::move(e);
  if (const json::Value *x = o->get("curves"))
    if (Error e = readCurves(r, *x, p))
      return std::move(e);
  return p;
}

namespace {

json::Object perPhaseJSON(const std::array<double, 2> &v) {
  return json::Object{{"prefill", v[0]}, {"decode", v[1]}};
}

json::Object provenanceJSON(const ProfileProvenance &p) {
  return json::Object{{"measured", p.measured},
                      {"where", p.where},
                      {"when", p.when},
                      {"command", p.command}};
}

json::Object perBitsJSON(const std::array<double, 4> &v) {
  json::Object o;
  for (size_t b = 0; b < kProfileBits.size(); ++b)
    o[std::to_string(kProfileBits[b])] = v[b];
  return o;
}

json::Object curvesJSON(const KernelCurves &c) {
  json::Object layer;
  for (int ph = 0; ph < 2; ++ph)
    layer[kPhaseKeys[ph]] =
        json::Object{{"weight_ns", perBitsJSON(c.weightNs[ph])},
                     {"row_weight_ns", perBitsJSON(c.rowWeightNs[ph])},
                     {"attention_ns", c.attentionNs[ph]},
                     {"attention_head_ns", c.attentionHeadNs[ph]},
                     {"elementwise_ns", c.elementwiseNs[ph]}};
  return json::Object{
      {"device", c.device},
      {"threads", c.threads},
      {"layer", std::move(layer)},
      {"head_ns", json::Object{{"weight", c.headWeightNs},
                               {"row_weight", c.headRowWeightNs}}},
      {"embedding_ns", c.embeddingNs}};
}

} // namespace

json::Object profileToJSON(const RuntimeProfile &p) {
  json::Object kernels;
  for (int ph = 0; ph < 2; ++ph)
    kernels[kPhaseKeys[ph]] = perBitsJSON(p.kernelFactor[ph]);
  json::Object gemmUnits;
  for (int ph = 0; ph < 2; ++ph) {
    json::Object units;
    for (size_t b = 1; b < kProfileBits.size(); ++b)
      units[std::to_string(kProfileBits[b])] =
          p.cudaCoreGemm[ph][b] ? "cuda-cores" : "tensor-cores";
    gemmUnits[kPhaseKeys[ph]] = std::move(units);
  }
  json::Object devices;
  for (const auto &[name, f] : p.deviceFactor)
    devices[name] = perPhaseJSON(f);
  json::Object o{
      {"format", kFormat},
      {"version", kRuntimeProfileVersion},
      {"name", p.name},
      {"target", p.target},
      {"estimated", p.estimated},
      {"provenance", provenanceJSON(p.provenance)},
      {"kernels", std::move(kernels)},
      {"gemm_units", std::move(gemmUnits)},
      {"devices", std::move(devices)},
      {"overheads_ms", json::Object{{"layer", perPhaseJSON(p.layerOverheadMs)},
                                    {"stage", perPhaseJSON(p.stageOverheadMs)},
                                    {"step", perPhaseJSON(p.stepOverheadMs)}}},
      {"transfer", json::Object{{"path", p.transferPath},
                                {"latency_us", p.transferLatencyUs},
                                {"staging_GBps", p.stagingGBps}}},
      {"memory",
       json::Object{{"reserved_bytes_per_device", p.reservedBytesPerDevice}}}};
  if (p.curves)
    o["curves"] = curvesJSON(*p.curves);
  return o;
}

json::Object profileSummaryJSON(const RuntimeProfile &p) {
  return json::Object{{"name", p.name},
                      {"version", kRuntimeProfileVersion},
                      {"target", p.target},
                      {"estimated", p.estimated},
                      {"provenance", provenanceJSON(p.provenance)}};
}

} // namespace weft::cost
