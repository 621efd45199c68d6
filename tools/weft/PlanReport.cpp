//===- PlanReport.cpp - HTML report of a plan -----------------------------===//
#include "PlanReport.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace llvm;
using namespace weft::plan;

namespace {

constexpr int kWidth = 760, kLane = 22, kLeft = 90;

const char *bitColor(int bits) {
  switch (bits) {
  case 16:
    return "#2b6cb0";
  case 8:
    return "#38a169";
  case 4:
    return "#d69e2e";
  default:
    return "#c53030";
  }
}

std::string escape(StringRef s) {
  std::string r;
  for (char c : s)
    r += c == '<'   ? "&lt;"
         : c == '>' ? "&gt;"
         : c == '&' ? "&amp;"
                    : std::string(1, c);
  return r;
}

/// Gantt chart of `k` micro-batches flowing through the stages once:
/// micro-batch m starts on stage j when it left stage j-1 and stage j
/// finished micro-batch m-1.
void timeline(raw_ostream &os, const Problem &p, const PlanResult &r,
              bool prefill) {
  const Plan &plan = r.plan;
  int64_t mb = prefill ? plan.prefillMicrobatch : plan.decodeMicrobatch;
  int64_t k = (p.workload.batch + mb - 1) / mb;
  size_t n = plan.stages.size();
  std::vector<std::vector<std::pair<double, double>>> slot(
      k, std::vector<std::pair<double, double>>(n));
  double end = 0;
  for (int64_t m = 0; m < k; ++m)
    for (size_t j = 0; j < n; ++j) {
      double t = prefill ? r.predicted.stages[j].prefillMs
                         : r.predicted.stages[j].decodeMs;
      double start = std::max(j ? slot[m][j - 1].second : 0.0,
                              m ? slot[m - 1][j].second : 0.0);
      slot[m][j] = {start, start + t};
      end = std::max(end, start + t);
    }
  double scale = (kWidth - kLeft - 10) / std::max(end, 1e-9);
  os << formatv("<h3>{0} pipeline ({1} micro-batches of {2}; one {3}, "
                "{4:F2} ms)</h3>\n",
                prefill ? "Prefill" : "Decode", k, mb,
                prefill ? "prompt pass" : "token step", end);
  os << formatv("<svg width='{0}' height='{1}'>\n", kWidth, n * kLane + 10);
  for (size_t j = 0; j < n; ++j) {
    const auto &d = p.cluster.devices[plan.stages[j].device];
    os << formatv("<text x='2' y='{0}' font-size='11'>{1} {2}</text>\n",
                  j * kLane + 15, escape(d.id), escape(d.spec.name));
    for (int64_t m = 0; m < k; ++m) {
      auto [s, e] = slot[m][j];
      os << formatv("<rect x='{0:F1}' y='{1}' width='{2:F1}' height='{3}' "
                    "fill='hsl({4},60%,55%)' stroke='white'><title>micro-"
                    "batch {5}: {6:F2}-{7:F2} ms</title></rect>\n",
                    kLeft + s * scale, j * kLane + 2,
                    std::max(1.0, (e - s) * scale), kLane - 4, (m * 47) % 360,
                    m, s, e);
    }
  }
  os << "</svg>\n";
}

void memoryBars(raw_ostream &os, const Problem &p, const PlanResult &r) {
  os << "<h3>Memory per device (bar: used, frame: usable capacity)</h3>\n";
  size_t n = r.plan.stages.size();
  double most = 1;
  for (const StagePrediction &s : r.predicted.stages)
    most = std::max({most, double(s.capacityBytes), double(s.memoryBytes)});
  double scale = (kWidth - kLeft - 120) / most;
  os << formatv("<svg width='{0}' height='{1}'>\n", kWidth, n * kLane + 10);
  for (size_t j = 0; j < n; ++j) {
    const StagePrediction &s = r.predicted.stages[j];
    const auto &d = p.cluster.devices[r.plan.stages[j].device];
    bool over = s.memoryBytes > s.capacityBytes;
    os << formatv("<text x='2' y='{0}' font-size='11'>{1}</text>"
                  "<rect x='{2}' y='{3}' width='{4:F1}' height='{5}' "
                  "fill='none' stroke='#444'/>"
                  "<rect x='{2}' y='{3}' width='{6:F1}' height='{5}' "
                  "fill='{7}'/>"
                  "<text x='{8:F1}' y='{0}' font-size='11'>{9:F1} / {10:F1} "
                  "GB</text>\n",
                  j * kLane + 15, escape(d.id), kLeft, j * kLane + 2,
                  s.capacityBytes * scale, kLane - 4, s.memoryBytes * scale,
                  over ? "#c53030" : "#4299e1", kLeft + most * scale + 6,
                  s.memoryBytes / 1e9, s.capacityBytes / 1e9);
  }
  os << "</svg>\n";
}

void bitStrip(raw_ostream &os, const Problem &p, const PlanResult &r) {
  int64_t L = p.model.layers;
  double w = double(kWidth - 20) / std::max<int64_t>(L, 1);
  os << "<h3>Bits per layer (16 blue, 8 green, 4 amber, 3 red; ticks: stage "
        "boundaries)</h3>\n";
  os << formatv("<svg width='{0}' height='46'>\n", kWidth);
  for (const Stage &s : r.plan.stages) {
    for (int64_t l = s.first; l < s.end; ++l)
      os << formatv("<rect x='{0:F1}' y='4' width='{1:F1}' height='24' "
                    "fill='{2}'><title>layer {3}: {4} bits</title></rect>\n",
                    10 + l * w, std::max(w - 0.5, 0.5),
                    bitColor(s.bits[l - s.first]), l, s.bits[l - s.first]);
    os << formatv("<line x1='{0:F1}' x2='{0:F1}' y1='0' y2='34' "
                  "stroke='black'/>\n",
                  10 + s.first * w);
  }
  os << "</svg>\n";
}

void throughputBars(raw_ostream &os, const PlanResult &r,
                    const PlanResult *uniform, const PlanResult *pipeedge) {
  std::vector<std::pair<std::string, const PlanResult *>> rows = {
      {"weft plan", &r}, {"uniform", uniform}, {"pipeedge-like", pipeedge}};
  double most = r.predicted.throughput;
  for (auto &[name, x] : rows)
    if (x)
      most = std::max(most, x->predicted.throughput);
  double scale = (kWidth - kLeft - 200) / std::max(most, 1e-9);
  os << "<h3>Predicted throughput (generated tokens/s) and quality loss</h3>\n";
  os << formatv("<svg width='{0}' height='{1}'>\n", kWidth,
                rows.size() * kLane + 10);
  for (auto [i, row] : enumerate(rows)) {
    os << formatv("<text x='2' y='{0}' font-size='11'>{1}</text>\n",
                  i * kLane + 15, row.first);
    if (!row.second) {
      os << formatv("<text x='{0}' y='{1}' font-size='11'>infeasible</text>\n",
                    kLeft, i * kLane + 15);
      continue;
    }
    const Prediction &pr = row.second->predicted;
    os << formatv("<rect x='{0}' y='{1}' width='{2:F1}' height='{3}' "
                  "fill='{4}'/><text x='{5:F1}' y='{6}' font-size='11'>{7:F1} "
                  "tok/s, loss {8:E2}</text>\n",
                  kLeft, i * kLane + 2, pr.throughput * scale, kLane - 4,
                  i == 0 ? "#2f855a" : "#a0aec0",
                  kLeft + pr.throughput * scale + 6, i * kLane + 15,
                  pr.throughput, pr.qualityLoss);
  }
  os << "</svg>\n";
}

} // namespace

