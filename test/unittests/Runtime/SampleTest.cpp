//===- SampleTest.cpp - Greedy and temperature sampling -------------------===//
#include "weft_rt_sample.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

using namespace weft::rt;

TEST(Sample, ArgmaxTakesFirstMaximum) {
  std::vector<float> logits = {0.5f, 3.0f, -1.0f, 3.0f};
  EXPECT_EQ(argmax(logits.data(), 4), 1);
  EXPECT_EQ(argmax(logits.data(), 1), 0);
}

TEST(Sample, ZeroTemperatureIsGreedy) {
  std::vector<float> logits = {0.5f, 3.0f, -1.0f}, scratch(3);
  Rng rng(7);
  EXPECT_EQ(sampleTemperature(logits.data(), 3, 0.0f, rng, scratch.data()), 1);
}

TEST(Sample, SeededAndFollowsTheDistribution) {
  std::vector<float> logits = {0.0f, std::log(3.0f), -INFINITY}, scratch(3);
  Rng a(123), b(123);
  int counts[3] = {};
  for (int i = 0; i < 20000; ++i) {
    int ta = sampleTemperature(logits.data(), 3, 1.0f, a, scratch.data());
    ASSERT_EQ(ta, sampleTemperature(logits.data(), 3, 1.0f, b, scratch.data()));
    ++counts[ta];
  }
  EXPECT_EQ(counts[2], 0);
  EXPECT_NEAR(counts[1] / 20000.0, 0.75, 0.02);
  Rng c(124);
  std::vector<int> first, second;
  Rng d(123);
  for (int i = 0; i < 32; ++i) {
    first.push_back(int(c.next() % 1000));
    second.push_back(int(d.next() % 1000));
  }
  EXPECT_NE(first, second); // different seeds, different streams
}
