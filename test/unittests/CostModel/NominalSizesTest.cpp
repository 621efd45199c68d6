//===- NominalSizesTest.cpp - Sizes the cost estimates assume -------------===//
#include "weft/CostModel/NominalSizes.h"

#include "gtest/gtest.h"

using namespace weft::cost;

namespace {
/// The message of `error`, or "" where it is a success.
std::string message(llvm::Error error) {
  return error ? llvm::toString(std::move(error)) : "";
}
} // namespace

TEST(NominalSizes, NamedSizesTakeTheirValuesTheOthersTheFallback) {
  NominalSizes sizes;
  sizes.fallback = 2000;
  EXPECT_EQ(message(sizes.add({"ni=1000", "nj=1100", "_n2=7", "ni=1000"})),
            "");
  EXPECT_EQ(sizes.of("ni"), 1000);
  EXPECT_EQ(sizes.of("nj"), 1100);
  EXPECT_EQ(sizes.of("_n2"), 7);
  EXPECT_EQ(sizes.of("nk"), 2000);
  EXPECT_EQ(sizes.of(""), 2000);
}

TEST(NominalSizes, MalformedEntriesAreNamedInTheError) {
  NominalSizes sizes;
  EXPECT_EQ(message(sizes.add({"n"})),
            "'n' is not NAME=VALUE with NAME a scalar of the C source");
  EXPECT_EQ(message(sizes.add({"=5"})),
            "'=5' is not NAME=VALUE with NAME a scalar of the C source");
  EXPECT_EQ(message(sizes.add({"2n=5"})),
            "'2n=5' is not NAME=VALUE with NAME a scalar of the C source");
  EXPECT_EQ(message(sizes.add({"a-b=5"})),
            "'a-b=5' is not NAME=VALUE with NAME a scalar of the C source");
  for (const char *bad : {"n=", "n=0", "n=-3", "n=1e3", "n=12x",
                          "n=99999999999999999999"})
    EXPECT_EQ(message(sizes.add({bad})),
              "'" + std::string(bad) +
                  "': the value of n must be an integer of at least 1")
        << bad;
  EXPECT_EQ(message(sizes.add({"n=5", "n=6"})), "'n=6': n was given as 5 before");
}

TEST(NominalSizes, DescribeSaysWhereEachValueCameFrom) {
  NominalSizes sizes;
  EXPECT_EQ(sizes.describe({}), "");
  EXPECT_EQ(sizes.describe({"n", "m"}),
            "n, m, unknown at compile time, taken as 4096");
  ASSERT_FALSE(sizes.add({"m=1200", "k=30"}));
  EXPECT_EQ(sizes.describe({"n", "m"}),
            "n, unknown at compile time, taken as 4096; m=1200 from --size");
  EXPECT_EQ(sizes.describe({"k", "m"}), "k=30, m=1200 from --size");
}
