//===- PlanReport.h - HTML report of a plan ---------------------*- C++ -*-===//
#ifndef WEFT_TOOLS_PLANREPORT_H
#define WEFT_TOOLS_PLANREPORT_H

#include "weft/Planner/Planner.h"

#include <string>

namespace weft {
/// A self-contained HTML page with SVG pictures: pipeline timeline per
/// phase, memory per device against capacity, bits per layer, throughput
/// against the baselines (null when a baseline was infeasible).
std::string renderPlanReport(const plan::Problem &p,
                             const plan::PlanResult &plan,
                             const plan::PlanResult *uniform,
                             const plan::PlanResult *pipeedge);
} // namespace weft

#endif
