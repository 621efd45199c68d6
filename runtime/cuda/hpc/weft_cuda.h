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

// Open MPI says at run time whether it takes device pointers.
#if defined(WEFT_RT_MPI_HOOKS) && defined(OPEN_MPI) && OPEN_MPI &&            \
    defined(__has_include)
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif
#endif

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <map>
#include <type_traits>
#include <utility>
#include <vector>

#define WEFT_CUDA_UNUSED __attribute__((unused))

/// Before a loop of constant trip count in a kernel (a full shared-memory
/// tile): unrolled completely by nvcc. The emulation ignores it (GCC would
/// warn about an unknown `#pragma unroll`).
#ifdef WEFT_CUDA_EMULATE
#define WEFT_CUDA_UNROLL
#else
#define WEFT_CUDA_UNROLL _Pragma("unroll")
#endif

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

// WEFT_CUDA_TIMING: the kernels' device time at exit, on request.
#include "weft_cuda_timing.h"

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
template <typename WeftT>
static WEFT_CUDA_UNUSED WeftT *weft_cuda_alloc(int64_t count) {
  static const int device = weft_cuda_select_device();
  (void)device;
  size_t bytes = (size_t)(count > 0 ? count : 1) * sizeof(WeftT);
  auto &spare = weft_cuda_spare_buffers();
  auto reuse = spare.find(bytes);
  if (reuse != spare.end()) {
    void *p = reuse->second;
    spare.erase(reuse);
#ifdef WEFT_CUDA_EMULATE
    // As fresh memory: the emulation's poison, not the last user's values.
    WEFT_CUDA_CHECK(cudaMemset(p, 0xff, bytes));
#endif
    return (WeftT *)p;
  }
  void *p = NULL;
  cudaError_t error = cudaMalloc(&p, bytes);
  if (error != cudaSuccess) {
    fprintf(stderr, "weft: cannot allocate %zu bytes of device memory: %s\n",
            bytes, cudaGetErrorString(error));
    exit(1);
  }
  weft_cuda_buffer_sizes()[p] = bytes;
  return (WeftT *)p;
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

/// Bytes and copies across the bus, each way, printed at exit under
/// WEFT_STATS (summed over the ranks in MPI programs).
struct weft_cuda_traffic {
  long long h2dBytes, h2dCopies, d2hBytes, d2hCopies;
  /// MPI messages gathered or scattered on the device (mpi-cuda).
  long long deviceMessages;
};
static WEFT_CUDA_UNUSED weft_cuda_traffic &weft_cuda_counters() {
  static weft_cuda_traffic counters;
  return counters;
}
static WEFT_CUDA_UNUSED void weft_cuda_count(size_t bytes,
                                             cudaMemcpyKind kind) {
  weft_cuda_traffic &c = weft_cuda_counters();
  if (kind == cudaMemcpyHostToDevice) {
    c.h2dBytes += (long long)bytes;
    c.h2dCopies += 1;
  } else if (kind == cudaMemcpyDeviceToHost) {
    c.d2hBytes += (long long)bytes;
    c.d2hCopies += 1;
  }
}
static WEFT_CUDA_UNUSED void weft_cuda_print_traffic(const long long c[4]) {
  fprintf(stderr,
          "weft: host to device %lld bytes in %lld copies, device to host "
          "%lld bytes in %lld copies\n",
          c[0], c[1], c[2], c[3]);
}

/// cudaMemcpy and cudaMemcpy2D, checked and counted.
static WEFT_CUDA_UNUSED void weft_cuda_memcpy(void *dst, const void *src,
                                              size_t bytes,
                                              cudaMemcpyKind kind) {
  if (bytes == 0)
    return;
  WEFT_CUDA_CHECK(cudaMemcpy(dst, src, bytes, kind));
  weft_cuda_count(bytes, kind);
}
static WEFT_CUDA_UNUSED void weft_cuda_memcpy_2d(void *dst, const void *src,
                                                 size_t pitch, size_t width,
                                                 size_t height,
                                                 cudaMemcpyKind kind) {
  WEFT_CUDA_CHECK(cudaMemcpy2D(dst, pitch, src, pitch, width, height, kind));
  weft_cuda_count(width * height, kind);
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
    weft_cuda_memcpy(d + offset, s + offset, (size_t)(hi0 - lo0) * plane, kind);
    return;
  }
  for (int64_t i0 = lo0; i0 < hi0; ++i0) {
    size_t offset = (size_t)i0 * plane + (size_t)lo1 * pitch +
                    (size_t)(lo2 * bytes);
    weft_cuda_memcpy_2d(d + offset, s + offset, pitch,
                        (size_t)((hi2 - lo2) * bytes), (size_t)(hi1 - lo1),
                        kind);
  }
}

