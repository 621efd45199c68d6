// RUN: WEFT_RTOL=1e-12 bash %S/../run-mpi.sh %s %t 1 2 3 4 5 6 7
/* Reductions split across ranks and combined with MPI_Allreduce: sums,
   products, fmax/fmin and an integer count into arrays, inside a time loop
   (the accumulators carry over from one execution to the next); a scalar
   sum over a triangle; a triangular update whose accumulators are first
   updated at different iterations. More ranks than some loops have
   iterations. Floating-point results may differ by rounding only (1e-12
   relative). */
#include <stdio.h>
#include <math.h>
#define N 23
#define M 17
#define T 3
double A[N][M], colsum[M], colmax[M], colmin[M], prodv[M], tri[N], total;
long icount[M];
static void kernel(void) {
  int i, j, t;
#pragma scop
  for (j = 0; j < M; j++) {
    colsum[j] = 0.5 * j;
    colmax[j] = -1e30;
    colmin[j] = 1e30;
    prodv[j] = 1.0;
    icount[j] = j;
  }
  for (t = 0; t < T; t++) {
#pragma weft distribute(i: block)
    for (i = 0; i < N; i++)
      for (j = 0; j < M; j++) {
        colsum[j] = colsum[j] + A[i][j] * (t + 1);
        colmax[j] = fmax(colmax[j], A[i][j] + t);
        colmin[j] = fmin(colmin[j], A[i][j] - t);
        icount[j] += (long)(A[i][j] * 10);
      }
#pragma weft distribute(i: block)
    for (i = 0; i < N; i++)
      for (j = 0; j < M; j++)
        prodv[j] = prodv[j] * (1.0 + A[i][j] / 64.0);
  }
#pragma weft distribute(i: block)
  for (i = 0; i < N; i++) {
    tri[i] = 0;
    for (j = 0; j <= i && j < M; j++)
      total = total + A[i][j];
  }
#pragma weft distribute(i: block)
  for (i = 0; i < N; i++)
    for (j = i; j < N; j++)
      tri[j] = tri[j] + A[i][0] * (j - i);
#pragma endscop
}
int main(void) {
  int i, j;
  for (i = 0; i < N; i++)
    for (j = 0; j < M; j++)
      A[i][j] = (double)((i * 7 + j * 3) % 11) / 5.0 - 0.9;
  total = 1.5;
  kernel();
  for (j = 0; j < M; j++)
    printf("%d %.17g %.17g %.17g %.17g %ld\n", j, colsum[j], colmax[j], colmin[j], prodv[j], icount[j]);
  for (i = 0; i < N; i++) printf("tri %d %.17g\n", i, tri[i]);
  printf("total %.17g\n", total);
  return 0;
}
