/* What one CPU core of this machine does, for the CPU side of weft's cost
 * model (include/weft/CostModel/Device.h, the `cpu` device):
 *   - the bytes per second a vectorised loop loads and stores in L1
 *     (b[i] += a[i] * c over 16 KiB each: two loads and a store a element);
 *   - the bytes per second it reads from each level beyond: a buffer that
 *     fits L2, L3 or none, summed over and over (8 independent integer
 *     sums: the loads, not the adds, bound it);
 *   - the nanoseconds of a dependent floating-point add and of a dependent
 *     division and add (the chains a loop carries through an accumulator or
 *     a recurrence).
 *
 *   cc -O3 -march=native bench/cpu-core.c -o cpu-core && ./cpu-core
 *
 * Best of 5 for each figure. Not a test: it prints what it measures. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

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

int main(int argc, char **argv) {
  (void)argv;
  {
    static double a[2048] __attribute__((aligned(64)));
    static double b[2048] __attribute__((aligned(64)));
    for (int i = 0; i < 2048; ++i)
      a[i] = i * argc;
    double rate = loadStoreRate(a, b, 2048, 1000000);
    printf("load and store in L1     %6.1f GB/s (b[5] = %g)\n", rate / 1e9,
           b[5]);
  }
  static const struct {
    const char *level;
    size_t bytes;
  } sizes[] = {{"L2 (512 KiB)", 512 << 10},
               {"L3 (8 MiB)", 8 << 20},
               {"memory (512 MiB)", (size_t)512 << 20}};
  for (unsigned k = 0; k < sizeof sizes / sizeof *sizes; ++k) {
    size_t words = sizes[k].bytes / 8;
    uint64_t *a = malloc(words * 8);
    for (size_t i = 0; i < words; ++i)
      a[i] = i * argc;
    long passes = (long)(4e9 / sizes[k].bytes) + 1;
    printf("read from %-18s %6.1f GB/s\n", sizes[k].level,
           readRate(a, words, passes) / 1e9);
    free(a);
  }
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
  printf("dependent add          %6.2f ns\n", best * 1e9);
  printf("dependent divide + add %6.2f ns\n", bestDiv * 1e9);
  return s + y == 42;
}