//===----------------------------------------------------------------------===//
// Resident device copies (--target=mpi-cuda)
//
// The generated code of a distributed region moves data around each device
// nest: the nest's buffers, its flow-in box in before its kernels, its
// written box out after them. These functions make those moves lazy. Each
// host array (by its base address) keeps one device buffer until the region
// ends, with the byte ranges where the host's values are newer and those
// where the device's are (elsewhere both copies agree):
// * weft_cuda_resident returns the array's buffer (grown when a nest reaches
//   further; the new part is newer on the host);
// * weft_cuda_resident_in, before the kernels, copies the parts of the
//   flow-in box that are newer on the host;
// * weft_cuda_resident_out, after them, marks the written box newer on the
//   device and copies nothing;
// * the MPI runtime's messages, broadcasts and all-reduces bring back the
//   runs they read that are newer on the device, and mark the runs they write
//   newer on the host (weft_rt_host_access in runtime/mpi/weft_rt_mpi.h);
// * host code of the region calls weft_cuda_host_access before it touches
//   an array: the array's newer device parts come back, and when the code
//   writes it the whole array becomes newer on the host;
// * weft_cuda_release_all, before the region returns, brings back what is
//   newer on the device and frees the buffers.
//===----------------------------------------------------------------------===//

/// Disjoint byte ranges [first, second) that do not touch.
typedef std::map<int64_t, int64_t> weft_cuda_ranges;

static WEFT_CUDA_UNUSED void weft_cuda_ranges_add(weft_cuda_ranges &r,
                                                  int64_t lo, int64_t hi) {
  if (hi <= lo)
    return;
  auto it = r.lower_bound(lo);
  if (it != r.begin() && std::prev(it)->second >= lo)
    --it;
  while (it != r.end() && it->first <= hi) {
    lo = it->first < lo ? it->first : lo;
    hi = it->second > hi ? it->second : hi;
    it = r.erase(it);
  }
  r[lo] = hi;
}

static WEFT_CUDA_UNUSED void weft_cuda_ranges_remove(weft_cuda_ranges &r,
                                                     int64_t lo, int64_t hi) {
  if (hi <= lo)
    return;
  auto it = r.lower_bound(lo);
  if (it != r.begin() && std::prev(it)->second > lo)
    --it;
  while (it != r.end() && it->first < hi) {
    int64_t a = it->first, b = it->second;
    it = r.erase(it);
    if (a < lo)
      r[a] = lo;
    if (b > hi) {
      r[hi] = b;
      break;
    }
  }
}

/// The parts of [lo, hi) in `r`, in order.
static WEFT_CUDA_UNUSED std::vector<std::pair<int64_t, int64_t>>
weft_cuda_ranges_within(const weft_cuda_ranges &r, int64_t lo, int64_t hi) {
  std::vector<std::pair<int64_t, int64_t>> parts;
  if (hi <= lo)
    return parts;
  auto it = r.lower_bound(lo);
  if (it != r.begin() && std::prev(it)->second > lo)
    --it;
  for (; it != r.end() && it->first < hi; ++it) {
    int64_t a = it->first > lo ? it->first : lo;
    int64_t b = it->second < hi ? it->second : hi;
    if (a < b)
      parts.push_back({a, b});
  }
  return parts;
}

/// Whether `r` holds all of [lo, hi).
static WEFT_CUDA_UNUSED bool weft_cuda_ranges_cover(const weft_cuda_ranges &r,
                                                    int64_t lo, int64_t hi) {
  auto it = r.upper_bound(lo);
  if (it == r.begin())
    return false;
  --it;
  return it->first <= lo && it->second >= hi;
}

