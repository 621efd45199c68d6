/* What one CPU core of this machine does, for the CPU side of weft's cost
 * model (include/weft/CostModel/Device.h, the `cpu` device, or a CPU
 * description `weft compile --cpu=FILE` reads):
 *   - the bytes per second a vectorised loop loads and stores in L1
 *     (b[i] += a[i] * c over 16 KiB each: two loads and a store a element);
 *   - the bytes per second it reads from each level beyond: a buffer that
 *     fits L2, L3 or none, summed over and over (8 independent integer
 *     sums: the loads, not the adds, bound it);
 *   - the bytes per second all the node's cores read from memory together
 *     (one process per online core, each over a buffer of its own, started
 *     together; their rates summed);
 *   - its fp64 multiply-adds per second (12 independent vectors of 8
 *     doubles: the throughput, not the latency, bounds them);
 *   - the nanoseconds of a dependent floating-point add and of a dependent
 *     division and add (the chains a loop carries through an accumulator or
 *     a recurrence).
 *
 *   cc -O3 -march=native bench/cpu-core.c -o cpu-core && ./cpu-core
 *   ./cpu-core --json > cpu.json      # a CPU description for weft compile
 *
 * With --json it prints the description (docs/cost-model.md, "A CPU of your
 * own"): the figures above, the caches' sizes as sysconf reports them (0
 * where it does not, which weft rejects; a virtual machine may report its
 * host's: edit them where they are wrong)
 * and the doubles of the widest vectors the compiler was allowed.
 *
 * Best of 5 for each figure. Not a test: it prints what it measures. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

/* Bytes per second reading `bytes` of memory `passes` times. */
static double readRate(const uint64_t *a, size_t words, long passes) {
  double best = 0;
  for (int r = 0; r < 5; ++r) {
    uint64_t s[8] = {0};
    double t0 = now();
    for (long p = 0; p < passes; ++p)
      for (size_t i = 0; i < words; i += 8)
        for (int k = 0; k < 8; ++k)
          s[k] += a[i + k];
    double t = now() - t0;
    uint64_t sum = 0;
    for (int k = 0; k < 8; ++k)
      sum += s[k];
    if (sum == 42)
      printf(" ");
    double rate = (double)words * 8 * passes / t;
    if (rate > best)
      best = rate;
  }
  return best;
}

/* readRate over a fresh buffer of `bytes`. */
static double readRateOf(size_t bytes, int seed) {
  size_t words = bytes / 8;
  uint64_t *a = malloc(words * 8);
  if (!a) {
    fprintf(stderr, "cpu-core: cannot allocate %zu bytes\n", bytes);
    exit(1);
  }
  for (size_t i = 0; i < words; ++i)
    a[i] = i * seed;
  long passes = (long)(4e9 / bytes) + 1;
  double rate = readRate(a, words, passes);
  free(a);
  return rate;
}

/* What `cores` processes read from memory at once, summed: each reads a
 * buffer of its own, none of which a cache holds. */
static double nodeReadRate(int cores, int seed) {
  size_t each = (size_t)512 << 20;
  each /= cores;
  if (each < ((size_t)64 << 20))
    each = (size_t)64 << 20;
  int fds[2];
  if (pipe(fds) != 0) {
    perror("cpu-core: pipe");
    exit(1);
  }
  for (int c = 0; c < cores; ++c) {
    pid_t pid = fork();
    if (pid < 0) {
      perror("cpu-core: fork");
      exit(1);
    }
    if (pid == 0) {
      double rate = readRateOf(each, seed);
      if (write(fds[1], &rate, sizeof rate) != sizeof rate)
        _exit(1);
      _exit(0);
    }
  }
  close(fds[1]);
  double sum = 0, rate;
  int got = 0;
  while (read(fds[0], &rate, sizeof rate) == sizeof rate) {
    sum += rate;
    ++got;
  }
  close(fds[0]);
  while (wait(NULL) > 0) {
  }
  if (got != cores) {
    fprintf(stderr, "cpu-core: %d of %d readers reported\n", got, cores);
    exit(1);
  }
  return sum;
}

/* Bytes per second b[i] += a[i] * c loads and stores over `n` doubles. */
static double loadStoreRate(double *a, double *b, int n, long passes) {
  double best = 0;
  for (int r = 0; r < 5; ++r) {
    double t0 = now();
    for (long p = 0; p < passes; ++p) {
      for (int i = 0; i < n; ++i)
        b[i] = b[i] + a[i] * 1.0000001;
      __asm__ volatile("" ::: "memory"); /* keep every pass */
    }
    double rate = 24.0 * n * passes / (now() - t0);
    if (rate > best)
      best = rate;
  }
  return best;
}

/* Floating-point operations per second of fp64 multiply-adds on 12
 * independent vectors of 8 doubles (the compiler splits them where its
 * vectors are narrower). */
