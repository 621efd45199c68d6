//===- weft_rt_parallel.h - Threaded loops for the CPU kernels ---*- C++ -*-===//
//
// One place decides how kernels use threads: OpenMP when the runtime is built
// with it, a plain serial loop otherwise. Small loops stay serial because
// waking threads costs more than a GEMV over a few thousand weights.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_RT_PARALLEL_H
#define WEFT_RT_PARALLEL_H

#include <cstdint>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace weft::rt {

/// Work (roughly multiply-adds) below which loops run on the calling thread.
constexpr int64_t kParallelWorkThreshold = 1 << 16;

/// Calls body(begin, end) on disjoint chunks covering [0, count); chunks run
/// on several threads when `work` (total cost estimate) is large enough.
template <typename Body>
void parallelFor(int64_t count, int64_t work, const Body &body) {
#ifdef _OPENMP
  if (work >= kParallelWorkThreshold && count > 1) {
#pragma omp parallel
    {
      int threads = omp_get_num_threads();
      int id = omp_get_thread_num();
      int64_t chunk = (count + threads - 1) / threads;
      int64_t begin = id * chunk;
      int64_t end = begin + chunk < count ? begin + chunk : count;
      if (begin < end)
        body(begin, end);
    }
    return;
  }
#else
  (void)work;
#endif
  if (count > 0)
    body(int64_t(0), count);
}

/// Number of threads parallelFor may use (1 without OpenMP).
int maxThreads();

} // namespace weft::rt

#endif