/// Calls f(lo, hi) for the byte runs of a box given as weft_cuda_copy_box
/// takes it.
template <typename WeftF>
static WEFT_CUDA_UNUSED void
weft_cuda_box_runs(int64_t bytes, int64_t e1, int64_t e2, int64_t lo0,
                   int64_t hi0, int64_t lo1, int64_t hi1, int64_t lo2,
                   int64_t hi2, WeftF f) {
  if (hi0 <= lo0 || hi1 <= lo1 || hi2 <= lo2)
    return;
  int64_t pitch = e2 * bytes, plane = e1 * pitch;
  bool rows = lo2 == 0 && hi2 == e2;
  if (rows && lo1 == 0 && hi1 == e1) {
    f(lo0 * plane, hi0 * plane);
    return;
  }
  for (int64_t i0 = lo0; i0 < hi0; ++i0) {
    if (rows) {
      f(i0 * plane + lo1 * pitch, i0 * plane + hi1 * pitch);
      continue;
    }
    for (int64_t i1 = lo1; i1 < hi1; ++i1)
      f(i0 * plane + i1 * pitch + lo2 * bytes,
        i0 * plane + i1 * pitch + hi2 * bytes);
  }
}

/// A host array's device buffer and where each copy is newer.
struct weft_cuda_resident_buffer {
  char *device;
  int64_t bytes;
  weft_cuda_ranges hostNewer, deviceNewer;
};

static WEFT_CUDA_UNUSED std::map<const char *, weft_cuda_resident_buffer> &
weft_cuda_residents() {
  static std::map<const char *, weft_cuda_resident_buffer> residents;
  return residents;
}

/// The resident buffer whose host bytes hold `p`, and p's offset from its
/// host base; null when there is none.
static WEFT_CUDA_UNUSED weft_cuda_resident_buffer *
weft_cuda_resident_at(const void *p, int64_t *offset) {
  auto &all = weft_cuda_residents();
  auto it = all.upper_bound((const char *)p);
  if (it == all.begin())
    return nullptr;
  --it;
  *offset = (const char *)p - it->first;
  return *offset < it->second.bytes ? &it->second : nullptr;
}

/// Byte ranges to copy, in increasing order.
typedef std::vector<std::pair<int64_t, int64_t>> weft_cuda_parts;

/// Copies `parts` from `src` to `dst` at the same offsets: a run of parts
/// of one length at one stride (a column of a row-major array) as one
/// cudaMemcpy2D, any other part as one cudaMemcpy.
static WEFT_CUDA_UNUSED void weft_cuda_copy_parts(char *dst, const char *src,
                                                  const weft_cuda_parts &parts,
                                                  cudaMemcpyKind kind) {
  size_t n = parts.size();
  for (size_t i = 0; i < n;) {
    int64_t at = parts[i].first, width = parts[i].second - at;
    size_t j = i + 1;
    int64_t stride = j < n ? parts[j].first - at : 0;
    while (j < n && parts[j].second - parts[j].first == width &&
           parts[j].first - parts[j - 1].first == stride)
      ++j;
    if (j - i > 1)
      weft_cuda_memcpy_2d(dst + at, src + at, (size_t)stride, (size_t)width,
                          j - i, kind);
    else
      weft_cuda_memcpy(dst + at, src + at, (size_t)width, kind);
    i = j;
  }
}

/// The parts of [lo, hi) newer on the device go to `parts`; they will be
/// newer nowhere.
static WEFT_CUDA_UNUSED void
weft_cuda_take_device_newer(weft_cuda_resident_buffer &b, int64_t lo,
                            int64_t hi, weft_cuda_parts &parts) {
  for (auto part : weft_cuda_ranges_within(b.deviceNewer, lo, hi)) {
    parts.push_back(part);
    weft_cuda_ranges_remove(b.deviceNewer, part.first, part.second);
  }
}

/// Brings back all that is newer on the device.
static WEFT_CUDA_UNUSED void weft_cuda_fetch_all(weft_cuda_resident_buffer &b,
                                                 char *host) {
  weft_cuda_parts parts(b.deviceNewer.begin(), b.deviceNewer.end());
  b.deviceNewer.clear();
  weft_cuda_copy_parts(host, b.device, parts, cudaMemcpyDeviceToHost);
}

