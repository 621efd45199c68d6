//===- ParallelTest.cpp - The runtime's thread pool -----------------------===//
#include "weft_rt_parallel.h"

#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <thread>
#include <vector>

using namespace weft::rt;

namespace {
/// Restores the thread count a test changed.
struct ThreadCountGuard {
  int saved = maxThreads();
  ~ThreadCountGuard() { setMaxThreads(saved); }
};

/// Runs parallelFor over `count` items and checks each is visited once.
void expectEachIndexOnce(int64_t count) {
  std::vector<std::atomic<int>> visits(count);
  parallelFor(count, kParallelWorkThreshold, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i)
      visits[i]++;
  });
  for (int64_t i = 0; i < count; ++i)
    ASSERT_EQ(visits[i].load(), 1) << "index " << i << " of " << count;
}
} // namespace

TEST(Parallel, EveryIndexExactlyOnceForAnyThreadCount) {
  ThreadCountGuard guard;
  for (int threads : {1, 2, 3, 4, 7})
    for (int64_t count : {1, 2, 3, 5, 64, 1001}) {
      setMaxThreads(threads);
      expectEachIndexOnce(count);
    }
}

TEST(Parallel, UsesSeveralThreadsForLargeWork) {
  ThreadCountGuard guard;
  setMaxThreads(3);
  std::mutex m;
  std::vector<std::thread::id> ids;
  parallelFor(3, kParallelWorkThreshold, [&](int64_t, int64_t) {
    std::lock_guard<std::mutex> lock(m);
    ids.push_back(std::this_thread::get_id());
  });
  ASSERT_EQ(ids.size(), 3u);
  EXPECT_NE(ids[0], ids[1]);
  EXPECT_NE(ids[1], ids[2]);
  // Small work stays on the caller in one chunk.
  int calls = 0;
  parallelFor(100, 10, [&](int64_t b, int64_t e) {
    ++calls;
    EXPECT_EQ(b, 0);
    EXPECT_EQ(e, 100);
  });
  EXPECT_EQ(calls, 1);
}

TEST(Parallel, NestedAndConcurrentCallsComplete) {
  ThreadCountGuard guard;
  setMaxThreads(2);
  std::atomic<int64_t> total{0};
  parallelFor(4, kParallelWorkThreshold, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i)
      parallelFor(10, kParallelWorkThreshold,
                  [&](int64_t ib, int64_t ie) { total += ie - ib; });
  });
  EXPECT_EQ(total.load(), 40);
  std::vector<std::thread> callers;
  std::atomic<int64_t> sum{0};
  for (int c = 0; c < 3; ++c)
    callers.emplace_back([&] {
      for (int rep = 0; rep < 50; ++rep)
        parallelFor(100, kParallelWorkThreshold,
                    [&](int64_t b, int64_t e) { sum += e - b; });
    });
  for (std::thread &t : callers)
    t.join();
  EXPECT_EQ(sum.load(), 3 * 50 * 100);
}
