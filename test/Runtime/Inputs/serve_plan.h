//===- serve_plan.h - The plans the serving-runtime test uses ---*- C++ -*-===//
//
// A 5-layer model (the random test model and stories260K both have 5) split
// over 1, 2 or 3 stages, each layer at its own width, as a plan would say.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_TEST_SERVE_PLAN_H
#define WEFT_TEST_SERVE_PLAN_H

constexpr int kPlanLayers = 5;
constexpr int kPlanBits[kPlanLayers] = {16, 8, 4, 8, 16};
constexpr int kPlanHeadBits = 16;
/// kPlanSplit[stages - 1][k] .. [k + 1]: stage k's layers.
constexpr int kPlanSplit[3][4] = {{0, 5}, {0, 3, 5}, {0, 2, 4, 5}};

#endif
