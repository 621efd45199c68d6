// RUN: bash %S/../run-seq.sh %s %t
// RUN: WEFT_TARGET=cuda bash %S/../run-seq.sh %s %t.cuda
// RUN: bash %S/../run-mpi.sh %s %t.mpi 1 2 3
/* `long long` and `unsigned long long` scalars and arrays (64 bits like
   int64_t, which is `long` on Linux: the region function must reach them
   through their own type, or gcc -O2's type-based alias analysis may keep a
   stale value: a sum printed 0 before weft.c_type), beside `long`. */
#include <stdio.h>

#ifndef N
#define N 1000
#endif

static long long big[N];
static unsigned long long mask[N];
static long plain[N];

int main(void) {
  long long total = 0, scaled = 0;
  unsigned long long bits = 0;
  long count = 0;
  int i;

  for (i = 0; i < N; i++) {
    big[i] = (long long)(i * 37 % 101) * 1000000007LL;
    mask[i] = 0x9e3779b97f4a7c15ULL * (unsigned long long)(i + 1);
    plain[i] = i % 13;
  }

#pragma scop
  for (i = 0; i < N; i++)
    total += big[i];
  for (i = 0; i < N; i++)
    big[i] = big[i] / 7 + plain[i];
  for (i = 0; i < N; i++)
    scaled += (long long)(i * 3) * 1000003LL;
  for (i = 0; i < N; i++)
    bits = bits ^ mask[i];
  for (i = 0; i < N; i++)
    count += plain[i] > 6 ? 1 : 0;
#pragma endscop

  printf("total %lld scaled %lld bits %llu count %ld\n", total, scaled, bits,
         count);
  for (i = 0; i < N; i += N / 5)
    printf("big[%d] = %lld\n", i, big[i]);
  return 0;
}
