//===- Calibration.cpp - Fit the latency model on measured tables ---------===//
#include "weft/CostModel/Calibration.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <cmath>
#include <set>

using namespace llvm;

namespace weft::cost {

ModelDesc llama30B() {
  ModelDesc m;
  m.name = "llama-30b";
  m.arch = "llama";
  m.hidden = 6656;
  m.intermediate = 17920;
  m.layers = 60;
  m.heads = 52;
  m.kvHeads = 52;
  m.vocab = 32000;
  m.maxSeq = 2048;
  return m;
}

namespace {

/// Helix file-name GPU tag -> canonical device.
const char *deviceForTag(StringRef tag) {
  if (tag == "a100")
    return "A100-40GB";
  if (tag == "v100")
    return "V100-16GB";
  if (tag == "l4")
    return "L4";
  if (tag == "t4")
    return "T4";
  return nullptr;
}

Error parseTable(StringRef path, StringRef device, Phase phase, int tp,
                 std::vector<Sample> &out) {
  auto buf = MemoryBuffer::getFile(path);
  if (!buf)
    return createStringError(buf.getError(), "%s: cannot read",
                             path.str().c_str());
  SmallVector<StringRef, 64> lines;
  (*buf)->getBuffer().split(lines, '\n', -1, false);
  for (auto [i, line] : enumerate(lines)) {
    auto [a, b] = line.trim().split(',');
    int64_t tokens;
    double ms;
    if (a.trim().getAsInteger(10, tokens) || b.trim().getAsDouble(ms))
      return createStringError(inconvertibleErrorCode(),
                               "%s:%zu: expected 'tokens,ms'",
                               path.str().c_str(), i + 1);
    if (tokens > 0 && ms > 0)
      out.push_back({device.str(), phase, tokens, ms, tp});
  }
  return Error::success();
}

} // namespace

Expected<std::vector<Sample>> loadHelixTables(StringRef dir,
                                              bool withTensorParallel) {
  std::vector<Sample> samples;
  std::error_code ec;
  std::vector<std::string> files;
  for (sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
       it.increment(ec))
    files.push_back(it->path());
  if (ec)
    return createStringError(ec, "%s: cannot list directory",
                             dir.str().c_str());
  llvm::sort(files); // deterministic order
  for (const std::string &file : files) {
    SmallVector<StringRef, 3> parts;
    StringRef(sys::path::stem(file)).split(parts, "__");
    if (parts.size() != 3)
      continue;
    auto [tag, group] = parts[1].split('x');
    int tp = 1;
    if (!group.empty() && (group.getAsInteger(10, tp) || tp < 2))
      continue;
    if (tp > 1 && !withTensorParallel)
      continue;
    const char *device = deviceForTag(tag);
    if (!device)
      continue;
    Phase phase =
        parts[2].starts_with("prompt") ? Phase::Prefill : Phase::Decode;
    if (Error e = parseTable(file, device, phase, tp, samples))
      return std::move(e);
  }
  if (samples.empty())
    return createStringError(inconvertibleErrorCode(),
                             "%s: no latency tables found", dir.str().c_str());
  return samples;
}

double predictSample(const ModelDesc &m, const DeviceSpec &d, const Sample &s,
                     const KernelParams &k) {
  LayerQuery q;
  q.phase = s.phase;
  if (s.phase == Phase::Prefill) {
    q.batch = (s.tokens + kHelixPromptLen - 1) / kHelixPromptLen;
    q.seq = (s.tokens + q.batch - 1) / q.batch;
  } else {
    q.batch = s.tokens;
    q.seq = 1;
    q.past = kHelixDecodePast;
  }
  q.tensorParallel = s.tensorParallel;
  q.tpLinkGBps = kHelixTpLinkGBps;
  return layerLatencyMs(m, d, q, k);
}

double meanAbsPctError(const ModelDesc &m,
                       const std::map<std::string, DeviceSpec> &devices,
                       const std::vector<Sample> &samples,
                       const KernelParams &k) {
  double sum = 0;
  for (const Sample &s : samples) {
    double p = predictSample(m, devices.at(s.device), s, k);
    sum += std::fabs(p - s.ms) / s.ms;
  }
  return samples.empty() ? 0 : 100 * sum / samples.size();
}

FitResult fitLatencyModel(const ModelDesc &m,
                          const std::vector<Sample> &samples) {
  FitResult r;
  for (const Sample &s : samples)
    if (!r.devices.count(s.device)) {
      DeviceSpec d = cantFail(lookupDevice(s.device));
      d.gemmEff = 0.6;
      d.memEff = 0.7;
      r.devices[s.device] = d;
    }
  r.kernel = KernelParams();
  // Every tunable parameter, as a pointer into r.
  std::vector<double *> params = {&r.kernel.launchUs, &r.kernel.attnEff};
  for (auto &[name, d] : r.devices) {
    params.push_back(&d.gemmEff);
    params.push_back(&d.memEff);
  }
  auto error = [&] { return meanAbsPctError(m, r.devices, samples, r.kernel); };
  double best = error();
  const double steps[] = {0.7, 0.85, 0.95, 0.99, 1.01, 1.05, 1.15, 1.4};
  for (int round = 0; round < 40; ++round) {
    bool improved = false;
    for (double *p : params) {
      double keep = *p, bestValue = keep;
      for (double f : steps) {
        *p = keep * f;
        if (p != &r.kernel.launchUs && *p > 1.0)
          continue; // efficiencies are fractions of peak
        double e = error();
        if (e < best - 1e-9) {
          best = e;
          bestValue = *p;
          improved = true;
        }
      }
      *p = bestValue;
    }
    if (!improved)
      break;
  }
  for (auto &[name, d] : r.devices)
    d.calibrated = true;
  r.trainError = best;
  return r;
}

namespace {

/// Efficiencies for a device nobody measured: the mean over the fitted
/// devices of its class (all fitted devices when the class has none).
DeviceSpec predictUnseen(StringRef name,
                         const std::map<std::string, DeviceSpec> &fitted) {
  DeviceSpec d = cantFail(lookupDevice(name));
  double g = 0, mem = 0, n = 0;
  for (int pass = 0; pass < 2 && n == 0; ++pass)
    for (const auto &[other, f] : fitted)
      if (pass == 1 || f.lowPower == d.lowPower) {
        g += f.gemmEff;
        mem += f.memEff;
        ++n;
      }
  d.gemmEff = g / n;
  d.memEff = mem / n;
  d.calibrated = false;
  return d;
}

} // namespace

CalibrationReport calibrateWithHoldout(const ModelDesc &m,
                                       const std::vector<Sample> &samples,
                                       const std::vector<Sample> &tpSamples) {
  CalibrationReport r;
  r.all = fitLatencyModel(m, samples);
  std::map<std::string, std::vector<Sample>> groups;
  for (const Sample &s : tpSamples)
    groups[s.device + "x" + std::to_string(s.tensorParallel)].push_back(s);
  for (const auto &[name, group] : groups)
    if (r.all.devices.count(group.front().device))
      r.tensorParallelError[name] =
          meanAbsPctError(m, r.all.devices, group, r.all.kernel);

  std::vector<Sample> even, odd;
  for (auto [i, s] : enumerate(samples))
    (i % 2 ? odd : even).push_back(s);
  FitResult half = fitLatencyModel(m, even);
  r.rowHoldoutError = meanAbsPctError(m, half.devices, odd, half.kernel);

  std::set<std::string> names;
  for (const Sample &s : samples)
    names.insert(s.device);
  for (const std::string &out : names) {
    std::vector<Sample> train, test;
    for (const Sample &s : samples)
      (s.device == out ? test : train).push_back(s);
    if (train.empty())
      continue;
    FitResult f = fitLatencyModel(m, train);
    f.devices[out] = predictUnseen(out, f.devices);
    r.deviceHoldoutError[out] = meanAbsPctError(m, f.devices, test, f.kernel);
    r.meanDeviceHoldoutError += r.deviceHoldoutError[out];
  }
  // A single device cannot be left out of its own fit.
  if (!r.deviceHoldoutError.empty())
    r.meanDeviceHoldoutError /= r.deviceHoldoutError.size();
  return r;
}

void printCalibrationReport(const CalibrationReport &r, raw_ostream &os) {
  os << "kernel: launch_us " << format("%.3f", r.all.kernel.launchUs)
     << " attn_eff " << format("%.4f", r.all.kernel.attnEff) << "\n";
  for (const auto &[name, d] : r.all.devices)
    os << "device " << name << ": gemm_eff " << format("%.4f", d.gemmEff)
       << " mem_eff " << format("%.4f", d.memEff) << "\n";
  os << "train MAPE: " << format("%.2f", r.all.trainError) << "%\n";
  os << "held-out rows MAPE: " << format("%.2f", r.rowHoldoutError) << "%\n";
  for (const auto &[name, e] : r.deviceHoldoutError)
    os << "held-out device " << name << " MAPE: " << format("%.2f", e) << "%\n";
  for (const auto &[name, e] : r.tensorParallelError)
    os << "tensor-parallel group " << name
       << " (not fitted) MAPE: " << format("%.2f", e) << "%\n";
  if (!r.deviceHoldoutError.empty())
    os << "held-out device mean MAPE: "
       << format("%.2f", r.meanDeviceHoldoutError) << "%\n";
}

namespace {

/// Accumulates percentage errors into a TableCheck.
void addError(TableCheck &t, double predicted, double measured) {
  double e = 100 * (predicted - measured) / measured;
  t.mape += std::fabs(e);
  t.bias += e;
  ++t.rows;
}

void finish(TableCheck &t) {
  if (t.rows) {
    t.mape /= t.rows;
    t.bias /= t.rows;
  }
}

} // namespace

CheckReport checkAgainstTables(const ModelDesc &m,
                               const std::vector<Sample> &samples) {
  CheckReport r;
  r.singleGpu.table = "single-GPU rows";
  r.tensorParallel.table = "tensor-parallel rows";
  std::map<std::string, TableCheck> tables;
  const KernelParams &k = defaultKernelParams();
  for (const Sample &s : samples) {
    std::string name = s.device;
    if (s.tensorParallel > 1)
      name += "x" + std::to_string(s.tensorParallel);
    name += s.phase == Phase::Prefill ? " prefill" : " decode";
    double p = predictSample(m, cantFail(lookupDevice(s.device)), s, k);
    TableCheck &t = tables[name];
    t.table = name;
    addError(t, p, s.ms);
    addError(s.tensorParallel > 1 ? r.tensorParallel : r.singleGpu, p, s.ms);
  }
  for (auto &[name, t] : tables) {
    finish(t);
    r.tables.push_back(t);
  }
  finish(r.singleGpu);
  finish(r.tensorParallel);
  return r;
}

void printCheckReport(const CheckReport &r, raw_ostream &os) {
  auto line = [&](const TableCheck &t) {
    os << t.table << ": " << t.rows << " rows, MAPE "
       << format("%.2f", t.mape) << "%, bias " << format("%+.2f", t.bias)
       << "%\n";
  };
  for (const TableCheck &t : r.tables)
    line(t);
  if (r.singleGpu.rows)
    line(r.singleGpu);
  if (r.tensorParallel.rows)
    line(r.tensorParallel);
}

} // namespace weft::cost
