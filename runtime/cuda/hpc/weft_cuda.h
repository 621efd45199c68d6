//===- weft_cuda.h - Launches and device memory for generated CUDA --------===//
//
// What the CUDA C++ of `weft compile --target=cuda` calls around its
// kernels: a checked launch macro and checked device allocation and copies.
// Every CUDA error stops the program with the failing call, its location in
// the user's source (the generated file carries #line directives) and
// CUDA's message; nothing fails silently.
//
// The compiler embeds this header (and, under WEFT_CUDA_EMULATE, the
// test-only emulation weft_cuda_emulate.h) at the top of each output, so an
// output builds alone: `nvcc -O3 OUT.cu -o prog`.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_CUDA_H
#define WEFT_CUDA_H

#ifdef WEFT_CUDA_EMULATE
#include "weft_cuda_emulate.h"
#else
#include <cuda_runtime.h>
#endif

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <map>

#define WEFT_CUDA_UNUSED __attribute__((unused))

/// Stops the program when `error` is not cudaSuccess.
static WEFT_CUDA_UNUSED void weft_cuda_check(cudaError_t error,
                                             const char *what,
                                             const char *file, int line) {
  if (error == cudaSuccess)
    return;
  fprintf(stderr, "%s:%d: CUDA error in %s: %s (%s)\n", file, line, what,
          cudaGetErrorString(error), cudaGetErrorName(error));
  exit(1);
}
#define WEFT_CUDA_CHECK(call) weft_cuda_check((call), #call, __FILE__, __LINE__)

/// A grid extent from a trip count: at least 1 (callers skip empty
/// launches) and within CUDA's limit for the axis.
static WEFT_CUDA_UNUSED unsigned weft_cuda_extent(int64_t n, int64_t limit,
                                                  const char *kernel,
                                                  const char *file, int line) {
  if (n > limit) {
    fprintf(stderr,
            "%s:%d: kernel %s: %lld blocks along one axis, over CUDA's "
            "limit of %lld\n",
            file, line, kernel, (long long)n, (long long)limit);
    exit(1);
  }
  return (unsigned)n;
}

#ifdef WEFT_CUDA_EMULATE
#define WEFT_CUDA_KERNEL_CALL(kernel, grid, block, ...)                        \
  WEFT_CUDA_EMULATE_LAUNCH(kernel, grid, block, 0, __VA_ARGS__)
#else
#define WEFT_CUDA_KERNEL_CALL(kernel, grid, block, ...)                        \
  kernel<<<grid, block>>>(__VA_ARGS__)
#endif

