//===- KernelProfileFit.cpp - A runtime profile from timed kernels --------===//
#include "weft/Planner/KernelProfileFit.h"

#include "weft/Planner/BoundedLeastSquares.h"
#include "weft/Support/JSONFile.h"
#include "weft/Support/JSONInteger.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <cmath>
#include <limits>
#include <optional>
#include <set>

using namespace llvm;

namespace weft::plan {

//===----------------------------------------------------------------------===//
// Reading the samples
//===----------------------------------------------------------------------===//

namespace {

Error sampleError(StringRef file, const Twine &field, const Twine &msg) {
  return createStringError(inconvertibleErrorCode(),
                           file + ": " + field + ": " + msg);
}

/// An integer field in [lo, hi].
Expected<int64_t> intField(StringRef file, const json::Object &o, StringRef key,
                           const Twine &where, int64_t lo, int64_t hi) {
  std::optional<int64_t> n = integerField(o, key);
  if (!n || *n < lo || *n > hi)
    return sampleError(file, where + "." + key,
                       "expected an integer in [" + Twine(lo) + ", " +
                           Twine(hi) + "]");
  return *n;
}

/// A finite, non-negative number of milliseconds.
Expected<double> msField(StringRef file, const json::Object &o, StringRef key,
                         const Twine &where) {
  std::optional<double> x = o.getNumber(key);
  if (!x || !std::isfinite(*x) || *x < 0 || *x > 1e9)
    return sampleError(file, where + "." + key,
                       "expected milliseconds in [0, 1e9]");
  return *x;
}

Expected<KernelSample> readSample(StringRef file, const json::Value &v,
                                  const std::string &where) {
  const json::Object *o = v.getAsObject();
  if (!o)
    return sampleError(file, where, "expected an object");
  KernelSample s;
  std::optional<StringRef> part = o->getString("part");
  if (!part || !is_contained({"layers", "head", "embed", "transfer"}, *part))
    return sampleError(file, where + ".part",
                       "expected \"layers\", \"head\", \"embed\" or "
                       "\"transfer\"");
  s.part = part->str();
  auto ms = msField(file, *o, "ms", where);
  if (!ms)
    return ms.takeError();
  s.ms = *ms;
  if (s.part == "transfer") {
    auto bytes = intField(file, *o, "bytes", where, 1, int64_t(1) << 40);
    if (!bytes)
      return bytes.takeError();
    s.bytes = *bytes;
    return s;
  }
  std::optional<StringRef> phase = o->getString("phase");
  if (!phase || (*phase != "prefill" && *phase != "decode"))
    return sampleError(file, where + ".phase",
                       "expected \"prefill\" or \"decode\"");
  s.phase = *phase == "prefill" ? cost::Phase::Prefill : cost::Phase::Decode;
  auto bits = intField(file, *o, "bits", where, 3, 16);
  if (!bits)
    return bits.takeError();
  if (!cost::isSupportedBits(int(*bits)))
    return sampleError(file, where + ".bits",
                       "unsupported bit-width (expected 16, 8, 4 or 3)");
  s.bits = int(*bits);
  constexpr int64_t kMaxDim = 1 << 20;
  std::pair<const char *, int64_t *> dims[] = {
      {"dim", &s.model.hidden},
      {"hidden", &s.model.intermediate},
      {"heads", &s.model.heads},
      {"kv_heads", &s.model.kvHeads},
      {"vocab", &s.model.vocab}};
  for (auto [key, dst] : dims) {
    auto n = intField(file, *o, key, where, 1, kMaxDim);
    if (!n)
      return n.takeError();
    *dst = *n;
  }
  if (s.model.hidden % s.model.heads || s.model.heads % s.model.kvHeads)
    return sampleError(file, where,
                       "dim must be a multiple of heads, heads of kv_heads");
  std::pair<const char *, int *> counts[] = {{"layers", &s.layers},
                                             {"seqs", &s.seqs},
                                             {"rows", &s.rows},
                                             {"past", &s.past}};
  for (auto [key, dst] : counts) {
    auto n = intField(file, *o, key, where, StringRef(key) == "past" ? 0 : 1,
                      kMaxDim);
    if (!n)
      return n.takeError();
    *dst = int(*n);
  }
  if (o->get("empty_ms")) {
    auto empty = msField(file, *o, "empty_ms", where);
    if (!empty)
      return empty.takeError();
    s.emptyMs = *empty;
  }
  return s;
}

} // namespace

Expected<KernelSamples> readKernelSamples(StringRef path) {
  auto v = readJSONFile(path);
  if (!v)
    return v.takeError();
  return kernelSamplesFromJSON(*v, path);
}

Expected<KernelSamples> kernelSamplesFromJSON(const json::Value &v,
                                              StringRef path) {
  const json::Object *o = v.getAsObject();
  if (!o)
    return sampleError(path, "(top level)", "expected a JSON object");
  if (o->getString("format") != std::optional<StringRef>("weft-kernel-samples"))
    return sampleError(path, "format", "expected \"weft-kernel-samples\"");
  if (integerField(*o, "version") != std::optional<int64_t>(1))
    return sampleError(path, "version", "expected 1");
  KernelSamples out;
  auto threads = intField(path, *o, "threads", "threads", 1, 4096);
  if (!threads)
    return threads.takeError();
  out.threads = int(*threads);
  const json::Array *samples = o->getArray("samples");
  if (!samples)
    return sampleError(path, "samples", "expected an array");
  for (auto [i, s] : enumerate(*samples)) {
    auto sample = readSample(path, s, "samples[" + std::to_string(i) + "]");
    if (!sample)
      return sample.takeError();
    out.samples.push_back(std::move(*sample));
  }
  return out;
}

//===----------------------------------------------------------------------===//
// Fitting
//===----------------------------------------------------------------------===//

namespace {

constexpr int kNumBits = int(cost::kProfileBits.size());
/// Columns of a decoder layer's fit: weights and weights x rows per
/// bit-width, attended, scores, elementwise, a constant (ns).
constexpr int kLayerColumns = 2 * kNumBits + 4;

cost::LayerQuery queryOf(const KernelSample &s) {
  cost::LayerQuery q;
  q.phase = s.phase;
  q.batch = s.seqs;
  q.seq = s.rows;
  q.past = s.past;
  q.bits = s.bits;
  return q;
}

/// One decoder layer of the sample (ms).
double layerMs(const KernelSample &s) {
  return (s.ms - s.emptyMs) / double(s.layers);
}

void layerFeatures(const KernelSample &s, double *row) {
  cost::LayerWork w = cost::layerWork(s.model, queryOf(s));
  std::fill(row, row + kLayerColumns, 0.0);
  int b = cost::bitWidthIndex(s.bits);
  row[2 * b] = w.weights;
  row[2 * b + 1] = w.weights * w.rows;
  row[2 * kNumBits] = w.attended;
  row[2 * kNumBits + 1] = w.scores;
  row[2 * kNumBits + 2] = w.elementwise;
  row[2 * kNumBits + 3] = 1;
}

/// The samples of one fit: per sample a feature row, the time it should
/// predict (in the unit the fit's coefficients take) and, for decoder
/// layers, the model shape it ran.
struct FitRows {
  std::vector<std::vector<double>> features;
  std::vector<double> time;
  std::vector<int64_t> shape; // decoder layers: the sample's hidden size

