//===- RuntimeProfile.cpp - How a serving runtime runs a plan -------------===//
#include "weft/CostModel/RuntimeProfile.h"
#include "weft/Support/JSONInteger.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>

using namespace llvm;

namespace weft::cost {

double RuntimeProfile::kernelScale(Phase phase, int bits,
                                   StringRef device) const {
  int ph = phaseIndex(phase);
  double f = 1;
  for (size_t b = 0; b < kProfileBits.size(); ++b)
    if (kProfileBits[b] == bits)
      f = kernelFactor[ph][b];
  return f * deviceScale(phase, device);
}

double layerLatencyMs(const ModelDesc &m, const DeviceSpec &d,
                      const LayerQuery &q, const RuntimeProfile &profile) {
  return layerLatencyMs(m, d, q) * profile.kernelScale(q.phase, q.bits, d.name) +
         profile.layerOverheadMs[phaseIndex(q.phase)];
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

const char *const kPhaseKeys[2] = {"prefill", "decode"};
constexpr const char *kFormat = "weft-runtime-profile";
// Keeps byte counts far from int64 overflow when added to plan memory.
constexpr double kMaxReservedBytes = double(int64_t(1) << 50);
// Bounds that keep every predicted time finite: factors up to 1e6,
// overheads up to 1e6 ms, latencies up to 1e9 us, staging at >= 1 kB/s.
constexpr double kMaxFactor = 1e6, kMaxOverheadMs = 1e6, kMaxLatencyUs = 1e9,
                 kMinStagingGBps = 1e-6;

/// Reads fields of one object, naming them in errors as `FILE: a.b.c: ...`.
class FieldReader {
public:
  explicit FieldReader(StringRef file) : file(file.str()) {}

  Error error(const Twine &field, const Twine &msg) const {
    return createStringError(inconvertibleErrorCode(),
                             file + ": " + field + ": " + msg);
  }

  /// Every key of `o` must be in `known` (keys starting with '_' are
  /// comments).
  Error onlyKnownKeys(const json::Object &o, const Twine &where,
                      ArrayRef<StringRef> known) const {
    for (const auto &kv : o) {
      StringRef key = kv.first;
      if (key.starts_with("_") || is_contained(known, key))
        continue;
      std::string field =
          where.isTriviallyEmpty() ? key.str() : (where + "." + key).str();
      return error(
          field, "unknown field (expected one of: " + join(known, ", ") + ")");
    }
    return Error::success();
  }

  Expected<double> number(const json::Value &v, const Twine &field,
                          bool positive, double max) const {
    std::optional<double> x = v.getAsNumber();
    if (!x || !std::isfinite(*x) || (positive ? *x <= 0 : *x < 0))
      return error(field, positive ? "expected a positive number"
                                   : "expected a non-negative number");
    if (*x > max)
      return error(field,
                   "expected a number at most " + formatv("{0:e0}", max).str());
    return *x;
  }

  Expected<const json::Object *> object(const json::Value &v,
                                        const Twine &field) const {
    if (const json::Object *o = v.getAsObject())
      return o;
    return error(field, "expected an object");
  }

  Expected<std::string> string(const json::Value &v, const Twine &field) const {
    if (std::optional<StringRef> s = v.getAsString())
      return s->str();
    return error(field, "expected a string");
  }

  /// {"prefill": x, "decode": y}: either phase may be omitted.
  Error perPhase(const json::Value &v, const Twine &field, bool positive,
                 double max, std::array<double, 2> &dst) const {
    auto o = object(v, field);
    if (!o)
      return o.takeError();
    if (Error e = onlyKnownKeys(**o, field, {"prefill", "decode"}))
      return e;
    for (int ph = 0; ph < 2; ++ph)
      if (const json::Value *x = (*o)->get(kPhaseKeys[ph])) {
        auto n = number(*x, field + "." + kPhaseKeys[ph], positive, max);
        if (!n)
          return n.takeError();
        dst[ph] = *n;
      }
    return Error::success();
  }

private:
  std::string file;
};

Error readKernels(const FieldReader &r, const json::Value &v,
                  RuntimeProfile &p) {
  auto o = r.object(v, "kernels");
  if (!o)
    return o.takeError();
  if (Error e = r.onlyKnownKeys(**o, "kernels", {"prefill", "decode"}))
    return e;
  for (int ph = 0; ph < 2; ++ph) {
    const json::Value *phase = (*o)->get(kPhaseKeys[ph]);
    if (!phase)
      continue;
    std::string where = std::string("kernels.") + kPhaseKeys[ph];
    auto bits = r.object(*phase, where);
    if (!bits)
      return bits.takeError();
    for (const auto &[key, value] : **bits) {
      if (StringRef(key).starts_with("_"))
        continue;
      std::string field = where + "." + StringRef(key).str();
      int b = 0;
      size_t index = kProfileBits.size();
      if (!StringRef(key).getAsInteger(10, b))
        for (size_t i = 0; i < kProfileBits.size(); ++i)
          if (kProfileBits[i] == b)
            index = i;
      if (index == kProfileBits.size())
        return r.error(field, "unsupported bit-width (expected 16, 8, 4 or 3)");
      auto n = r.number(value, field, /*positive=*/true, kMaxFactor);
      if (!n)
        return n.takeError();
      p.kernelFactor[ph][index] = *n;
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
      if (Error e = r.perPhase(*x, Twine("overheads_ms.") + key,
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
  if (Error e = r.onlyKnownKeys(
          *o, "",
          {"format", "version", "name", "target", "estimated", "provenance",
           "kernels", "devices", "overheads_ms", "transfer", "memory"}))
    return std::move(e);
  if (const json::Value *f = o->get("format"))
    if (f->getAsString() != std::optional<StringRef>(kFormat))
      return r.error("format", Twine("expected \"") + kFormat + "\"");
  std::optional<int64_t> version = integerField(*o, "version");
  if (!version)
    return r.error("version",
                   "missing (expected " + Twine(kRuntimeProfileVersion) + ")");
  if (*version != kRuntimeProfileVersion)
    return r.error("version", "unsupported version " + Twine(*version) +
                                  " (this weft reads version " +
                                  Twine(kRuntimeProfileVersion) + ")");
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
  if (const json::Value *x = o->get("devices")) {
    auto devices = r.object(*x, "devices");
    if (!devices)
      return devices.takeError();
    for (const auto &[key, value] : **devices) {
      if (StringRef(key).starts_with("_"))
        continue;
      std::array<double, 2> f = {1, 1};
      if (Error e = r.perPhase(value, "devices." + StringRef(key).str(),
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

} // namespace

json::Object profileToJSON(const RuntimeProfile &p) {
  json::Object kernels;
  for (int ph = 0; ph < 2; ++ph) {
    json::Object bits;
    for (size_t b = 0; b < kProfileBits.size(); ++b)
      bits[std::to_string(kProfileBits[b])] = p.kernelFactor[ph][b];
    kernels[kPhaseKeys[ph]] = std::move(bits);
  }
  json::Object devices;
  for (const auto &[name, f] : p.deviceFactor)
    devices[name] = perPhaseJSON(f);
  return json::Object{
      {"format", kFormat},
      {"version", kRuntimeProfileVersion},
      {"name", p.name},
      {"target", p.target},
      {"estimated", p.estimated},
      {"provenance", provenanceJSON(p.provenance)},
      {"kernels", std::move(kernels)},
      {"devices", std::move(devices)},
      {"overheads_ms", json::Object{{"layer", perPhaseJSON(p.layerOverheadMs)},
                                    {"stage", perPhaseJSON(p.stageOverheadMs)},
                                    {"step", perPhaseJSON(p.stepOverheadMs)}}},
      {"transfer", json::Object{{"path", p.transferPath},
                                {"latency_us", p.transferLatencyUs},
                                {"staging_GBps", p.stagingGBps}}},
      {"memory",
       json::Object{{"reserved_bytes_per_device", p.reservedBytesPerDevice}}}};
}

json::Object profileSummaryJSON(const RuntimeProfile &p) {
  return json::Object{{"name", p.name},
                      {"version", kRuntimeProfileVersion},
                      {"target", p.target},
                      {"estimated", p.estimated},
                      {"provenance", provenanceJSON(p.provenance)}};
}

} // namespace weft::cost