/// The device buffer of host array `host` for `count` elements of T.
template <typename WeftT>
static WEFT_CUDA_UNUSED WeftT *weft_cuda_resident(const void *host, int64_t count) {
  int64_t bytes = (count > 0 ? count : 1) * (int64_t)sizeof(WeftT);
  auto &all = weft_cuda_residents();
  auto it = all.find((const char *)host);
  if (it != all.end() && it->second.bytes >= bytes)
    return (WeftT *)it->second.device;
  weft_cuda_resident_buffer grown;
  grown.device = weft_cuda_alloc<char>(bytes);
  grown.bytes = bytes;
  int64_t known = 0;
  if (it != all.end()) {
    weft_cuda_resident_buffer &old = it->second;
    weft_cuda_memcpy(grown.device, old.device, (size_t)old.bytes,
                     cudaMemcpyDeviceToDevice);
    grown.hostNewer = std::move(old.hostNewer);
    grown.deviceNewer = std::move(old.deviceNewer);
    known = old.bytes;
    weft_cuda_free(old.device);
  }
  weft_cuda_ranges_add(grown.hostNewer, known, bytes);
  weft_cuda_resident_buffer &b = all[(const char *)host] = std::move(grown);
  return (WeftT *)b.device;
}

/// The resident buffer of `host`, which must be `device`'s.
static WEFT_CUDA_UNUSED weft_cuda_resident_buffer &
weft_cuda_resident_pair(const void *host, const void *device) {
  auto &all = weft_cuda_residents();
  auto it = all.find((const char *)host);
  if (it == all.end() || it->second.device != device) {
    fprintf(stderr, "weft: %p is not the resident device buffer of %p\n",
            device, host);
    exit(1);
  }
  return it->second;
}

/// Before a kernel: the parts of the box newer on the host go to the
/// device (the whole box as one copy per plane when all of it is).
static WEFT_CUDA_UNUSED void
weft_cuda_resident_in(void *dev, const void *host, int64_t bytes, int64_t e1,
                      int64_t e2, int64_t lo0, int64_t hi0, int64_t lo1,
                      int64_t hi1, int64_t lo2, int64_t hi2) {
  weft_cuda_resident_buffer &b = weft_cuda_resident_pair(host, dev);
  bool whole = true;
  weft_cuda_box_runs(
      bytes, e1, e2, lo0, hi0, lo1, hi1, lo2, hi2, [&](int64_t lo, int64_t hi) {
        whole = whole && weft_cuda_ranges_cover(b.hostNewer, lo, hi);
      });
  if (whole) {
    weft_cuda_copy_box(dev, host, bytes, e1, e2, lo0, hi0, lo1, hi1, lo2, hi2,
                       1);
  } else {
    weft_cuda_parts parts;
    weft_cuda_box_runs(bytes, e1, e2, lo0, hi0, lo1, hi1, lo2, hi2,
                       [&](int64_t lo, int64_t hi) {
                         for (auto part :
                              weft_cuda_ranges_within(b.hostNewer, lo, hi))
                           parts.push_back(part);
                       });
    weft_cuda_copy_parts(b.device, (const char *)host, parts,
                         cudaMemcpyHostToDevice);
  }
  weft_cuda_box_runs(bytes, e1, e2, lo0, hi0, lo1, hi1, lo2, hi2,
                     [&](int64_t lo, int64_t hi) {
                       weft_cuda_ranges_remove(b.hostNewer, lo, hi);
                     });
}

/// After a kernel: the box it wrote is newer on the device (no copy).
static WEFT_CUDA_UNUSED void
weft_cuda_resident_out(void *host, const void *dev, int64_t bytes, int64_t e1,
                       int64_t e2, int64_t lo0, int64_t hi0, int64_t lo1,
                       int64_t hi1, int64_t lo2, int64_t hi2) {
  weft_cuda_resident_buffer &b = weft_cuda_resident_pair(host, dev);
  weft_cuda_box_runs(bytes, e1, e2, lo0, hi0, lo1, hi1, lo2, hi2,
                     [&](int64_t lo, int64_t hi) {
                       weft_cuda_ranges_remove(b.hostNewer, lo, hi);
                       weft_cuda_ranges_add(b.deviceNewer, lo, hi);
                     });
}

/// Before host code of the region touches the array at `host` (any address
/// in it): its newer device parts come back; when the code writes it, the
/// host's copy becomes the newer one everywhere.
static WEFT_CUDA_UNUSED void weft_cuda_host_access(void *host, int write) {
  int64_t offset = 0;
  weft_cuda_resident_buffer *b = weft_cuda_resident_at(host, &offset);
  if (!b)
    return;
  char *base = (char *)host - offset;
  weft_cuda_fetch_all(*b, base);
  if (write)
    weft_cuda_ranges_add(b->hostNewer, 0, b->bytes);
}

