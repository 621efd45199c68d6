//===- weft_cuda_emulate.h - Run CUDA programs on the CPU, for tests ------===//
//
// A TEST HARNESS, never a target: it lets the CUDA C++ that
// `weft compile --target=cuda` writes run on a machine without a GPU, so
// that CI can compare its output with the sequential program's:
//
//   g++ -x c++ -fopenmp -DWEFT_CUDA_EMULATE OUT.cu -o prog -lm
//
// (-fopenmp is no longer needed, and harmless: the threads of a block were
// once a team of OpenMP threads, one OS thread per CUDA thread, whose
// waits at barriers and shuffles cost most of the test suite's time.)
//
// weft_cuda.h includes it under WEFT_CUDA_EMULATE (the generated files carry
// both). What it does:
//
// * A launch runs the blocks of the grid one after another, and the threads
//   of a block as fibers (ucontext) on the calling thread: each runs until
//   it returns or waits at `__syncthreads()` or a warp shuffle, and the
//   next one runs. A barrier releases its threads when every thread of the
//   block has arrived; a shuffle its warp's lanes when all 32 have. The
//   threads of even blocks start in ascending order, of odd blocks in
//   descending order, so that a missing barrier shows whichever way a
//   kernel leans on the order. A block whose threads can no longer all
//   meet (a thread returned while others wait at a barrier, lanes that
//   never reach a shuffle) stops the program with a message at once.
// * `__shared__` variables are function-level statics: one copy, used by
//   the one block that runs at a time.
// * Atomics are GCC __atomic built-ins (floating-point ones by
//   compare-and-swap loops).
// * Device memory is host memory from malloc, registered so that copies in
//   the wrong direction, pointers that are not device memory passed to a
//   kernel, and frees of unknown pointers fail as errors; new allocations
//   are filled with 0xff bytes (NaN doubles, -1 integers), so a kernel that
//   reads what was never copied in shows it.
//
// * `__shfl_down_sync` where all 32 lanes of a warp take part (the mask is
//   every lane, the block whole warps): the lanes of a warp leave their
//   values, and the last to arrive hands each lane the one it reads.
// * `__syncthreads_count/and/or`: a barrier at which each thread votes; the
//   release hands every thread the count.
//
// What it cannot emulate is rejected, never run wrongly: the other
// warp-level intrinsics (shuffles, votes, __syncwarp, warpSize) do not
// compile, with a message naming them; a `__shfl_down_sync` with a partial
// mask, in a block that is not whole warps, or where a lane of the warp
// never reaches it (divergent code), and a `__syncthreads()` that some
// thread of the block never reaches, stop the program with a message;
// blocks of more than WEFT_CUDA_EMULATE_MAX_THREADS threads (default
// 1024), launches that ask for dynamic shared memory and
// grids over CUDA's limits fail at the launch with an error that
// cudaGetLastError() returns, as a real launch does.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_CUDA_EMULATE_H
#define WEFT_CUDA_EMULATE_H

#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <type_traits>

#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#ifndef WEFT_CUDA_EMULATE_MAX_THREADS
#define WEFT_CUDA_EMULATE_MAX_THREADS 1024
#endif
// Bytes of stack of each emulated thread (a fiber), below a guard page.
#ifndef WEFT_CUDA_EMULATE_STACK
#define WEFT_CUDA_EMULATE_STACK (256 * 1024)
#endif

// Function and variable qualifiers. A block runs alone, so one static copy
// of a __shared__ variable is that block's shared memory.
#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __noinline__ __attribute__((noinline))
#define __launch_bounds__(...)
#define __shared__ static

struct dim3 {
  unsigned x, y, z;
  constexpr dim3(unsigned x = 1, unsigned y = 1, unsigned z = 1)
      : x(x), y(y), z(z) {}
};
struct uint3 {
  unsigned x, y, z;
};

static thread_local uint3 threadIdx;
static uint3 blockIdx;
static dim3 blockDim, gridDim;

