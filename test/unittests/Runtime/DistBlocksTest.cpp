//===- DistBlocksTest.cpp - The blocks of distributed loops ---------------===//
//
// runtime/mpi/weft_rt_blocks.h: every rank's block of [lb, ub), plain and
// weighted by linearly varying work (dist.local_bounds ... weighted).
//
//===----------------------------------------------------------------------===//
#include "runtime/mpi/weft_rt_blocks.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

namespace {

using Blocks = std::vector<std::pair<int64_t, int64_t>>;

Blocks weighted(int64_t lb, int64_t ub, int64_t np, int64_t w0, int64_t w1) {
  Blocks blocks;
  for (int64_t p = 0; p < np; ++p)
    blocks.emplace_back(weft_rt_weighted_block_lo(lb, ub, p, np, w0, w1),
                        weft_rt_weighted_block_hi(lb, ub, p, np, w0, w1));
  return blocks;
}

Blocks plain(int64_t lb, int64_t ub, int64_t np) {
  Blocks blocks;
  for (int64_t p = 0; p < np; ++p)
    blocks.emplace_back(weft_rt_block_lo(lb, ub, p, np),
                        weft_rt_block_hi(lb, ub, p, np));
  return blocks;
}

/// The blocks tile [lb, max(lb, ub)) in rank order.
void expectTiling(const Blocks &blocks, int64_t lb, int64_t ub) {
  ASSERT_FALSE(blocks.empty());
  EXPECT_EQ(blocks.front().first, lb);
  EXPECT_EQ(blocks.back().second, std::max(lb, ub));
  for (size_t p = 0; p < blocks.size(); ++p) {
    EXPECT_LE(blocks[p].first, blocks[p].second) << "rank " << p;
    if (p + 1 < blocks.size()) {
      EXPECT_EQ(blocks[p].second, blocks[p + 1].first) << "rank " << p;
    }
  }
}

TEST(DistBlocks, PlainBlocksDifferByAtMostOne) {
  for (int64_t n : {0, 1, 5, 17, 1000})
    for (int64_t np : {1, 2, 3, 7, 64}) {
      Blocks blocks = plain(3, 3 + n, np);
      expectTiling(blocks, 3, 3 + n);
      auto [small, large] = std::minmax_element(
          blocks.begin(), blocks.end(), [](auto a, auto b) {
            return a.second - a.first < b.second - b.first;
          });
      EXPECT_LE((large->second - large->first) - (small->second - small->first),
                1);
    }
}

/// Each block's work is within one iteration's work of an equal share.
TEST(DistBlocks, WeightedBlocksShareTheWork) {
  struct Case {
    int64_t lb, ub, w0, w1;
  };
  for (Case c : {Case{0, 1000, 1, 1000}, Case{0, 1000, 1000, 0},
                 Case{5, 333, 7, 3000}, Case{-10, 90, 0, 50},
                 Case{0, 4096, 4097, 4096 * 4097}})
    for (int64_t np : {2, 3, 4, 7, 16}) {
      Blocks blocks = weighted(c.lb, c.ub, np, c.w0, c.w1);
      expectTiling(blocks, c.lb, c.ub);
      int64_t n = c.ub - c.lb;
      auto cost = [&](int64_t i) {
        return double(c.w0) +
               double(c.w1 - c.w0) * double(i - c.lb) / double(n - 1);
      };
      double total = 0, heaviest = 0;
      for (int64_t i = c.lb; i < c.ub; ++i) {
        total += cost(i);
        heaviest = std::max(heaviest, cost(i));
      }
      for (auto [lo, hi] : blocks) {
        double work = 0;
        for (int64_t i = lo; i < hi; ++i)
          work += cost(i);
        EXPECT_LE(work, total / double(np) + heaviest + 1e-6)
            << "[" << lo << ", " << hi << ") of " << np;
        EXPECT_GE(work, total / double(np) - heaviest - 1e-6)
            << "[" << lo << ", " << hi << ") of " << np;
      }
    }
}

/// Row i of a triangle costs i + 1: two ranks split at n / sqrt(2), not at
/// n / 2 (where the second rank would get three quarters of the work).
TEST(DistBlocks, TriangleSplitsAtEqualArea) {
  Blocks blocks = weighted(0, 1000, 2, 1, 1000);
  EXPECT_NEAR(double(blocks[0].second), 707.1, 2.0);
  // Decreasing work (rows of an upper triangle): the mirror image.
  Blocks mirrored = weighted(0, 1000, 2, 1000, 1);
  EXPECT_NEAR(double(mirrored[0].second), 292.9, 2.0);
}

/// Equal, negative or meaningless weights give the plain blocks.
TEST(DistBlocks, UniformWeightsArePlainBlocks) {
  for (int64_t np : {1, 2, 5, 13}) {
    EXPECT_EQ(weighted(2, 102, np, 8, 8), plain(2, 102, np));
    EXPECT_EQ(weighted(2, 102, np, -1, 8), plain(2, 102, np));
    EXPECT_EQ(weighted(2, 102, np, 8, -3), plain(2, 102, np));
    EXPECT_EQ(weighted(2, 3, np, 1, 9), plain(2, 3, np));
    EXPECT_EQ(weighted(9, 2, np, 1, 9), plain(9, 2, np));
  }
}

/// More ranks than iterations: the later ranks own nothing.
TEST(DistBlocks, MoreRanksThanIterations) {
  Blocks blocks = weighted(0, 3, 8, 1, 3);
  expectTiling(blocks, 0, 3);
  int64_t owners = std::count_if(blocks.begin(), blocks.end(),
                                 [](auto b) { return b.second > b.first; });
  EXPECT_EQ(owners, 3);
}

} // namespace
