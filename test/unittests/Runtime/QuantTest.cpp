//===- QuantTest.cpp - Group-wise quantization format and error -----------===//
#include "RuntimeTestUtil.h"
#include "weft_rt_half.h"
#include "weft_rt_quant.h"

#include <gtest/gtest.h>

using namespace weft::rt;
using namespace weft::rt::test;

namespace {
std::vector<float> roundTrip(const std::vector<float> &w, int rows, int cols,
                             int bits, int group) {
  QuantMatrix q;
  std::string error;
  EXPECT_TRUE(quantizeRTN(w.data(), rows, cols, bits, group, q, &error))
      << error;
  std::vector<float> back(w.size());
  dequantizeRows(q.view(), 0, rows, back.data());
  return back;
}

double rmsError(const std::vector<float> &a, const std::vector<float> &b) {
  double s = 0;
  for (size_t i = 0; i < a.size(); ++i)
    s += (double(a[i]) - b[i]) * (double(a[i]) - b[i]);
  return std::sqrt(s / a.size());
}
} // namespace

TEST(Quant, PackedSizes) {
  EXPECT_EQ(quantRowBytes(8, 3), 3);
  EXPECT_EQ(quantRowBytes(9, 3), 6); // padded to 16 codes
  EXPECT_EQ(quantRowBytes(33, 4), 20);
  EXPECT_EQ(quantRowBytes(1, 8), 8);
  EXPECT_EQ(quantGroupsPerRow(172, 32), 6);
  QuantMatrix q;
  auto w = randomVector(5 * 33, 30);
  ASSERT_TRUE(quantizeRTN(w.data(), 5, 33, 4, 16, q, nullptr));
  EXPECT_EQ(q.codes.size(), 5u * 20);
  EXPECT_EQ(q.scales.size(), 5u * 3);
  EXPECT_EQ(q.zeros.size(), 5u * 3);
}

// The bit layout is part of the documented format (docs/quantization.md).
TEST(Quant, GroupCountsOfHugeGroupsDoNotOverflow) {
  EXPECT_EQ(quantGroupsPerRow(64, 2147483640), 1);
  EXPECT_EQ(quantGroupsPerRow(2147483647, 8), 268435456);
  EXPECT_EQ(quantGroupsPerRow(130, 64), 3);
}

TEST(Quant, BitStreamLayout) {
  uint8_t row[3] = {};
  for (int i = 0; i < 8; ++i)
    setCode(row, i, 3, unsigned(i));
  // codes 0..7 at bits 3i: 0b111'110'101'100'011'010'001'000
  uint32_t v = row[0] | row[1] << 8 | row[2] << 16;
  EXPECT_EQ(v, 0xfac688u);
  for (int i = 0; i < 8; ++i)
    EXPECT_EQ(getCode(row, i, 3), unsigned(i));
  uint8_t nibbles[1] = {};
  setCode(nibbles, 0, 4, 0x3);
  setCode(nibbles, 1, 4, 0xa);
  EXPECT_EQ(nibbles[0], 0xa3); // even index in the low nibble
}

TEST(Quant, ZeroIsExactAndGroupParamsCoverTheRange) {
  float w[] = {-1.0f, 0.0f, 0.5f, 2.0f};
  GroupParams p = minMaxGroupParams(w, 4, 4);
  EXPECT_NEAR(p.scale, 3.0f / 15, 1e-3);
  EXPECT_EQ(p.zero, 5);
  EXPECT_EQ(quantizeValue(0.0f, p, 4), 5u);
  EXPECT_EQ(quantizeValue(-1.0f, p, 4), 0u);
  EXPECT_EQ(quantizeValue(2.0f, p, 4), 15u);
  EXPECT_EQ(quantizeValue(100.0f, p, 4), 15u); // clamped
  float positive[] = {1.0f, 2.0f};             // range extended down to 0
  EXPECT_EQ(minMaxGroupParams(positive, 2, 8).zero, 0);
  float zeros[] = {0.0f, 0.0f};
  GroupParams z = minMaxGroupParams(zeros, 2, 3);
  EXPECT_GT(z.scale, 0.0f);
  EXPECT_EQ(quantizeValue(0.0f, z, 3) - unsigned(z.zero), 0u);
}

// Error bound: |w - dequant(w)| <= scale / 2 (+ fp16 rounding of the scale)
// element-wise, and RMS error shrinks with every extra bit.
TEST(Quant, RoundTripErrorBoundsPerBitWidth) {
  for (int cols : {1, 7, 33, 65, 172}) {
    int rows = 5, group = 32;
    auto w = randomVector(size_t(rows) * cols, 31);
    double previous = INFINITY;
    for (int bits : {3, 4, 8}) {
      auto back = roundTrip(w, rows, cols, bits, group);
      for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) {
          int begin = c / group * group, end = std::min(begin + group, cols);
          float lo = 0, hi = 0;
          for (int i = begin; i < end; ++i) {
            lo = std::min(lo, w[r * cols + i]);
            hi = std::max(hi, w[r * cols + i]);
          }
          double step = (hi - lo) / ((1 << bits) - 1);
          EXPECT_LE(std::fabs(back[r * cols + c] - w[r * cols + c]),
                    0.5 * step * 1.01 + 1e-6)
              << "bits " << bits << " cols " << cols;
        }
      double err = rmsError(w, back);
      std::printf("cols %3d  int%d  rms error %.5f\n", cols, bits, err);
      if (cols > 1) {
        EXPECT_LT(err, previous) << "bits " << bits << " cols " << cols;
      }
      previous = err;
    }
  }
}

TEST(Quant, EveryBitWidthRoundTripsItsOwnGrid) {
  // Values already on a grid with 0 are reproduced exactly at any width.
  for (int bits = kMinQuantBits; bits <= kMaxQuantBits; ++bits) {
    int qmax = (1 << bits) - 1, cols = 19;
    std::vector<float> w(cols);
    for (int i = 0; i < cols; ++i)
      w[i] = 0.25f * float(i % (qmax + 1) - qmax / 2);
    w[0] = -0.25f * float(qmax / 2);
    w[1] = 0.25f * float(qmax - qmax / 2);
    auto back = roundTrip(w, 1, cols, bits, 24); // one group
    for (int i = 0; i < cols; ++i)
      EXPECT_NEAR(back[i], w[i], 1e-6) << "bits " << bits << " i " << i;
  }
}

TEST(Quant, RejectsBadParameters) {
  std::vector<float> w(16, 1.0f);
  QuantMatrix q;
  std::string error;
  EXPECT_FALSE(quantizeRTN(w.data(), 2, 8, 1, 8, q, &error));
  EXPECT_NE(error.find("bit width 1"), std::string::npos) << error;
  EXPECT_FALSE(quantizeRTN(w.data(), 2, 8, 4, 12, q, &error));
  EXPECT_NE(error.find("group size 12"), std::string::npos) << error;
  EXPECT_FALSE(quantizeRTN(w.data(), 0, 8, 4, 8, q, &error));
  w[3] = INFINITY;
  EXPECT_FALSE(quantizeRTN(w.data(), 2, 8, 4, 8, q, &error));
  EXPECT_NE(error.find("not finite"), std::string::npos) << error;
}
