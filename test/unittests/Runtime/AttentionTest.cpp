//===- AttentionTest.cpp - KV-cache attention with GQA --------------------===//
#include "RuntimeTestUtil.h"
#include "weft_rt_attention.h"

#include <gtest/gtest.h>

using namespace weft::rt;
using namespace weft::rt::test;

namespace {
/// Full causal attention over all `total` positions at once, no cache:
/// query row p sees keys 0..p.
std::vector<float> fullAttention(const std::vector<float> &q,
                                 const std::vector<float> &k,
                                 const std::vector<float> &v, int total,
                                 int heads, int kvHeads, int hs) {
  int dim = heads * hs, kvDim = kvHeads * hs;
  std::vector<float> out(size_t(total) * dim, 0.0f);
  for (int p = 0; p < total; ++p)
    for (int h = 0; h < heads; ++h) {
      int kvh = h * kvHeads / heads;
      std::vector<double> s(p + 1);
      double maxS = -1e300, sum = 0;
      for (int j = 0; j <= p; ++j) {
        double d = 0;
        for (int i = 0; i < hs; ++i)
          d += double(q[size_t(p) * dim + h * hs + i]) *
               k[size_t(j) * kvDim + kvh * hs + i];
        s[j] = d / std::sqrt(double(hs));
        maxS = std::fmax(maxS, s[j]);
      }
      for (double &x : s)
        sum += (x = std::exp(x - maxS));
      for (int j = 0; j <= p; ++j)
        for (int i = 0; i < hs; ++i)
          out[size_t(p) * dim + h * hs + i] +=
              float(s[j] / sum * v[size_t(j) * kvDim + kvh * hs + i]);
    }
  return out;
}
} // namespace

// Prefill a prompt in one call, then decode the rest in chunks of 1 and 3
// rows: every chunk must equal the matching rows of full recomputation.
TEST(Attention, KvCacheChunksMatchFullRecomputation) {
  struct Shape {
    int heads, kvHeads, headSize;
  };
  for (Shape sh :
       {Shape{8, 4, 8}, Shape{6, 1, 7}, Shape{3, 3, 5}, Shape{4, 2, 33}}) {
    int total = 13, dim = sh.heads * sh.headSize,
        kvDim = sh.kvHeads * sh.headSize;
    auto q = randomVector(size_t(total) * dim, 21);
    auto k = randomVector(size_t(total) * kvDim, 22);
    auto v = randomVector(size_t(total) * kvDim, 23);
    auto ref = fullAttention(q, k, v, total, sh.heads, sh.kvHeads, sh.headSize);
    std::vector<float> keys(size_t(total) * kvDim), values(keys.size());
    std::vector<float> out(size_t(total) * dim);
    int pos = 0;
    for (int chunk : {5, 1, 3, 1, 3}) {
      kvCacheAppend(keys.data(), values.data(), &k[size_t(pos) * kvDim],
                    &v[size_t(pos) * kvDim], pos, chunk, kvDim);
      ASSERT_TRUE(attention(&q[size_t(pos) * dim], keys.data(), values.data(),
                            &out[size_t(pos) * dim], chunk, pos, sh.heads,
                            sh.kvHeads, sh.headSize));
      pos += chunk;
    }
    ASSERT_EQ(pos, total);
    EXPECT_LT(maxRelError(out, ref), 1e-5)
        << sh.heads << "/" << sh.kvHeads << "/" << sh.headSize;
  }
}

TEST(Attention, RejectsHeadsNotMultipleOfKvHeads) {
  std::vector<float> buf(64);
  EXPECT_FALSE(
      attention(buf.data(), buf.data(), buf.data(), buf.data(), 1, 0, 6, 4, 2));
  EXPECT_FALSE(
      attention(buf.data(), buf.data(), buf.data(), buf.data(), 0, 0, 4, 4, 2));
}