//===----------------------------------------------------------------------===//
// Errors, as the CUDA runtime reports them
//===----------------------------------------------------------------------===//

enum cudaError_t {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInvalidConfiguration = 9,
  cudaErrorInvalidDevice = 101,
  cudaErrorNotSupported = 801,
};
enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4,
};

namespace weft_cuda_emulate {

static cudaError_t lastError = cudaSuccess;
static char lastMessage[512];

/// Records an error (the first until cudaGetLastError reads it), with the
/// emulation's explanation on stderr.
static cudaError_t fail(cudaError_t error, const char *format, ...)
    __attribute__((format(printf, 2, 3)));
static cudaError_t fail(cudaError_t error, const char *format, ...) {
  va_list args;
  va_start(args, format);
  vsnprintf(lastMessage, sizeof lastMessage, format, args);
  va_end(args);
  fprintf(stderr, "weft CUDA emulation: %s\n", lastMessage);
  if (lastError == cudaSuccess)
    lastError = error;
  return error;
}

} // namespace weft_cuda_emulate

static inline const char *cudaGetErrorName(cudaError_t error) {
  switch (error) {
  case cudaSuccess: return "cudaSuccess";
  case cudaErrorInvalidValue: return "cudaErrorInvalidValue";
  case cudaErrorMemoryAllocation: return "cudaErrorMemoryAllocation";
  case cudaErrorInvalidConfiguration: return "cudaErrorInvalidConfiguration";
  case cudaErrorInvalidDevice: return "cudaErrorInvalidDevice";
  case cudaErrorNotSupported: return "cudaErrorNotSupported";
  }
  return "cudaErrorUnknown";
}
static inline const char *cudaGetErrorString(cudaError_t error) {
  switch (error) {
  case cudaSuccess: return "no error";
  case cudaErrorInvalidValue: return "invalid argument";
  case cudaErrorMemoryAllocation: return "out of memory";
  case cudaErrorInvalidConfiguration: return "invalid configuration argument";
  case cudaErrorInvalidDevice: return "invalid device ordinal";
  case cudaErrorNotSupported: return "operation not supported";
  }
  return "unknown error";
}
static inline cudaError_t cudaGetLastError() {
  cudaError_t error = weft_cuda_emulate::lastError;
  weft_cuda_emulate::lastError = cudaSuccess;
  return error;
}
static inline cudaError_t cudaPeekAtLastError() {
  return weft_cuda_emulate::lastError;
}

//===----------------------------------------------------------------------===//
// Devices
//===----------------------------------------------------------------------===//

namespace weft_cuda_emulate {
static int currentDevice = 0;
/// WEFT_CUDA_EMULATE_DEVICES (default 1) devices, all the same host memory.
static int deviceCount() {
  const char *text = getenv("WEFT_CUDA_EMULATE_DEVICES");
  int count = text ? atoi(text) : 1;
  return count > 0 ? count : 1;
}
} // namespace weft_cuda_emulate

