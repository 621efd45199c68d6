// RUN: bash %S/../run-seq.sh %s %t
// RUN: WEFT_TARGET=cuda bash %S/../run-seq.sh %s %t.cuda
// RUN: bash %S/../run-mpi.sh %s %t
/* All-pairs shortest paths on an int matrix, the minimum written with ?:. */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#ifndef N
#define N 47
#endif

static void kernel_floyd_warshall(int n, int paths[n][n])
{
  int i, j, k;

#pragma scop
  for (k = 0; k < n; k++)
    for (i = 0; i < n; i++)
      for (j = 0; j < n; j++)
        paths[i][j] = paths[i][j] < paths[i][k] + paths[k][j]
                    ? paths[i][j] : paths[i][k] + paths[k][j];
#pragma endscop
}

int main(void)
{
  static int paths[N][N];
  int i, j;

  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++) {
      paths[i][j] = i * j % 7 + 1;
      if ((i + j) % 13 == 0 || (i + j) % 7 == 0 || (i + j) % 11 == 0)
        paths[i][j] = 999;
    }
  kernel_floyd_warshall(N, paths);
  for (i = 0; i < N; i++) {
    for (j = 0; j < N; j++)
      printf("%d ", paths[i][j]);
    printf("\n");
  }
  return 0;
}
