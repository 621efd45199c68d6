// RUN: bash %S/../run-seq.sh %s %t
// RUN: WEFT_TARGET=cuda WEFT_RTOL=1e-12 bash %S/../run-seq.sh %s %t.cuda
// RUN: WEFT_TARGET=cuda WEFT_FLAGS=--fp-reductions=ordered bash %S/../run-seq.sh %s %t.cuda-ordered
// RUN: bash %S/../run-mpi.sh %s %t
/* Correlation matrix: column means, standard deviations with sqrt and a ?:
   guard against tiny values, centring/scaling, then the symmetric product
   with a triangular j loop.  The sample count is a double scalar. */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#ifndef M
#define M 23
#endif
#ifndef N
#define N 31
#endif

static void kernel_correlation(int m, int n, double float_n, double data[n][m],
                               double corr[m][m], double mean[m], double stddev[m])
{
  int i, j, k;
  double eps = 0.1;

#pragma scop
  for (j = 0; j < m; j++) {
    mean[j] = 0.0;
    for (i = 0; i < n; i++)
      mean[j] += data[i][j];
    mean[j] /= float_n;
  }
  for (j = 0; j < m; j++) {
    stddev[j] = 0.0;
    for (i = 0; i < n; i++)
      stddev[j] += (data[i][j] - mean[j]) * (data[i][j] - mean[j]);
    stddev[j] /= float_n;
    stddev[j] = sqrt(stddev[j]);
    stddev[j] = stddev[j] <= eps ? 1.0 : stddev[j];
  }
  for (i = 0; i < n; i++)
    for (j = 0; j < m; j++) {
      data[i][j] -= mean[j];
      data[i][j] /= sqrt(float_n) * stddev[j];
    }
  for (i = 0; i < m - 1; i++) {
    corr[i][i] = 1.0;
    for (j = i + 1; j < m; j++) {
      corr[i][j] = 0.0;
      for (k = 0; k < n; k++)
        corr[i][j] += (data[k][i] * data[k][j]);
      corr[j][i] = corr[i][j];
    }
  }
  corr[m - 1][m - 1] = 1.0;
#pragma endscop
}

int main(void)
{
  static double data[N][M], corr[M][M];
  double mean[M], stddev[M];
  int i, j;

  for (i = 0; i < N; i++)
    for (j = 0; j < M; j++)
      data[i][j] = (double)(i * j) / M + i;
  for (j = 0; j < M; j += 5)
    for (i = 0; i < N; i++)
      data[i][j] = 7.0 + (i % 2) * 0.01;   /* nearly constant columns hit eps */
  kernel_correlation(M, N, (double)N, data, corr, mean, stddev);
  for (i = 0; i < M; i++) {
    for (j = 0; j < M; j++)
      printf("%.17g ", corr[i][j]);
    printf("\n");
  }
  for (j = 0; j < M; j++)
    printf("mean %.17g stddev %.17g\n", mean[j], stddev[j]);
  return 0;
}
