//===- HalfTest.cpp - fp16 conversion -------------------------------------===//
#include "weft_rt_half.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace weft::rt;

TEST(Half, KnownEncodings) {
  EXPECT_EQ(floatToHalf(0.0f), 0x0000);
  EXPECT_EQ(floatToHalf(-0.0f), 0x8000);
  EXPECT_EQ(floatToHalf(1.0f), 0x3c00);
  EXPECT_EQ(floatToHalf(-2.0f), 0xc000);
  EXPECT_EQ(floatToHalf(65504.0f), 0x7bff);
  EXPECT_EQ(floatToHalf(1e6f), 0x7c00);                  // overflow -> inf
  EXPECT_EQ(floatToHalf(5.960464477539063e-8f), 0x0001); // smallest subnormal
  EXPECT_EQ(floatToHalf(1.0f + 1.0f / 2048), 0x3c00);    // tie to even
  EXPECT_EQ(floatToHalf(1.0f + 3.0f / 2048), 0x3c02);    // tie to even (up)
  EXPECT_EQ(floatToHalf(std::numeric_limits<float>::infinity()), 0x7c00);
  EXPECT_TRUE(std::isnan(halfToFloat(floatToHalf(std::nanf("")))));
}

TEST(Half, EveryHalfRoundTrips) {
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    uint16_t h = uint16_t(bits);
    float f = halfToFloat(h);
    if (std::isnan(f))
      continue;
    ASSERT_EQ(floatToHalf(f), h) << "half bits " << bits;
  }
}

TEST(Half, RelativeErrorWithinHalfUlp) {
  for (float f = -70000.0f; f < 70000.0f; f += 13.37f) {
    float back = halfToFloat(floatToHalf(f));
    if (std::fabs(f) > 65504.0f)
      continue;
    EXPECT_LE(std::fabs(back - f), std::fabs(f) * (1.0f / 2048) + 1e-7f) << f;
  }
}