typedef double v8d __attribute__((vector_size(64)));
static double fmaRate(double seed, long iterations) {
  double best = 0;
  for (int r = 0; r < 5; ++r) {
    const v8d lanes = {0, 1, 2, 3, 4, 5, 6, 7};
    v8d acc[12];
    for (int k = 0; k < 12; ++k)
      acc[k] = (lanes + k) * seed;
    const v8d m = lanes * 0 + 0.999999, c = lanes * 0 + 1e-9 * seed;
    double t0 = now();
    for (long i = 0; i < iterations; ++i) {
#pragma GCC unroll 12
      for (int k = 0; k < 12; ++k)
        acc[k] = acc[k] * m + c;
    }
    double t = now() - t0;
    double sum = 0;
    for (int k = 0; k < 12; ++k)
      sum += acc[k][0] + acc[k][7];
    if (sum == 42)
      printf(" ");
    double rate = 2.0 * 12 * 8 * iterations / t;
    if (rate > best)
      best = rate;
  }
  return best;
}

/* Doubles of the widest vector registers this compile may use. */
static int vectorDoubles(void) {
#if defined(__AVX512F__)
  return 8;
#elif defined(__AVX__)
  return 4;
#else
  return 2;
#endif
}

static double cacheKiB(int name) {
  long bytes = sysconf(name);
  return bytes > 0 ? bytes / 1024.0 : 0;
}

int main(int argc, char **argv) {
  int json = argc > 1 && strcmp(argv[1], "--json") == 0;
  if (argc > 1 && !json) {
    fprintf(stderr, "usage: cpu-core [--json]\n");
    return 2;
  }
  double loadStore;
  {
    static double a[2048] __attribute__((aligned(64)));
    static double b[2048] __attribute__((aligned(64)));
    for (int i = 0; i < 2048; ++i)
      a[i] = i * argc;
    loadStore = loadStoreRate(a, b, 2048, 1000000);
    if (b[5] == 42)
      printf(" ");
  }
  static const size_t sizes[] = {512 << 10, 8 << 20, (size_t)512 << 20};
  double reads[3];
  for (unsigned k = 0; k < 3; ++k)
    reads[k] = readRateOf(sizes[k], argc);
  long online = sysconf(_SC_NPROCESSORS_ONLN);
  int cores = online > 0 ? (int)online : 1;
  double node = nodeReadRate(cores, argc);
  double flops = fmaRate(argc, 50000000);
  /* Dependent chains: the compiler may not reassociate them. */
  long n = 200000000;
  double x = 1e-9 * argc, best = 1e30, bestDiv = 1e30, s = 0, y = 1;
  double z = 1.0000001 * argc;
  for (int r = 0; r < 5; ++r) {
    double t0 = now();
    for (long i = 0; i < n; ++i)
      s += x;
    double t = (now() - t0) / n;
    best = t < best ? t : best;
    t0 = now();
    for (long i = 0; i < n / 10; ++i)
      y = y / z + x;
    t = (now() - t0) / (n / 10);
    bestDiv = t < bestDiv ? t : bestDiv;
  }
  if (json) {
    printf("{\n");
    printf("  \"cores\": %d,\n", cores);
    printf("  \"l1_KiB\": %.0f,\n", cacheKiB(_SC_LEVEL1_DCACHE_SIZE));
    printf("  \"l2_KiB\": %.0f,\n", cacheKiB(_SC_LEVEL2_CACHE_SIZE));
    printf("  \"l3_KiB\": %.0f,\n", cacheKiB(_SC_LEVEL3_CACHE_SIZE));
    printf("  \"load_store_GBps\": %.1f,\n", loadStore / 1e9);
    printf("  \"l2_read_GBps\": %.1f,\n", reads[0] / 1e9);
    printf("  \"l3_read_GBps\": %.1f,\n", reads[1] / 1e9);
    printf("  \"memory_read_GBps\": %.1f,\n", reads[2] / 1e9);
    printf("  \"node_memory_read_GBps\": %.1f,\n", node / 1e9);
    printf("  \"fp64_GFLOPS\": %.1f,\n", flops / 1e9);
    printf("  \"vector_doubles\": %d,\n", vectorDoubles());
    printf("  \"fp_latency_ns\": %.2f,\n", best * 1e9);
    printf("  \"fp_divide_latency_ns\": %.2f\n", (bestDiv - best) * 1e9);
    printf("}\n");
  } else {
    printf("load and store in L1     %6.1f GB/s\n", loadStore / 1e9);
    printf("read from L2 (512 KiB)   %6.1f GB/s\n", reads[0] / 1e9);
    printf("read from L3 (8 MiB)     %6.1f GB/s\n", reads[1] / 1e9);
    printf("read from memory (512 MiB) %4.1f GB/s\n", reads[2] / 1e9);
    printf("%d cores reading memory %6.1f GB/s in all\n", cores, node / 1e9);
    printf("fp64 multiply-adds       %6.1f GFLOPS\n", flops / 1e9);
    printf("dependent add          %6.2f ns\n", best * 1e9);
    printf("dependent divide + add %6.2f ns\n", bestDiv * 1e9);
  }
  return s + y == 42;
}
