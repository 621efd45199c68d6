// Over a 2-D grid, a private array is stored as the rank's block of rows
// and columns (plus halos), not as whole rows: A and B (32 MiB each) are
// initialised and swept inside the region over a 2 x 2 grid at 4 ranks,
// and only a sample of A leaves it. The largest rank's peak resident
// memory at 4 ranks must be at least 40 MiB below the single rank's; with
// only the rows narrowed (half of each array per rank) it is 32 MiB.
// REQUIRES: mpicc, mpirun
// RUN: bash %S/../run-mpi.sh %s %t 1 4
// RUN: weft compile --report %s -o %t.c 2>&1 | FileCheck %s
// RUN: mpicc -O2 -Wall -Werror %t.c -o %t.exe -lm
// RUN: env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none WEFT_STATS=1 mpirun --oversubscribe -np 1 %t.exe 2>%t.1.stats >/dev/null
// RUN: env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none WEFT_STATS=1 mpirun --oversubscribe -np 4 %t.exe 2>%t.4.stats >/dev/null
// RUN: python3 -c "import re,sys; peak=lambda f: int(re.search(r'peak memory per rank \d+ to (\d+) bytes', open(f).read()).group(1)); one, four = peak(sys.argv[1]), peak(sys.argv[2]); print(one, four); sys.exit(0 if one - four >= 40 << 20 else 1)" %t.1.stats %t.4.stats
// Both arrays are narrowed along both dimensions:
// CHECK: remark: stored rank-locally: (double *)(A): each rank allocates the indices {{.*}} of dimension 0 and {{.*}} of dimension 1
// CHECK: remark: stored rank-locally: (double *)(B): each rank allocates the indices {{.*}} of dimension 0 and {{.*}} of dimension 1
#include <stdio.h>

#define N 2048
#define T 3
#define S 8

static double A[N][N], B[N][N];
double sample[N / S][N / S];

int main(void) {
  int t, i, j;
#pragma scop
#pragma weft distribute(i: block, j: block)
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++) {
      A[i][j] = (i + 3 * j) % 7;
      B[i][j] = 0.0;
    }
  for (t = 0; t < T; t++) {
#pragma weft distribute(i: block, j: block)
    for (i = 1; i < N - 1; i++)
      for (j = 1; j < N - 1; j++)
        B[i][j] = 0.25 * (A[i - 1][j] + A[i + 1][j] + A[i][j - 1] + A[i][j + 1]);
#pragma weft distribute(i: block, j: block)
    for (i = 1; i < N - 1; i++)
      for (j = 1; j < N - 1; j++)
        A[i][j] = B[i][j];
  }
#pragma weft distribute(i: block, j: block)
  for (i = 0; i < N / S; i++)
    for (j = 0; j < N / S; j++)
      sample[i][j] = A[S * i][S * j] + B[S * i + 1][S * j + 1];
#pragma endscop
  /* Other counters: an iterator read after the region keeps its final
     value, which the nest would have to store. */
  for (int r = 0; r < N / S; r += 17) {
    for (int c = 0; c < N / S; c += 13)
      printf("%.17g ", sample[r][c]);
    printf("\n");
  }
  return 0;
}
