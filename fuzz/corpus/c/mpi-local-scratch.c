// RUN: bash %S/../run-mpi.sh %s %t 1 2 3 4 6 7
/* '#pragma weft local': a scratch row rewritten in every iteration of a
   distributed loop, kept per rank and never communicated; a later nest reads
   the rows other ranks computed (halo), and a scalar-indexed 2-D scratch is
   local too. Sizes that no rank count divides. */
#include <stdio.h>
#define N 37
#define M 23
double A[N][M], B[N][M], tmp[M], tmp2[2][M], C[N];
static void kernel(void) {
  int i, j;
#pragma scop
#pragma weft local(tmp, tmp2)
#pragma weft distribute(i: block)
  for (i = 0; i < N; i++) {
    for (j = 0; j < M; j++)
      tmp[j] = 2.0 * A[i][j] + 1.0;
    for (j = 0; j < M; j++) {
      tmp2[0][j] = tmp[j] * tmp[j];
      tmp2[1][j] = tmp[j] - A[i][M - 1 - j];
    }
    for (j = 1; j < M - 1; j++)
      B[i][j] = tmp[j - 1] + tmp2[0][j] + tmp2[1][j + 1];
  }
  for (i = 1; i < N - 1; i++)
    C[i] = B[i - 1][3] + B[i + 1][M - 4];
#pragma endscop
}
int main(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++)
      A[i][j] = (double)((i * 7 + j * 3) % 11) / 5.0;
  kernel();
  double s = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++)
      s += B[i][j] * (i + 1) - j;
  printf("%.17g\n", s);
  for (int i = 0; i < N; i++)
    printf("%.17g ", C[i]);
  printf("\n");
  return 0;
}