/// At the end of a region: what is newer on the device comes back, the
/// buffers are freed.
static WEFT_CUDA_UNUSED void weft_cuda_release_all(void) {
  auto &all = weft_cuda_residents();
  for (auto &[host, b] : all) {
    weft_cuda_fetch_all(b, (char *)host);
    weft_cuda_free(b.device);
  }
  all.clear();
}

#ifdef WEFT_RT_MPI_HOOKS
/// weft_rt_host_access: the MPI runtime reads or writes `runs` of `base`.
static void weft_cuda_mpi_access(char *base, const weft_rt_runs *runs,
                                 int write) {
  int64_t offset = 0;
  weft_cuda_resident_buffer *b = weft_cuda_resident_at(base, &offset);
  if (!b)
    return;
  weft_cuda_parts parts;
  for (int64_t r = 0; r < runs->count; ++r) {
    int64_t lo = offset + runs->offset[r], hi = lo + runs->bytes[r];
    hi = hi < b->bytes ? hi : b->bytes;
    if (!write) {
      weft_cuda_take_device_newer(*b, lo, hi, parts);
      continue;
    }
    weft_cuda_ranges_remove(b->deviceNewer, lo, hi);
    weft_cuda_ranges_add(b->hostNewer, lo, hi);
  }
  // A message's runs come in increasing order for a row-major walk; the
  // copies want them so.
  std::sort(parts.begin(), parts.end());
  weft_cuda_copy_parts(base - offset, b->device, parts, cudaMemcpyDeviceToHost);
}

//===----------------------------------------------------------------------===//
// Messages gathered and scattered on the device
//===----------------------------------------------------------------------===//
//
// A halo a kernel wrote leaves from the device: its runs gathered into one
// contiguous device buffer by a kernel, copied to the host in one copy (or
// handed to MPI as it is, with CUDA-aware MPI), sent from there; one a kernel
// reads next arrives in one buffer and is scattered into the array's device
// buffer the same way. Other messages go through the host array.

/// Whether MPI takes device pointers: WEFT_CUDA_AWARE_MPI=0 or 1 in the
/// environment, otherwise what Open MPI's MPIX_Query_cuda_support says at
/// run time (no where the library cannot say).
static int weft_cuda_mpi_aware(void) {
  static int aware = -1;
  if (aware < 0) {
    const char *set = getenv("WEFT_CUDA_AWARE_MPI");
    aware = 0;
    if (set && *set)
      aware = atoi(set) != 0;
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
    else
      aware = MPIX_Query_cuda_support() != 0;
#endif
  }
  return aware;
}

/// A message's runs as one strided pattern of bytes from the array's base:
/// `count` runs of `width` bytes, `stride` apart from `first`.
struct weft_cuda_strided {
  int64_t first, width, stride, count;
};

static bool weft_cuda_strided_runs(const weft_rt_runs *runs, int64_t offset,
                                   int64_t limit, weft_cuda_strided &s) {
  if (runs->count < 1)
    return false;
  s.first = offset + runs->offset[0];
  s.width = runs->bytes[0];
  s.count = runs->count;
  s.stride = s.count > 1 ? runs->offset[1] - runs->offset[0] : s.width;
  if (s.width < 1 || s.stride < s.width || s.first < 0)
    return false;
  for (int64_t r = 1; r < s.count; ++r)
    if (runs->bytes[r] != s.width ||
        runs->offset[r] - runs->offset[r - 1] != s.stride)
      return false;
  return s.first + (s.count - 1) * s.stride + s.width <= limit;
}

/// packed[t] = array[t / width * stride + t % width], or the other way when
/// `scatter`, in units U.
template <typename WeftU>
static __global__ WEFT_CUDA_UNUSED void
weft_cuda_move_runs_kernel(WeftU *array, WeftU *packed, int64_t width, int64_t stride,
                           int64_t total, bool scatter) {
  int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= total)
    return;
  WeftU *element = array + t / width * stride + t % width;
  if (scatter)
    *element = packed[t];
  else
    packed[t] = *element;
}

template <typename WeftU>
static void weft_cuda_move_runs(char *array, char *packed,
                                const weft_cuda_strided &s, bool scatter) {
  int64_t width = s.width / (int64_t)sizeof(WeftU);
  int64_t stride = s.stride / (int64_t)sizeof(WeftU);
  int64_t total = width * s.count, blocks = (total + 255) / 256;
  WEFT_CUDA_LAUNCH(weft_cuda_move_runs_kernel<WeftU>, blocks, 1, 1, 256, 1, 1,
                   (WeftU *)(array + s.first), (WeftU *)packed, width, stride, total,
                   scatter);
}