static inline cudaError_t cudaGetDeviceCount(int *count) {
  *count = weft_cuda_emulate::deviceCount();
  return cudaSuccess;
}
static inline cudaError_t cudaSetDevice(int device) {
  if (device < 0 || device >= weft_cuda_emulate::deviceCount())
    return weft_cuda_emulate::fail(cudaErrorInvalidDevice,
                                   "cudaSetDevice(%d): no such device", device);
  weft_cuda_emulate::currentDevice = device;
  return cudaSuccess;
}
static inline cudaError_t cudaGetDevice(int *device) {
  *device = weft_cuda_emulate::currentDevice;
  return cudaSuccess;
}
// Every launch has finished when it returns.
static inline cudaError_t cudaDeviceSynchronize() {
  return weft_cuda_emulate::lastError;
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

namespace weft_cuda_emulate {

/// Device allocations: start -> size in bytes.
static std::map<const char *, size_t> &allocations() {
  static std::map<const char *, size_t> table;
  return table;
}

/// Whether [p, p + bytes) lies in one device allocation.
static bool onDevice(const void *p, size_t bytes) {
  const char *c = static_cast<const char *>(p);
  auto &table = allocations();
  auto it = table.upper_bound(c);
  if (it == table.begin())
    return false;
  --it;
  size_t size = it->second ? it->second : 1;
  return c >= it->first && c + bytes <= it->first + size;
}

/// Whether [p, p + bytes) touches device memory.
static bool touchesDevice(const void *p, size_t bytes) {
  const char *c = static_cast<const char *>(p);
  auto &table = allocations();
  auto it = table.upper_bound(c + (bytes ? bytes - 1 : 0));
  if (it == table.begin())
    return false;
  --it;
  size_t size = it->second ? it->second : 1;
  return it->first + size > c;
}

static const char *kindName(cudaMemcpyKind kind) {
  switch (kind) {
  case cudaMemcpyHostToHost: return "host to host";
  case cudaMemcpyHostToDevice: return "host to device";
  case cudaMemcpyDeviceToHost: return "device to host";
  case cudaMemcpyDeviceToDevice: return "device to device";
  case cudaMemcpyDefault: return "default";
  }
  return "unknown";
}

/// Checks that a copy of `bytes` bytes of kind `kind` reads and writes the
/// memories it names.
static cudaError_t checkCopy(const char *what, void *dst, const void *src,
                             size_t bytes, cudaMemcpyKind kind) {
  if (bytes == 0)
    return cudaSuccess;
  bool dstDevice = kind == cudaMemcpyHostToDevice ||
                   kind == cudaMemcpyDeviceToDevice;
  bool srcDevice = kind == cudaMemcpyDeviceToHost ||
                   kind == cudaMemcpyDeviceToDevice;
  if (kind == cudaMemcpyDefault)
    return cudaSuccess;
  if (dstDevice ? !onDevice(dst, bytes) : touchesDevice(dst, bytes))
    return fail(cudaErrorInvalidValue,
                "%s (%s) of %zu bytes: the destination %p is not all %s memory",
                what, kindName(kind), bytes, dst,
                dstDevice ? "device" : "host");
  if (srcDevice ? !onDevice(src, bytes) : touchesDevice(src, bytes))
    return fail(cudaErrorInvalidValue,
                "%s (%s) of %zu bytes: the source %p is not all %s memory", what,
                kindName(kind), bytes, src, srcDevice ? "device" : "host");
  return cudaSuccess;
}

} // namespace weft_cuda_emulate

static inline cudaError_t cudaMalloc(void **p, size_t bytes) {
  char *memory = static_cast<char *>(malloc(bytes ? bytes : 1));
  if (!memory) {
    *p = nullptr;
    return weft_cuda_emulate::fail(cudaErrorMemoryAllocation,
                                   "cudaMalloc of %zu bytes failed", bytes);
  }
  memset(memory, 0xff, bytes);
  weft_cuda_emulate::allocations()[memory] = bytes;
  *p = memory;
  return cudaSuccess;
}
template <typename WeftT> static inline cudaError_t cudaMalloc(WeftT **p, size_t bytes) {
  return cudaMalloc(reinterpret_cast<void **>(p), bytes);
}
static inline cudaError_t cudaFree(void *p) {
  if (!p)
    return cudaSuccess;
  auto &table = weft_cuda_emulate::allocations();
  auto it = table.find(static_cast<char *>(p));
  if (it == table.end())
    return weft_cuda_emulate::fail(
        cudaErrorInvalidValue, "cudaFree(%p): not a device allocation", p);
  table.erase(it);
  free(p);
  return cudaSuccess;
}
static inline cudaError_t cudaMallocHost(void **p, size_t bytes) {
  *p = malloc(bytes ? bytes : 1);
  return *p ? cudaSuccess
            : weft_cuda_emulate::fail(cudaErrorMemoryAllocation,
                                      "cudaMallocHost of %zu bytes failed",
                                      bytes);
}
static inline cudaError_t cudaFreeHost(void *p) {
  free(p);
  return cudaSuccess;
}
static inline cudaError_t cudaMemcpy(void *dst, const void *src, size_t bytes,
                                     cudaMemcpyKind kind) {
  if (cudaError_t e =
          weft_cuda_emulate::checkCopy("cudaMemcpy", dst, src, bytes, kind))
    return e;
  if (bytes)
    memmove(dst, src, bytes);
  return cudaSuccess;
}
static inline cudaError_t cudaMemcpy2D(void *dst, size_t dpitch,
                                       const void *src, size_t spitch,
                                       size_t width, size_t height,
                                       cudaMemcpyKind kind) {
  if (width > dpitch || width > spitch)
    return weft_cuda_emulate::fail(cudaErrorInvalidValue,
                                   "cudaMemcpy2D: a row of %zu bytes is wider "
                                   "than the pitch (%zu, %zu)",
                                   width, dpitch, spitch);
  for (size_t row = 0; row < height; ++row) {
    char *d = static_cast<char *>(dst) + row * dpitch;
    const char *s = static_cast<const char *>(src) + row * spitch;
    if (cudaError_t e =
            weft_cuda_emulate::checkCopy("cudaMemcpy2D", d, s, width, kind))
      return e;
    memmove(d, s, width);
  }
  return cudaSuccess;
}
static inline cudaError_t cudaMemset(void *p, int value, size_t bytes) {
  if (bytes && !weft_cuda_emulate::onDevice(p, bytes))
    return weft_cuda_emulate::fail(cudaErrorInvalidValue,
                                   "cudaMemset of %zu bytes at %p: not device "
                                   "memory",
                                   bytes, p);
  memset(p, value, bytes);
  return cudaSuccess;
}

//===----------------------------------------------------------------------===//
// The threads of a block, as fibers
//===----------------------------------------------------------------------===//

namespace weft_cuda_emulate {

/// Stops the program with exit status 1: a kernel cannot return an error.
[[noreturn]] static void stop(const char *format, ...)
    __attribute__((format(printf, 1, 2)));
[[noreturn]] static void stop(const char *format, ...) {
  va_list args;
  va_start(args, format);
  fprintf(stderr, "weft CUDA emulation: ");
  vfprintf(stderr, format, args);
  fprintf(stderr, "\n");
  va_end(args);
  fflush(stdout);
  fflush(stderr);
  _Exit(1);
}

/// What a thread of the running block waits for.
enum class Wait : unsigned char { Nothing, Barrier, Shuffle, Returned };

/// A thread of the running block: its context, and what it waits for.
struct Fiber {
  ucontext_t context;
  Wait wait;
};

/// A warp of the running block at a shuffle: the lanes that have arrived,
/// each lane's value, offset and width, and what each lane reads once all
/// 32 have (kept until they all arrive at the next shuffle, so after every
/// lane has read this one's).
struct Warp {
  unsigned arrived;
  unsigned char values[32][8], results[32][8];
  unsigned deltas[32];
  int widths[32];
};

static Fiber fibers[WEFT_CUDA_EMULATE_MAX_THREADS];
static Warp warps[(WEFT_CUDA_EMULATE_MAX_THREADS + 31) / 32];
/// Where the scheduler (runBlock) waits while a thread runs.
static ucontext_t scheduler;
/// The running thread, x + X * (y + Y * z) in the block.
static unsigned running;
/// Votes of __syncthreads_count/and/or: the threads at the barrier that
/// voted yes, and the count the last released barrier handed out (read by
/// each thread before it can reach the next barrier).
static unsigned votes, releasedVotes;
/// The kernel with its arguments, run by each thread.
static std::function<void()> kernelBody;
/// The threads' stacks, each above a guard page, for `stackSlots` threads.
static char *stackMemory;
static unsigned stackSlots;

static size_t pageSize() {
  static const size_t page = size_t(sysconf(_SC_PAGESIZE));
  return page;
}

/// Bytes from one thread's stack to the next: the stack, whole pages, and
/// the guard page below it.
static size_t stackStride() {
  size_t page = pageSize();
  return (size_t(WEFT_CUDA_EMULATE_STACK) + page - 1) / page * page + page;
}

/// Stacks for `threads` threads; false where memory cannot be mapped.
static bool reserveStacks(unsigned threads) {
  if (threads <= stackSlots)
    return true;
  size_t stride = stackStride();
  if (stackMemory)
    munmap(stackMemory, stride * stackSlots);
  stackSlots = 0;
  void *memory = mmap(nullptr, stride * threads, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (memory == MAP_FAILED)
    return false;
  stackMemory = static_cast<char *>(memory);
  for (unsigned t = 0; t < threads; ++t)
    mprotect(stackMemory + t * stride, pageSize(), PROT_NONE);
  stackSlots = threads;
  return true;
}

static void runThread() {
  kernelBody();
  fibers[running].wait = Wait::Returned;
  // uc_link returns to the scheduler.
}

/// The running thread waits for `what`: the scheduler runs the others
/// until it is released.
static void waitFor(Wait what) {
  Fiber &self = fibers[running];
  self.wait = what;
  swapcontext(&self.context, &scheduler);
}

static uint3 threadIndex(unsigned t) {
  return {t % blockDim.x, t / blockDim.x % blockDim.y,
          t / (blockDim.x * blockDim.y)};
}

/// Runs the block `blockIdx` of `threads` threads: each thread in turn
/// until it returns or waits (in descending order where `descending`), a
/// barrier released once every thread waits at it; stops the program where
/// the threads can no longer all meet.
static void runBlock(unsigned threads, bool descending) {
  size_t stride = stackStride(), guard = pageSize();
  for (unsigned t = 0; t < threads; ++t) {
    Fiber &f = fibers[t];
    getcontext(&f.context);
    f.context.uc_stack.ss_sp = stackMemory + t * stride + guard;
    f.context.uc_stack.ss_size = stride - guard;
    f.context.uc_link = &scheduler;
    makecontext(&f.context, runThread, 0);
    f.wait = Wait::Nothing;
  }
  for (unsigned w = 0; w < (threads + 31) / 32; ++w)
    warps[w].arrived = 0;
  votes = 0;
  for (;;) {
    for (unsigned k = 0; k < threads; ++k) {
      unsigned t = descending ? threads - 1 - k : k;
      if (fibers[t].wait != Wait::Nothing)
        continue;
      running = t;
      threadIdx = threadIndex(t);
      swapcontext(&scheduler, &fibers[t].context);
    }
    unsigned atBarrier = 0, returned = 0, lastReturned = 0;
    bool runnable = false;
    for (unsigned t = 0; t < threads; ++t) {
      Wait w = fibers[t].wait;
      atBarrier += w == Wait::Barrier;
      runnable |= w == Wait::Nothing;
      if (w == Wait::Returned) {
        ++returned;
        lastReturned = t;
      }
    }
    if (returned == threads)
      return;
    if (atBarrier == threads) {
      for (unsigned t = 0; t < threads; ++t)
        fibers[t].wait = Wait::Nothing;
      releasedVotes = votes;
      votes = 0;
      continue;
    }
    // Lanes a shuffle released run in the next pass; otherwise no thread
    // can move on.
    if (runnable)
      continue;
    uint3 b = blockIdx;
    if (atBarrier && returned) {
      uint3 r = threadIndex(lastReturned);
      stop("block (%u, %u, %u): thread (%u, %u, %u) returned while %u "
           "threads wait at __syncthreads() (a barrier in divergent code?)",
           b.x, b.y, b.z, r.x, r.y, r.z, atBarrier);
    }
    for (unsigned w = 0; w < (threads + 31) / 32; ++w)
      if (warps[w].arrived)
        stop("block (%u, %u, %u): the lanes of warp %u did not all reach a "
             "warp shuffle (a shuffle in divergent code?)",
             b.x, b.y, b.z, w);
    stop("block (%u, %u, %u): its threads wait at __syncthreads() and at "
         "warp shuffles at once",
         b.x, b.y, b.z);
  }
}

} // namespace weft_cuda_emulate

//===----------------------------------------------------------------------===//
// Synchronisation and atomics
//===----------------------------------------------------------------------===//

// The fences keep the compiler from caching shared (static) memory across
// the barrier; the thread waits until every thread of the block is there.
static inline void __syncthreads() {
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  weft_cuda_emulate::waitFor(weft_cuda_emulate::Wait::Barrier);
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
// A barrier at which each thread votes: how many voted yes, whether all
// did, whether any did.
static inline int __syncthreads_count(int predicate) {
  weft_cuda_emulate::votes += predicate != 0;
  __syncthreads();
  return (int)weft_cuda_emulate::releasedVotes;
}
static inline int __syncthreads_and(int predicate) {
  return __syncthreads_count(predicate) ==
         (int)(blockDim.x * blockDim.y * blockDim.z);
}
static inline int __syncthreads_or(int predicate) {
  return __syncthreads_count(predicate) != 0;
}
static inline void __threadfence() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
static inline void __threadfence_block() {
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

#define WEFT_CUDA_EMULATE_INTEGER_ATOMICS(WeftT)                                   \
  static inline WeftT atomicAdd(WeftT *p, WeftT v) {                                       \
    return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST);                         \
  }                                                                            \
  static inline WeftT atomicSub(WeftT *p, WeftT v) {                                       \
    return __atomic_fetch_sub(p, v, __ATOMIC_SEQ_CST);                         \
  }                                                                            \
  static inline WeftT atomicExch(WeftT *p, WeftT v) {                                      \
    return __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST);                        \
  }                                                                            \
  static inline WeftT atomicAnd(WeftT *p, WeftT v) {                                       \
    return __atomic_fetch_and(p, v, __ATOMIC_SEQ_CST);                         \
  }                                                                            \
  static inline WeftT atomicOr(WeftT *p, WeftT v) {                                        \
    return __atomic_fetch_or(p, v, __ATOMIC_SEQ_CST);                          \
  }                                                                            \
  static inline WeftT atomicCAS(WeftT *p, WeftT expected, WeftT desired) {                     \
    __atomic_compare_exchange_n(p, &expected, desired, false,                  \
                                __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);           \
    return expected;                                                           \
  }                                                                            \
  static inline WeftT atomicMax(WeftT *p, WeftT v) {                                       \
    WeftT old = __atomic_load_n(p, __ATOMIC_SEQ_CST);                              \
    while (old < v && !__atomic_compare_exchange_n(                            \
                          p, &old, v, false, __ATOMIC_SEQ_CST,                 \
                          __ATOMIC_SEQ_CST)) {                                 \
    }                                                                          \
    return old;                                                                \
  }                                                                            \
  static inline WeftT atomicMin(WeftT *p, WeftT v) {                                       \
    WeftT old = __atomic_load_n(p, __ATOMIC_SEQ_CST);                              \
    while (old > v && !__atomic_compare_exchange_n(                            \
                          p, &old, v, false, __ATOMIC_SEQ_CST,                 \
                          __ATOMIC_SEQ_CST)) {                                 \
    }                                                                          \
    return old;                                                                \
  }
WEFT_CUDA_EMULATE_INTEGER_ATOMICS(int)
WEFT_CUDA_EMULATE_INTEGER_ATOMICS(unsigned)
WEFT_CUDA_EMULATE_INTEGER_ATOMICS(unsigned long long)
WEFT_CUDA_EMULATE_INTEGER_ATOMICS(long long)
#undef WEFT_CUDA_EMULATE_INTEGER_ATOMICS

namespace weft_cuda_emulate {
/// *p = op(*p, v) atomically on a floating-point value, through its bits.
template <typename WeftT, typename WeftBits, typename WeftOp>
static WeftT floatAtomic(WeftT *p, WeftT v, WeftOp op) {
  static_assert(sizeof(WeftT) == sizeof(WeftBits), "bit pattern of another size");
  WeftBits *bits = reinterpret_cast<WeftBits *>(p);
  WeftBits old = __atomic_load_n(bits, __ATOMIC_SEQ_CST);
  for (;;) {
    WeftT oldValue, newValue;
    memcpy(&oldValue, &old, sizeof(WeftT));
    newValue = op(oldValue, v);
    WeftBits desired;
    memcpy(&desired, &newValue, sizeof(WeftT));
    if (__atomic_compare_exchange_n(bits, &old, desired, false,
                                    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
      return oldValue;
  }
}
} // namespace weft_cuda_emulate

static inline double atomicAdd(double *p, double v) {
  return weft_cuda_emulate::floatAtomic<double, uint64_t>(
      p, v, [](double a, double b) { return a + b; });
}
static inline float atomicAdd(float *p, float v) {
  return weft_cuda_emulate::floatAtomic<float, uint32_t>(
      p, v, [](float a, float b) { return a + b; });
}
static inline double atomicExch(double *p, double v) {
  return weft_cuda_emulate::floatAtomic<double, uint64_t>(
      p, v, [](double, double b) { return b; });
}
static inline float atomicExch(float *p, float v) {
  return weft_cuda_emulate::floatAtomic<float, uint32_t>(
      p, v, [](float, float b) { return b; });
}

//===----------------------------------------------------------------------===//
// What the emulation rejects
//===----------------------------------------------------------------------===//

// Threads of a block run one after another, not as warps in lockstep: code
// that relies on warps (beyond __shfl_down_sync) does not compile. The
// assertion fires where it is used.
#define WEFT_CUDA_EMULATE_NO_WARPS(name)                                       \
  template <typename... WeftArgs> static inline unsigned name(WeftArgs...) {           \
    static_assert(sizeof...(WeftArgs) < 0,                                         \
                  "weft CUDA emulation cannot run " #name                      \
                  ": the threads of a block are not run as warps");          \
    return 0;                                                                  \
  }
WEFT_CUDA_EMULATE_NO_WARPS(__shfl_sync)
WEFT_CUDA_EMULATE_NO_WARPS(__shfl_up_sync)
WEFT_CUDA_EMULATE_NO_WARPS(__shfl_xor_sync)
WEFT_CUDA_EMULATE_NO_WARPS(__ballot_sync)
WEFT_CUDA_EMULATE_NO_WARPS(__any_sync)
WEFT_CUDA_EMULATE_NO_WARPS(__all_sync)
WEFT_CUDA_EMULATE_NO_WARPS(__match_any_sync)
WEFT_CUDA_EMULATE_NO_WARPS(__syncwarp)
WEFT_CUDA_EMULATE_NO_WARPS(__activemask)
#undef WEFT_CUDA_EMULATE_NO_WARPS
#define warpSize weft_CUDA_emulation_cannot_run_code_that_uses_warpSize

//===----------------------------------------------------------------------===//
// Warp shuffles
//===----------------------------------------------------------------------===//

/// The value of lane `lane + delta` of the warp, within segments of `width`
/// lanes (the lane's own value past its segment's end).
template <typename WeftT>
static inline WeftT __shfl_down_sync(unsigned mask, WeftT value,
                                     unsigned delta, int width = 32) {
  static_assert(sizeof(WeftT) <= 8 && std::is_trivially_copyable_v<WeftT>,
                "__shfl_down_sync moves values of at most 8 bytes");
  using namespace weft_cuda_emulate;
  unsigned threads = blockDim.x * blockDim.y * blockDim.z;
  if (mask != 0xffffffffu || threads % 32 != 0 || width < 1 || width > 32 ||
      (width & (width - 1)) != 0)
    stop("__shfl_down_sync(0x%x, ..., %u, %d) in a block of %u threads: "
         "only every lane of whole warps, in segments of a power of two "
         "lanes, is emulated",
         mask, delta, width, threads);
  unsigned warp = running / 32, lane = running % 32;
  Warp &w = warps[warp];
  memcpy(w.values[lane], &value, sizeof value);
  w.deltas[lane] = delta;
  w.widths[lane] = width;
  if (++w.arrived < 32) {
    waitFor(Wait::Shuffle);
  } else {
    // The last lane to arrive hands each lane its value and releases them.
    w.arrived = 0;
    for (unsigned l = 0; l < 32; ++l) {
      unsigned from = l % unsigned(w.widths[l]) + w.deltas[l] <
                              unsigned(w.widths[l])
                          ? l + w.deltas[l]
                          : l;
      memcpy(w.results[l], w.values[from], sizeof value);
      fibers[warp * 32 + l].wait = Wait::Nothing;
    }
  }
  WeftT result;
  memcpy(&result, w.results[lane], sizeof result);
  return result;
}

//===----------------------------------------------------------------------===//
// Launches
//===----------------------------------------------------------------------===//

namespace weft_cuda_emulate {

/// Whether every pointer argument of a kernel is device memory (or null).
template <typename WeftT> static bool deviceArgument(const char *kernel, int index,
                                                 const WeftT &arg) {
  if constexpr (std::is_pointer_v<WeftT>) {
    if (arg && !onDevice(arg, 1)) {
      fail(cudaErrorInvalidValue,
           "kernel %s: argument %d (%p) is not device memory", kernel, index,
           static_cast<const void *>(arg));
      return false;
    }
  }
  return true;
}

template <typename... WeftParams, typename... WeftArgs>
static void launch(const char *name, void (*kernel)(WeftParams...), dim3 grid,
                   dim3 block, size_t sharedBytes, WeftArgs... args) {
  unsigned long long threads =
      (unsigned long long)block.x * block.y * block.z;
  if (threads == 0 || grid.x == 0 || grid.y == 0 || grid.z == 0 ||
      block.x > 1024 || block.y > 1024 || block.z > 64 || threads > 1024 ||
      grid.y > 65535 || grid.z > 65535) {
    fail(cudaErrorInvalidConfiguration,
         "kernel %s: grid (%u, %u, %u) of blocks (%u, %u, %u) is not a "
         "valid CUDA launch",
         name, grid.x, grid.y, grid.z, block.x, block.y, block.z);
    return;
  }
  if (threads > WEFT_CUDA_EMULATE_MAX_THREADS) {
    fail(cudaErrorNotSupported,
         "kernel %s: a block of %llu threads is over the emulation's limit "
         "of %d (WEFT_CUDA_EMULATE_MAX_THREADS)",
         name, threads, WEFT_CUDA_EMULATE_MAX_THREADS);
    return;
  }
  if (sharedBytes != 0) {
    fail(cudaErrorNotSupported,
         "kernel %s: dynamic shared memory (%zu bytes) is not emulated", name,
         sharedBytes);
    return;
  }
  int index = 0;
  bool ok = (deviceArgument(name, index++, args) && ...);
  if (!ok)
    return;
  if (!reserveStacks(unsigned(threads))) {
    fail(cudaErrorMemoryAllocation,
         "kernel %s: no memory for the stacks of %llu emulated threads", name,
         threads);
    return;
  }
  gridDim = grid;
  blockDim = block;
  kernelBody = [=] { kernel(args...); };
  for (unsigned z = 0; z < grid.z; ++z)
    for (unsigned y = 0; y < grid.y; ++y)
      for (unsigned x = 0; x < grid.x; ++x) {
        blockIdx = {x, y, z};
        runBlock(unsigned(threads), (x + grid.x * (y + grid.y * z)) % 2);
      }
  kernelBody = nullptr;
}

} // namespace weft_cuda_emulate

/// `kernel<<<grid, block, sharedBytes>>>(args...)`.
#define WEFT_CUDA_EMULATE_LAUNCH(kernel, grid, block, sharedBytes, ...)        \
  weft_cuda_emulate::launch(#kernel, kernel, grid, block, sharedBytes,         \
                            ##__VA_ARGS__)

#endif // WEFT_CUDA_EMULATE_H
