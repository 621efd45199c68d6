// Per-rank memory falls with the number of ranks when the arrays are
// private to the region: A and B (32 MiB each) are initialised, swept and
// reduced inside it, and each rank allocates only its rows plus halos
// (weft_rt_alloc). The peak resident memory of the largest rank at 4
// ranks must be at least 32 MiB (half the arrays) below the single rank's;
// with every array whole on every rank, or gathered on rank 0, it is not.
// REQUIRES: mpicc, mpirun
// RUN: bash %S/../run-mpi.sh %s %t 1 4
// RUN: weft compile %s -o %t.c
// RUN: grep -c "^ *double \*[AB]_local = weft_rt_alloc(" %t.c | FileCheck %s --check-prefix=ALLOC
// RUN: mpicc -O2 -Wall -Werror %t.c -o %t.exe -lm
// RUN: env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none WEFT_STATS=1 mpirun --oversubscribe -np 1 %t.exe 2>%t.1.stats >/dev/null
// RUN: env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none WEFT_STATS=1 mpirun --oversubscribe -np 4 %t.exe 2>%t.4.stats >/dev/null
// RUN: python3 -c "import re,sys; peak=lambda f: int(re.search(r'peak memory per rank \d+ to (\d+) bytes', open(f).read()).group(1)); one, four = peak(sys.argv[1]), peak(sys.argv[2]); print(one, four); sys.exit(0 if one - four >= 32 << 20 else 1)" %t.1.stats %t.4.stats
// One allocation for each array:
// ALLOC: 2
#include <stdio.h>

#define N 4096
#define M 1024
#define T 3

static double A[N][M], B[N][M];

int main(void) {
  int t, i, j;
  double sum = 0.0;
#pragma scop
  for (i = 0; i < N; i++)
    for (j = 0; j < M; j++) {
      A[i][j] = (i + 3 * j) % 7;
      B[i][j] = 0.0;
    }
  for (t = 0; t < T; t++) {
    for (i = 1; i < N - 1; i++)
      for (j = 1; j < M - 1; j++)
        B[i][j] = 0.25 * (A[i - 1][j] + A[i + 1][j] + A[i][j - 1] + A[i][j + 1]);
    for (i = 1; i < N - 1; i++)
      for (j = 1; j < M - 1; j++)
        A[i][j] = B[i][j];
  }
  for (i = 0; i < N; i++)
    for (j = 0; j < M; j++)
      sum += A[i][j];
#pragma endscop
  printf("%.17g\n", sum);
  return 0;
}