/// Gathers the runs `s` of the device array `array` into `packed` (device
/// memory), or scatters them back, in the widest unit that divides them.
static void weft_cuda_move_strided(char *array, char *packed,
                                   const weft_cuda_strided &s, bool scatter) {
  auto divides = [&](int64_t u) {
    return s.first % u == 0 && s.width % u == 0 && s.stride % u == 0;
  };
  if (divides(8))
    weft_cuda_move_runs<unsigned long long>(array, packed, s, scatter);
  else if (divides(4))
    weft_cuda_move_runs<unsigned>(array, packed, s, scatter);
  else
    weft_cuda_move_runs<unsigned char>(array, packed, s, scatter);
}

/// Message k's buffers for the exchange under way: device memory, and
/// pinned host memory for MPI where it takes no device pointers.
struct weft_cuda_stage_buffers {
  char *device = nullptr, *host = nullptr;
  int64_t bytes = 0;
};
static weft_cuda_stage_buffers &weft_cuda_stage_buffer(int k, int64_t bytes) {
  static std::vector<weft_cuda_stage_buffers> all;
  if ((int)all.size() <= k)
    all.resize(k + 1);
  weft_cuda_stage_buffers &b = all[k];
  if (b.bytes < bytes) {
    if (b.device) {
      weft_cuda_free(b.device);
      WEFT_CUDA_CHECK(cudaFreeHost(b.host));
    }
    b.device = weft_cuda_alloc<char>(bytes);
    WEFT_CUDA_CHECK(cudaMallocHost((void **)&b.host, (size_t)bytes));
    b.bytes = bytes;
  }
  return b;
}

/// Whether some byte of the runs `s` is in `ranges`.
static bool weft_cuda_strided_touch(const weft_cuda_ranges &ranges,
                                    const weft_cuda_strided &s) {
  for (int64_t r = 0; r < s.count; ++r) {
    int64_t lo = s.first + r * s.stride;
    if (!weft_cuda_ranges_within(ranges, lo, lo + s.width).empty())
      return true;
  }
  return false;
}

/// The resident buffer of the array at `base` (any address in it), with
/// `offset` the array's base there, whose bytes hold a message's runs as one
/// strided pattern `s`; null where there is none.
static weft_cuda_resident_buffer *
weft_cuda_message_pattern(char *base, const weft_rt_runs *runs,
                          int64_t &offset, weft_cuda_strided &s) {
  weft_cuda_resident_buffer *b = weft_cuda_resident_at(base, &offset);
  return b && weft_cuda_strided_runs(runs, offset, b->bytes, s) ? b : nullptr;
}

/// Copies the runs `s` of `array` (host memory) into `packed`, or back.
static void weft_cuda_move_strided_host(char *array, char *packed,
                                        const weft_cuda_strided &s,
                                        bool scatter) {
  for (int64_t r = 0; r < s.count; ++r) {
    char *at = array + s.first + r * s.stride, *in = packed + r * s.width;
    if (scatter)
      memcpy(at, in, (size_t)s.width);
    else
      memcpy(in, at, (size_t)s.width);
  }
}

/// Marks the runs `s` newer on the device (`device`), or the same on both
/// sides.
static void weft_cuda_strided_newer(weft_cuda_resident_buffer &b,
                                    const weft_cuda_strided &s, bool device) {
  for (int64_t r = 0; r < s.count; ++r) {
    int64_t lo = s.first + r * s.stride, hi = lo + s.width;
    weft_cuda_ranges_remove(b.hostNewer, lo, hi);
    if (device)
      weft_cuda_ranges_add(b.deviceNewer, lo, hi);
    else
      weft_cuda_ranges_remove(b.deviceNewer, lo, hi);
  }
}

