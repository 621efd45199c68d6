// RUN: bash %S/../run-seq.sh %s %t
// RUN: WEFT_TARGET=cuda WEFT_RTOL=1e-12 bash %S/../run-seq.sh %s %t.cuda
// RUN: WEFT_RTOL=1e-12 bash %S/../run-mpi.sh %s %t
// RUN: WEFT_FLAGS=--fp-reductions=ordered bash %S/../run-mpi.sh %s %t.ordered
/* Integer widths and conversions inside a region: narrowing to char and
   short (wrap-around, as gcc defines it), signed char / long long arrays, int<->float<->double conversions
   (truncation toward zero of negative values), / and % by negative
   constants, shifts by a variable amount and of a negative value, ++/--,
   comparisons used as int values, reversed subscripts, and global scalars
   written in the region.  (Unsigned types are left out: weft rejects them.) */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#ifndef N
#define N 83
#endif

char U[N];
signed char S[N];
short H[N];
int I[N], J[N];
long long LL[N];
float F[N];
double D[N], R[N];
double gsum;
int gcount;

static void kernel_conversions(int n)
{
  int i;

#pragma scop
  for (i = 0; i < n; i++)
    U[i] = i * 37 + 250;
  for (i = 0; i < n; i++)
    S[i] = U[i] - 128;
  for (i = 0; i < n; i++)
    H[i] = S[i] * 200 + i * 1237 + 23000;
  for (i = 0; i < n; i++)
    I[i] = H[i] / -7 + H[i] % -5 + (i << (i % 5)) + (-i >> 1) + (i % 9 - 4) / 2;
  for (i = 0; i < n; i++)
    LL[i] = (long long)I[i] * 100003 + H[i] * (long long)S[i];
  for (i = 0; i < n; i++) {
    F[i] = I[i] * 0.37f;
    D[i] = F[i] / 3 + I[i] + LL[i] % 1000;
  }
  for (i = 0; i < n; i++)
    J[i] = (int)(D[i] * 1.7) + (int)F[i];
  for (i = 0; i < n; i++) {
    U[i]++;
    S[i]--;
    H[i] += 3;
    ++J[i];
    --LL[i];
  }
  for (i = 0; i < n; i++)
    R[i] = D[n - 1 - i] * 0.5 + (U[i] > 100) - (S[i] < -50) * 2;
  for (i = 0; i < n; i++) {
    gsum += R[i] / (1 + (i & 3));
    gcount += J[i] > 0;
  }
#pragma endscop
}

int main(void)
{
  int i;

  gsum = 0.25;
  gcount = -3;
  kernel_conversions(N);
  for (i = 0; i < N; i++)
    printf("%d u=%d s=%d h=%d i=%d j=%d ll=%lld f=%a d=%.17g r=%.17g\n", i, U[i], S[i], H[i],
           I[i], J[i], LL[i], F[i], D[i], R[i]);
  printf("gsum = %.17g gcount = %d\n", gsum, gcount);
  return 0;
}
