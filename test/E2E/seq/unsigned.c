// RUN: bash %S/../run-seq.sh %s %t
// RUN: WEFT_TARGET=cuda bash %S/../run-seq.sh %s %t.cuda
// RUN: bash %S/../run-mpi.sh %s %t
// Unsigned arithmetic: wrapping multiply (FNV-style hash), unsigned division,
// remainder, shifts, comparisons and conversions to and from double.
#include <stdio.h>
#define N 57
unsigned int h[N];
unsigned char bytes[N];
unsigned long long acc;
int main(void) {
  int i, j;
  unsigned int seed = 2166136261u;
  unsigned short s16 = 65000;
  double d[N];
  for (i = 0; i < N; i++) bytes[i] = (unsigned char)(i * 37 + 11);
#pragma scop
  for (i = 0; i < N; i++) {
    seed = (seed ^ bytes[i]) * 16777619u;
    h[i] = seed >> (i % 13);
    h[i] += h[i] / 7u + h[i] % 1000u;
    if (h[i] > 3000000000u)
      h[i] -= 1u;
    d[i] = (double)h[i] / 4294967296.0 + (h[i] < 100u ? 1.0 : 0.0);
    s16 += (unsigned short)(h[i] & 0xffff);
    acc += (unsigned long long)h[i] * h[i];
  }
  for (i = 1; i < N; i++)
    for (j = 0; j < 3; j++)
      bytes[i] = (unsigned char)(bytes[i] + bytes[i - 1] * 3u - j);
  for (i = 0; i < N; i++)
    h[i] = (unsigned int)(d[i] * 1e9) + (unsigned int)(-i);
#pragma endscop
  for (i = 0; i < N; i++) printf("%u %u %.17g\n", h[i], bytes[i], d[i]);
  printf("%u %u %llu\n", seed, s16, acc);
  return 0;
}