/// weft_rt_stage. A message of a resident array whose device copy is
/// current for all its runs (none newer on the host; for a send, some newer
/// on the device, or the host has them all) and whose runs are one strided
/// pattern leaves from or arrives on the device:
/// * with CUDA-aware MPI, one run goes from or into the device buffer
///   itself, several through a device buffer they are gathered into or
///   scattered from by a kernel;
/// * otherwise several runs cross the bus as one contiguous copy of that
///   buffer (instead of a strided copy, slow for narrow runs), and the
///   host array gets their values too; one run takes the host path, which
///   copies it in one piece already.
static char *weft_cuda_mpi_stage(int k, char *base, const weft_rt_runs *runs,
                                 int64_t bytes, int receive) {
  int64_t offset = 0;
  weft_cuda_strided s;
  weft_cuda_resident_buffer *b =
      weft_cuda_message_pattern(base, runs, offset, s);
  bool aware = weft_cuda_mpi_aware();
  if (!b || s.width * s.count != bytes || (s.count == 1 && !aware) ||
      weft_cuda_strided_touch(b->hostNewer, s) ||
      (!receive && !weft_cuda_strided_touch(b->deviceNewer, s)))
    return nullptr;
  weft_cuda_counters().deviceMessages += 1;
  if (s.count == 1) {
    if (!receive)
      WEFT_CUDA_CHECK(cudaDeviceSynchronize()); // MPI reads it next
    return b->device + s.first;
  }
  weft_cuda_stage_buffers &stage = weft_cuda_stage_buffer(k, bytes);
  if (receive)
    return aware ? stage.device : stage.host;
  weft_cuda_move_strided(b->device, stage.device, s, /*scatter=*/false);
  if (aware) {
    WEFT_CUDA_CHECK(cudaDeviceSynchronize());
    return stage.device;
  }
  weft_cuda_memcpy(stage.host, stage.device, (size_t)bytes,
                   cudaMemcpyDeviceToHost);
  weft_cuda_move_strided_host(base - offset, stage.host, s, /*scatter=*/true);
  weft_cuda_strided_newer(*b, s, /*device=*/false);
  return stage.host;
}

/// weft_rt_unstage: a staged receive arrived; its runs go into the device
/// buffer (and, through host memory, into the host array too).
static void weft_cuda_mpi_unstage(int k, char *base, const weft_rt_runs *runs,
                                  int64_t bytes, char *staged) {
  int64_t offset = 0;
  weft_cuda_strided s;
  weft_cuda_resident_buffer *b =
      weft_cuda_message_pattern(base, runs, offset, s);
  if (!b) {
    fprintf(stderr, "weft: a staged message lost its resident buffer\n");
    exit(1);
  }
  if (staged == b->device + s.first) { // one run, CUDA-aware
    weft_cuda_strided_newer(*b, s, /*device=*/true);
    return;
  }
  weft_cuda_stage_buffers &stage = weft_cuda_stage_buffer(k, bytes);
  bool onHost = staged == stage.host;
  if (onHost) {
    weft_cuda_memcpy(stage.device, stage.host, (size_t)bytes,
                     cudaMemcpyHostToDevice);
    weft_cuda_move_strided_host(base - offset, stage.host, s, /*scatter=*/true);
  }
  weft_cuda_move_strided(b->device, stage.device, s, /*scatter=*/true);
  weft_cuda_strided_newer(*b, s, /*device=*/!onHost);
}

