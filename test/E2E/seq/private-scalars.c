// RUN: bash %S/../run-seq.sh %s %t
// RUN: WEFT_TARGET=cuda WEFT_RTOL=1e-12 bash %S/../run-seq.sh %s %t.cuda
// RUN: WEFT_TARGET=cuda WEFT_RTOL=1e-12 bash %S/../run-seq.sh %s %t.cuda-odd -DN=61 -DM=5
// RUN: WEFT_RTOL=1e-12 bash %S/../run-mpi.sh %s %t.mpi 1 3
// RUN: WEFT_RTOL=1e-12 WEFT_TARGET=mpi-cuda bash %S/../run-mpi.sh %s %t.mpi-cuda 1 2
/* Scalars between host code and kernels (docs/cuda.md): a scalar declared
   in the region, computed on the host and read by a kernel (its device copy
   is made from its address); scalars declared before the region but private
   to it (gpu-localize-scalars): a temporary each thread of a parallel loop
   has its own copy of (symm's temp2), and a norm a kernel reduces into
   that host code then reads (gramschmidt's nrm); and a scalar read after
   the region, which stays an argument. */
#include <math.h>
#include <stdio.h>

#ifndef N
#define N 300
#endif
#ifndef M
#define M 40
#endif

static double A[N][M], B[N][M], col[M];

static double kernel(int n, int m) {
  double temp, nrm, last = 0.0;
  int i, j, k;
#pragma scop
  {
    double scale = A[1][1] * 0.5 + 1.0;
    for (i = 0; i < n; i++)
      for (j = 0; j < m; j++)
        B[i][j] = scale * A[i][j];
  }
  for (j = 0; j < m; j++) {
    temp = 0.0;
    for (k = 0; k < n; k++)
      temp += B[k][j] * B[k][j];
    col[j] = temp;
  }
  for (k = 0; k < m; k++) {
    nrm = 0.0;
    for (i = 0; i < n; i++)
      nrm += A[i][k] * A[i][k];
    nrm = sqrt(nrm);
    for (i = 0; i < n; i++)
      A[i][k] = A[i][k] / nrm;
    last = nrm;
  }
#pragma endscop
  return last;
}

int main(void) {
  int i, j;
  for (i = 0; i < N; i++)
    for (j = 0; j < M; j++)
      A[i][j] = (double)((i * 7 + j * 11) % 13 + 1) / 8.0;
  double last = kernel(N, M);
  printf("last %.15g\n", last);
  for (j = 0; j < M; j += 3)
    printf("col[%d] = %.15g A[%d][%d] = %.15g\n", j, col[j], N / 2, j, A[N / 2][j]);
  return 0;
}