  void add(std::vector<double> f, double t, int64_t hidden = 0) {
    features.push_back(std::move(f));
    time.push_back(t);
    shape.push_back(hidden);
  }
  FitRows subset(function_ref<bool(size_t)> keep) const {
    FitRows s;
    for (size_t i = 0; i < time.size(); ++i)
      if (keep(i))
        s.add(features[i], time[i], shape[i]);
    return s;
  }
};

/// Bounded (>= `lower`, else >= 0) least squares on relative errors:
/// coefficients such that features . x ~ time.
Eigen::VectorXd fitRelative(const FitRows &r,
                            std::optional<Eigen::VectorXd> lower = {}) {
  size_t n = r.time.size(), k = r.features.empty() ? 0 : r.features[0].size();
  Eigen::MatrixXd A(n, k);
  Eigen::VectorXd b(n);
  for (size_t i = 0; i < n; ++i) {
    for (size_t j = 0; j < k; ++j)
      A(i, j) = r.features[i][j] / r.time[i];
    b(i) = 1;
  }
  Eigen::VectorXd zero = Eigen::VectorXd::Zero(k);
  return boundedLeastSquares(A, b, lower.value_or(zero), zero, zero,
                             /*ridge=*/1e-9);
}

/// Whether the shared column `shared` of decoder-layer rows is, on the
/// samples of every bit width, a constant multiple of one of that width's
/// own columns (weights, weights x rows): then no fit can tell the two
/// apart.
bool absorbedByWidths(const FitRows &r, int shared) {
  for (int b = 0; b < kNumBits; ++b) {
    bool absorbed = false;
    for (int own : {2 * b, 2 * b + 1}) {
      std::optional<double> ratio;
      bool constant = true;
      for (const std::vector<double> &f : r.features) {
        if (f[size_t(2 * b)] == 0)
          continue; // a sample of another width
        double q = f[size_t(shared)] / f[size_t(own)];
        if (!ratio)
          ratio = q;
        else if (std::abs(q - *ratio) > 1e-9 * std::abs(*ratio))
          constant = false;
      }
      absorbed |= constant;
    }
    if (!absorbed)
      return false;
  }
  return true;
}

/// fitRelative for decoder layers. A column every bit width shares that the
/// samples cannot tell from each width's own (one model shape: the fixed
/// cost, as the weights are constant, and the elementwise values, which
/// grow with the rows as weights x rows do; prefill of one prompt length
/// from position 0: the attended positions too) would take what the
/// cheapest width's own columns should: on a loaded machine, that width's
/// weight costs came out 0. Such columns stay 0; each width's own columns
/// count their cost.
///
/// Decode layers of one row per sequence stream their weights once and do
/// little else, so each width's weight_ns is at least kDecodeWeightShare of
/// its fastest sample's time per weight: timings of a loaded machine
/// (faster with more rows, or with a longer context) could otherwise fit
/// a width's weight_ns at 0, its whole cost in weights x rows.
constexpr double kDecodeWeightShare = 0.5;

Eigen::VectorXd fitLayers(FitRows r, int phase) {
  for (int j = 2 * kNumBits; j < kLayerColumns; ++j)
    if (absorbedByWidths(r, j))
      for (std::vector<double> &f : r.features)
        f[size_t(j)] = 0;
  Eigen::VectorXd lower = Eigen::VectorXd::Zero(kLayerColumns);
  if (phase == cost::phaseIndex(cost::Phase::Decode))
    for (int b = 0; b < kNumBits; ++b) {
      double fastest = std::numeric_limits<double>::infinity();
      for (size_t i = 0; i < r.time.size(); ++i)
        if (double weights = r.features[i][size_t(2 * b)]; weights > 0)
          fastest = std::min(fastest, r.time[i] / weights);
      if (std::isfinite(fastest))
        lower(2 * b) = kDecodeWeightShare * fastest;
    }
  return fitRelative(r, lower);
}

FitRows layerRows(const KernelSamples &in, int phase) {
  FitRows r;
  for (const KernelSample &s : in.samples) {
    if (s.part != "layers" || cost::phaseIndex(s.phase) != phase)
      continue;
    double ms = layerMs(s);
    if (ms <= 0)
      continue;
    std::vector<double> row(kLayerColumns);
    layerFeatures(s, row.data());
    r.add(std::move(row), ms * 1e6, s.model.hidden);
  }
  return r;
}

/// Mean |predicted - measured| / measured over the rows `keep` accepts.
double meanRelativeError(
    const FitRows &r, const Eigen::VectorXd &x,
    function_ref<bool(size_t)> keep = [](size_t) { return true; }) {
  double sum = 0;
  size_t n = 0;
  for (size_t i = 0; i < r.time.size(); ++i) {
    if (!keep(i))
      continue;
    double pred = 0;
    for (size_t j = 0; j < r.features[i].size(); ++j)
      pred += r.features[i][j] * x(Eigen::Index(j));
    sum += std::abs(pred - r.time[i]) / r.time[i];
    ++n;
  }
  return n ? sum / double(n) : 0;
}

/// Every bit-width needs two samples (with different row counts) for its
/// two columns.
Error checkDetermined(const FitRows &r, int phase) {
  for (int b = 0; b < kNumBits; ++b) {
    std::set<double> rows;
    for (const std::vector<double> &f : r.features)
      if (f[size_t(2 * b)] > 0)
        rows.insert(f[size_t(2 * b + 1)] / f[size_t(2 * b)]);
    if (rows.size() < 2)
      return createStringError(
          inconvertibleErrorCode(),
          "kernel samples: %s decoder layers at %d bits need at least two "
          "row counts",
          phase == 0 ? "prefill" : "decode", cost::kProfileBits[b]);
  }
  return Error::success();
}

} // namespace

Expected<KernelFitReport> fitKernelProfile(const KernelSamples &in,
                                           StringRef name, StringRef target,
                                           StringRef device) {
  KernelFitReport report;
  cost::RuntimeProfile &p = report.profile;
  p.name = name.str();
  p.target = target.str();
  p.estimated = false;
  cost::KernelCurves c;
  c.device = device.str();
  c.threads = in.threads;
  for (int ph = 0; ph < 2; ++ph) {
    FitRows rows = layerRows(in, ph);
    if (Error e = checkDetermined(rows, ph))
      return std::move(e);
    Eigen::VectorXd x = fitLayers(rows, ph);
    for (int b = 0; b < kNumBits; ++b) {
      c.weightNs[ph][b] = x(2 * b);
      c.rowWeightNs[ph][b] = x(2 * b + 1);
    }
    c.attentionNs[ph] = x(2 * kNumBits);
    c.attentionHeadNs[ph] = x(2 * kNumBits + 1);
    c.elementwiseNs[ph] = x(2 * kNumBits + 2);
    p.layerOverheadMs[ph] = x(2 * kNumBits + 3) * 1e-6;
    report.layerSamples[ph] = int(rows.time.size());
    report.layerError[ph] = meanRelativeError(rows, x);
    // Each shape predicted by the curves of the others.
    std::set<int64_t> shapes(rows.shape.begin(), rows.shape.end());
    double heldOut = 0;
    size_t heldOutRows = 0;
    for (int64_t shape : shapes) {
      if (shapes.size() < 2)
        break;
      auto isShape = [&](size_t i) { return rows.shape[i] == shape; };
      FitRows train = rows.subset([&](size_t i) { return !isShape(i); });
      if (Error e = checkDetermined(train, ph)) {
        consumeError(std::move(e));
        continue;
      }
      size_t tested = size_t(llvm::count(rows.shape, shape));
      heldOut += meanRelativeError(rows, fitLayers(train, ph), isShape) *
                 double(tested);
      heldOutRows += tested;
    }
    report.heldOutShapeError[ph] =
        heldOutRows ? heldOut / double(heldOutRows) : report.layerError[ph];
    // The stage's fixed cost per pass: the pass without layers.
    double empty = 0;
    int passes = 0;
    for (const KernelSample &s : in.samples)
      if (s.part == "layers" && cost::phaseIndex(s.phase) == ph) {
        empty += s.emptyMs;
        ++passes;
      }
    p.stageOverheadMs[ph] = passes ? empty / passes : 0;
  }

  // LM head with sampling, and the embedding lookup.
  FitRows head, embed;
  for (const KernelSample &s : in.samples) {
    double vd = double(s.model.vocab) * double(s.model.hidden);
    if (s.part == "head" && s.ms > 0)
      head.add({vd, vd * double(s.seqs)}, s.ms * 1e6);
    else if (s.part == "embed" && s.ms > 0)
      embed.add({double(s.seqs) * double(s.model.hidden)}, s.ms * 1e6);
  }
  if (head.time.size() < 2)
    return createStringError(inconvertibleErrorCode(),
                             "kernel samples: need at least two LM head "
                             "samples");
  Eigen::VectorXd headFit = fitRelative(head);
  c.headWeightNs = headFit(0);
  c.headRowWeightNs = headFit(1);
  report.headError = meanRelativeError(head, headFit);
  if (!embed.time.empty())
    c.embeddingNs = fitRelative(embed)(0);

  // Stage-to-stage hand-off: a latency and a per-byte cost (ms).
  FitRows transfer;
  for (const KernelSample &s : in.samples)
    if (s.part == "transfer" && s.ms > 0)
      transfer.add({1.0, double(s.bytes)}, s.ms);
  if (!transfer.time.empty()) {
    Eigen::VectorXd t = fitRelative(transfer);
    p.transferLatencyUs = t(0) * 1e3;
    // t(1) is ms per byte; the profile stores the staging rate in GB/s.
    p.stagingGBps = t(1) > 1e-15 ? 1e-6 / t(1) : 0;
    p.transferPath = "host memory (measured as an in-process hand-off)";
  }
  p.curves = std::move(c);
  // Samples within their bounds can still fit coefficients no profile may
  // hold (a millisecond per weight element): say so rather than write a
  // profile that does not read back.
  auto check = cost::profileFromJSON(json::Value(cost::profileToJSON(p)),
                                     "the fitted profile");
  if (!check)
    return createStringError(inconvertibleErrorCode(),
                             "kernel samples: implausible times (" +
                                 toString(check.takeError()) + ")");
  return report;
}

} // namespace weft::plan
