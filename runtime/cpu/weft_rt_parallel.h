//===- weft_rt_parallel.h - Threaded loops for the CPU kernels --*- C++ -*-===//
//
// One place decides how kernels use threads: a small persistent pool of
// std::threads whose idle workers sleep (never spin), because serving
// programs run several MPI ranks per machine and spinning threads of one
// rank would steal the cores of the others. Small loops stay on the calling
// thread: waking workers costs more than a GEMV over a few thousand weights.
//
// Thread count: $WEFT_NUM_THREADS, else the hardware concurrency.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_RT_PARALLEL_H
#define WEFT_RT_PARALLEL_H

#include <cstdint>

namespace weft::rt {

/// Work (roughly multiply-adds) below which loops run on the calling thread.
constexpr int64_t kParallelWorkThreshold = 1 << 16;

/// Number of threads parallelFor may use (the caller included).
int maxThreads();
/// Overrides the thread count (>= 1) for later calls; for tests and benches.
void setMaxThreads(int threads);

namespace detail {
using RangeFn = void (*)(void *context, int64_t begin, int64_t end);
/// Splits [0, count) into one chunk per thread and runs fn on each; returns
/// when all chunks are done. Runs serially when called from a worker or
/// while another thread is using the pool.
void runParallel(int64_t count, RangeFn fn, void *context);
} // namespace detail

/// Calls body(begin, end) on disjoint chunks covering [0, count); chunks run
/// on several threads when `work` (total cost estimate) is large enough.
template <typename Body>
void parallelFor(int64_t count, int64_t work, const Body &body) {
  if (count <= 0)
    return;
  if (work < kParallelWorkThreshold || count == 1 || maxThreads() == 1) {
    body(int64_t(0), count);
    return;
  }
  detail::runParallel(
      count,
      [](void *context, int64_t begin, int64_t end) {
        (*static_cast<const Body *>(context))(begin, end);
      },
      const_cast<Body *>(&body));
}

} // namespace weft::rt

#endif