/// weft_rt_more_stats: the copies of all ranks, on rank 0's stderr.
static void weft_cuda_mpi_stats(void) {
  const weft_cuda_traffic &c = weft_cuda_counters();
  long long mine[5] = {c.h2dBytes, c.h2dCopies, c.d2hBytes, c.d2hCopies,
                       c.deviceMessages};
  long long total[5] = {0, 0, 0, 0, 0};
  MPI_Reduce(mine, total, 5, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (weft_rt_rank == 0) {
    weft_cuda_print_traffic(total);
    fprintf(stderr,
            "weft: %lld messages gathered or scattered on the device%s\n",
            total[4],
            weft_cuda_mpi_aware() ? " (CUDA-aware MPI)" : "");
  }
}

static const bool weft_cuda_mpi_hooked WEFT_CUDA_UNUSED =
    (weft_rt_host_access = weft_cuda_mpi_access,
     weft_rt_stage = weft_cuda_mpi_stage,
     weft_rt_unstage = weft_cuda_mpi_unstage,
     weft_rt_more_stats = weft_cuda_mpi_stats, true);
#else
static void weft_cuda_stats_at_exit(void) {
  const weft_cuda_traffic &c = weft_cuda_counters();
  long long mine[4] = {c.h2dBytes, c.h2dCopies, c.d2hBytes, c.d2hCopies};
  weft_cuda_print_traffic(mine);
}
static const bool weft_cuda_stats_registered WEFT_CUDA_UNUSED =
    getenv("WEFT_STATS") && atexit(weft_cuda_stats_at_exit) == 0;
#endif

//===----------------------------------------------------------------------===//
// Reductions: the atomic update of an element by a block's (or a thread's)
// partial result, `weft_cuda_atomic_<kind>(p, i, v)`: p[i] = p[i] kind v.
//===----------------------------------------------------------------------===//

/// p[0] = op(p[0], v) atomically through compare-and-swap on its bits, for
/// the updates CUDA has no atomic of its own for.
template <typename WeftT, typename WeftOp>
static __device__ WEFT_CUDA_UNUSED void weft_cuda_atomic_apply(WeftT *p, WeftT v,
                                                              WeftOp op) {
  static_assert(sizeof(WeftT) == 4 || sizeof(WeftT) == 8,
                "atomic update of an element of 4 or 8 bytes only");
  typedef typename std::conditional<sizeof(WeftT) == 8, unsigned long long,
                                    unsigned int>::type WeftBits;
  WeftBits *bits = reinterpret_cast<WeftBits *>(p);
  WeftBits seen = *bits, expected;
  do {
    expected = seen;
    WeftT old, next;
    memcpy(&old, &expected, sizeof(WeftT));
    next = op(old, v);
    WeftBits desired;
    memcpy(&desired, &next, sizeof(WeftT));
    seen = atomicCAS(bits, expected, desired);
  } while (seen != expected);
}

struct weft_cuda_add_op {
  template <typename WeftT> __device__ WeftT operator()(WeftT a, WeftT b) const {
    return a + b;
  }
};
struct weft_cuda_mul_op {
  template <typename WeftT> __device__ WeftT operator()(WeftT a, WeftT b) const {
    return a * b;
  }
};
// C's `a > m ? a : m` skips NaN elements: max and min are maxNum and minNum
// (a NaN operand gives the other).
struct weft_cuda_max_op {
  template <typename WeftT> __device__ WeftT operator()(WeftT a, WeftT b) const {
    return (b != b || a > b) ? a : b;
  }
};
struct weft_cuda_min_op {
  template <typename WeftT> __device__ WeftT operator()(WeftT a, WeftT b) const {
    return (b != b || a < b) ? a : b;
  }
};

template <typename WeftT>
static __device__ WEFT_CUDA_UNUSED void weft_cuda_atomic_add(WeftT *p, int64_t i,
                                                            WeftT v) {
  weft_cuda_atomic_apply(p + i, v, weft_cuda_add_op());
}
// CUDA's own additions (double: sm_60 and later).
static __device__ WEFT_CUDA_UNUSED void weft_cuda_atomic_add(double *p,
                                                            int64_t i,
                                                            double v) {
  atomicAdd(p + i, v);
}
static __device__ WEFT_CUDA_UNUSED void weft_cuda_atomic_add(float *p,
                                                            int64_t i,
                                                            float v) {
  atomicAdd(p + i, v);
}
static __device__ WEFT_CUDA_UNUSED void weft_cuda_atomic_add(int *p, int64_t i,
                                                            int v) {
  atomicAdd(p + i, v);
}
template <typename WeftT>
static __device__ WEFT_CUDA_UNUSED void weft_cuda_atomic_mul(WeftT *p, int64_t i,
                                                            WeftT v) {
  weft_cuda_atomic_apply(p + i, v, weft_cuda_mul_op());
}
template <typename WeftT>
static __device__ WEFT_CUDA_UNUSED void weft_cuda_atomic_max(WeftT *p, int64_t i,
                                                            WeftT v) {
  weft_cuda_atomic_apply(p + i, v, weft_cuda_max_op());
}
template <typename WeftT>
static __device__ WEFT_CUDA_UNUSED void weft_cuda_atomic_min(WeftT *p, int64_t i,
                                                            WeftT v) {
  weft_cuda_atomic_apply(p + i, v, weft_cuda_min_op());
}

/// Waits for every launch so far; reports the first asynchronous error.
static WEFT_CUDA_UNUSED void weft_cuda_sync(void) {
  WEFT_CUDA_CHECK(cudaDeviceSynchronize());
}


// The run-time check of a region whose pointer arguments may overlap,
// weft_rt_ranges_overlap, comes before this header in outputs
// (runtime/common/weft_rt_overlap.h, shared with the MPI runtime).

#endif // WEFT_CUDA_H
