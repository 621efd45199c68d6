//===- weft_cuda_timing.h - Device time of the kernels, on request --------===//
//
// With WEFT_CUDA_TIMING set (and not "0") in the environment, a program of
// `weft compile --target=cuda` (or mpi-cuda) prints at exit, on stderr, the
// device time of its kernels, per kernel in the order of their first launch
// and in all:
//
//   weft: cuda kernel NAME: N launches, T ms
//   weft: cuda kernels: N launches, T ms
//
// A pair of CUDA events brackets each launch, read at exit (or every
// kWeftCudaTimingBatch launches, so that memory stays bounded). The
// emulation has no events and runs each launch to completion: it times the
// launch on the host's clock. The switch also creates the CUDA context when
// the program starts, so that a timer around a region (PolyBench's) does
// not count it. Without the variable nothing is recorded.
//
// Included by weft_cuda.h, whose WEFT_CUDA_LAUNCH calls
// weft_cuda_timing_begin and weft_cuda_timing_end.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_CUDA_TIMING_H
#define WEFT_CUDA_TIMING_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <chrono>
#include <string>
#include <utility>
#include <vector>

/// Launches and milliseconds of each kernel, in the order of first launch.
struct WeftCudaTiming {
  bool on = false;
  std::vector<std::pair<std::string, std::pair<long, double>>> kernels;
#ifdef WEFT_CUDA_EMULATE
  std::chrono::steady_clock::time_point start;
#else
  struct Pending {
    const char *name;
    cudaEvent_t start, stop;
  };
  std::vector<Pending> pending;
  cudaEvent_t start = nullptr;
#endif

  void add(const char *name, double ms) {
    for (auto &kernel : kernels)
      if (kernel.first == name) {
        ++kernel.second.first;
        kernel.second.second += ms;
        return;
      }
    kernels.push_back({name, {1, ms}});
  }
};

static WEFT_CUDA_UNUSED WeftCudaTiming &weft_cuda_timing() {
  static WeftCudaTiming timing;
  return timing;
}

enum { kWeftCudaTimingBatch = 4096 };

#ifndef WEFT_CUDA_EMULATE
/// Adds the elapsed time of every pending launch (waiting for the last);
/// returns the first error (the caller decides: exit() must not run again
/// inside the report at exit).
static WEFT_CUDA_UNUSED cudaError_t weft_cuda_timing_drain(void) {
  WeftCudaTiming &t = weft_cuda_timing();
  cudaError_t error = cudaSuccess;
  if (!t.pending.empty())
    error = cudaEventSynchronize(t.pending.back().stop);
  for (auto &p : t.pending) {
    float ms = 0;
    if (error == cudaSuccess)
      error = cudaEventElapsedTime(&ms, p.start, p.stop);
    if (error == cudaSuccess)
      t.add(p.name, ms);
    cudaEventDestroy(p.start);
    cudaEventDestroy(p.stop);
  }
  t.pending.clear();
  return error;
}
#endif

static WEFT_CUDA_UNUSED void weft_cuda_timing_begin(void) {
  WeftCudaTiming &t = weft_cuda_timing();
  if (!t.on)
    return;
#ifdef WEFT_CUDA_EMULATE
  t.start = std::chrono::steady_clock::now();
#else
  WEFT_CUDA_CHECK(cudaEventCreate(&t.start));
  WEFT_CUDA_CHECK(cudaEventRecord(t.start));
#endif
}

static WEFT_CUDA_UNUSED void weft_cuda_timing_end(const char *name) {
  WeftCudaTiming &t = weft_cuda_timing();
  if (!t.on)
    return;
#ifdef WEFT_CUDA_EMULATE
  std::chrono::duration<double, std::milli> ms =
      std::chrono::steady_clock::now() - t.start;
  t.add(name, ms.count());
#else
  cudaEvent_t stop;
  WEFT_CUDA_CHECK(cudaEventCreate(&stop));
  WEFT_CUDA_CHECK(cudaEventRecord(stop));
  t.pending.push_back({name, t.start, stop});
  if (t.pending.size() >= kWeftCudaTimingBatch)
    WEFT_CUDA_CHECK(weft_cuda_timing_drain());
#endif
}

static void weft_cuda_timing_print(void) {
  WeftCudaTiming &t = weft_cuda_timing();
#ifndef WEFT_CUDA_EMULATE
  cudaError_t error = weft_cuda_timing_drain();
  if (error != cudaSuccess) {
    fprintf(stderr, "weft: cuda kernel times unavailable: %s\n",
            cudaGetErrorString(error));
    return;
  }
#endif
  long launches = 0;
  double ms = 0;
  for (auto &kernel : t.kernels) {
    fprintf(stderr, "weft: cuda kernel %s: %ld launch%s, %.6g ms\n",
            kernel.first.c_str(), kernel.second.first,
            kernel.second.first == 1 ? "" : "es", kernel.second.second);
    launches += kernel.second.first;
    ms += kernel.second.second;
  }
  fprintf(stderr, "weft: cuda kernels: %ld launch%s, %.6g ms\n", launches,
          launches == 1 ? "" : "es", ms);
}

/// Reads the switch when the program starts; with it, creates the context
/// (on this process's device) before registering the report, so that the
/// report runs before the CUDA runtime's own teardown at exit.
static WEFT_CUDA_UNUSED const bool weft_cuda_timing_started = [] {
  const char *value = getenv("WEFT_CUDA_TIMING");
  if (!value || !*value || !strcmp(value, "0"))
    return false;
#ifndef WEFT_CUDA_EMULATE
  weft_cuda_select_device();
  WEFT_CUDA_CHECK(cudaFree(0));
#endif
  weft_cuda_timing().on = true;
  atexit(weft_cuda_timing_print);
  return true;
}();

#endif // WEFT_CUDA_TIMING_H