/// Launches `kernel` on a grid of gx * gy * gz blocks of bx * by * bz
/// threads, and checks the launch (timed under WEFT_CUDA_TIMING). A grid
/// with no block launches nothing.
#define WEFT_CUDA_LAUNCH(kernel, gx, gy, gz, bx, by, bz, ...)                  \
  do {                                                                         \
    int64_t weft_gx = (gx), weft_gy = (gy), weft_gz = (gz);                    \
    if (weft_gx > 0 && weft_gy > 0 && weft_gz > 0) {                           \
      dim3 weft_grid(                                                          \
          weft_cuda_extent(weft_gx, 2147483647, #kernel, __FILE__, __LINE__),  \
          weft_cuda_extent(weft_gy, 65535, #kernel, __FILE__, __LINE__),       \
          weft_cuda_extent(weft_gz, 65535, #kernel, __FILE__, __LINE__));      \
      weft_cuda_timing_begin();                                                \
      WEFT_CUDA_KERNEL_CALL(kernel, weft_grid, dim3((bx), (by), (bz)),         \
                            __VA_ARGS__);                                      \
      weft_cuda_check(cudaGetLastError(), "the launch of " #kernel, __FILE__,  \
                      __LINE__);                                               \
      weft_cuda_timing_end(#kernel);                                           \
    }                                                                          \
  } while (0)

/// The device of this process when several share a node: the node-local
/// rank that MPI launchers export (Open MPI, MPICH / Intel MPI, Slurm),
/// modulo the node's devices; device 0 without one.
static WEFT_CUDA_UNUSED int weft_cuda_select_device(void) {
  static const char *const vars[] = {"OMPI_COMM_WORLD_LOCAL_RANK",
                                     "MPI_LOCALRANKID", "SLURM_LOCALID"};
  int local = 0;
  for (const char *var : vars)
    if (const char *value = getenv(var)) {
      local = atoi(value);
      break;
    }
  int count = 0;
  WEFT_CUDA_CHECK(cudaGetDeviceCount(&count));
  if (count <= 0) {
    fprintf(stderr, "weft: no CUDA device\n");
    exit(1);
  }
  int device = local % count;
  WEFT_CUDA_CHECK(cudaSetDevice(device));
  return device;
}

/// Device buffers freed for reuse, by size, and the size of each buffer
/// handed out: the kernels of a distributed region (--target=mpi-cuda)
/// allocate the same buffers at every step of its time loop, and cudaMalloc
/// and cudaFree synchronise the device.
static WEFT_CUDA_UNUSED std::multimap<size_t, void *> &
weft_cuda_spare_buffers() {
  static std::multimap<size_t, void *> spare;
  return spare;
}
static WEFT_CUDA_UNUSED std::map<void *, size_t> &weft_cuda_buffer_sizes() {
  static std::map<void *, size_t> sizes;
  return sizes;
}

/// Device memory for `count` elements of T (at least one, so that every
/// array has an address), on this process's device (chosen at the first
/// allocation). The message says how much was asked for.
template <typename T>
static WEFT_CUDA_UNUSED T *weft_cuda_alloc(int64_t count) {
  static const int device = weft_cuda_select_device();
  (void)device;
  size_t bytes = (size_t)(count > 0 ? count : 1) * sizeof(T);
  auto &spare = weft_cuda_spare_buffers();
  auto reuse = spare.find(bytes);
  if (reuse != spare.end()) {
    void *p = reuse->second;
    spare.erase(reuse);
#ifdef WEFT_CUDA_EMULATE
    // As fresh memory: the emulation's poison, not the last user's values.
    WEFT_CUDA_CHECK(cudaMemset(p, 0xff, bytes));
#endif
    return (T *)p;
  }
  void *p = NULL;
  cudaError_t error = cudaMalloc(&p, bytes);
  if (error != cudaSuccess) {
    fprintf(stderr, "weft: cannot allocate %zu bytes of device memory: %s\n",
            bytes, cudaGetErrorString(error));
    exit(1);
  }
  weft_cuda_buffer_sizes()[p] = bytes;
  return (T *)p;
}

/// Keeps a buffer of weft_cuda_alloc for the next allocation of its size.
static WEFT_CUDA_UNUSED void weft_cuda_free(void *p) {
  auto &sizes = weft_cuda_buffer_sizes();
  auto it = sizes.find(p);
  if (it == sizes.end()) {
    WEFT_CUDA_CHECK(cudaFree(p));
    return;
  }
  weft_cuda_spare_buffers().insert({it->second, p});
}

/// Copies the box [lo0, hi0) x [lo1, hi1) x [lo2, hi2) of a row-major array
/// of extents [*][e1][e2] (lower ranks: leading extents of 1) whose elements
/// have `bytes` bytes, from `src` to `dst` at the same offsets: to the
/// device when `toDevice`, else to the host. Whole rows go as one copy.
static WEFT_CUDA_UNUSED void
weft_cuda_copy_box(void *dst, const void *src, int64_t bytes, int64_t e1,
                   int64_t e2, int64_t lo0, int64_t hi0, int64_t lo1,
                   int64_t hi1, int64_t lo2, int64_t hi2, int toDevice) {
  if (hi0 <= lo0 || hi1 <= lo1 || hi2 <= lo2)
    return;
  cudaMemcpyKind kind =
      toDevice ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost;
  size_t pitch = (size_t)(e2 * bytes);
  size_t plane = (size_t)e1 * pitch;
  char *d = (char *)dst;
  const char *s = (const char *)src;
  if (lo2 == 0 && hi2 == e2 && (lo1 == 0 && hi1 == e1)) {
    size_t offset = (size_t)lo0 * plane;
    WEFT_CUDA_CHECK(
        cudaMemcpy(d + offset, s + offset, (size_t)(hi0 - lo0) * plane, kind));
    return;
  }
  for (int64_t i0 = lo0; i0 < hi0; ++i0) {
    size_t offset = (size_t)i0 * plane + (size_t)lo1 * pitch +
                    (size_t)(lo2 * bytes);
    WEFT_CUDA_CHECK(cudaMemcpy2D(d + offset, pitch, s + offset, pitch,
                                 (size_t)((hi2 - lo2) * bytes),
                                 (size_t)(hi1 - lo1), kind));
  }
}

/// Waits for every launch so far; reports the first asynchronous error.
static WEFT_CUDA_UNUSED void weft_cuda_sync(void) {
  WEFT_CUDA_CHECK(cudaDeviceSynchronize());
}

// WEFT_CUDA_TIMING: the kernels' device time at exit, on request.
#include "weft_cuda_timing.h"

// The run-time check of a region whose pointer arguments may overlap,
// weft_rt_ranges_overlap, comes before this header in outputs
// (runtime/common/weft_rt_overlap.h, shared with the MPI runtime).

#endif // WEFT_CUDA_H