std::string weft::renderPlanReport(const Problem &p, const PlanResult &r,
                                   const PlanResult *uniform,
                                   const PlanResult *pipeedge) {
  std::string html;
  raw_string_ostream os(html);
  os << "<!DOCTYPE html>\n<html><head><meta charset='utf-8'><title>weft "
        "plan: "
     << escape(p.model.name)
     << "</title></head>\n<body style='font-family:sans-serif'>\n";
  os << formatv("<h2>weft plan: {0} on {1} devices</h2>\n<p>batch {2}, "
                "prompt {3}, generate {4}; predicted {5:F1} tokens/s "
                "(prefill {6:F2} s, decode {7:F2} s), quality loss {8:E2}, "
                "planned in {9:F3} s.</p>\n",
                escape(p.model.name), p.cluster.devices.size(),
                p.workload.batch, p.workload.promptLen, p.workload.genLen,
                r.predicted.throughput, r.predicted.prefillS,
                r.predicted.decodeS, r.predicted.qualityLoss, r.seconds);
  const cost::RuntimeProfile &rt = runtimeProfile(p);
  os << "<p>Runtime profile: " << escape(rt.name)
     << (rt.estimated ? " (estimated, not measured)"
                      : " (measured: " + escape(rt.provenance.measured) + ")")
     << ".</p>\n";
  throughputBars(os, r, uniform, pipeedge);
  timeline(os, p, r, /*prefill=*/true);
  timeline(os, p, r, /*prefill=*/false);
  memoryBars(os, p, r);
  bitStrip(os, p, r);
  os << "</body></html>\n";
  return html;
}
