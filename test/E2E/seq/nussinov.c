// RUN: bash %S/../run-seq.sh %s %t
// RUN: WEFT_TARGET=cuda bash %S/../run-seq.sh %s %t.cuda
// RUN: bash %S/../run-mpi.sh %s %t
/* RNA folding (Nussinov-style) dynamic programming on a char sequence and an
   int table: a decreasing outer loop, guards like if (j-1 >= 0), nested
   if/else and a max written as a ?: macro. */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#ifndef N
#define N 61
#endif

#define max_score(s1, s2) ((s1 >= s2) ? s1 : s2)
#define match(b1, b2) (((b1) + (b2)) == 3 ? 1 : 0)

static void kernel_nussinov(int n, char seq[n], int table[n][n])
{
  int i, j, k;

#pragma scop
  for (i = n - 1; i >= 0; i--) {
    for (j = i + 1; j < n; j++) {
      if (j - 1 >= 0)
        table[i][j] = max_score(table[i][j], table[i][j - 1]);
      if (i + 1 < n)
        table[i][j] = max_score(table[i][j], table[i + 1][j]);
      if (j - 1 >= 0 && i + 1 < n) {
        if (i < j - 1)
          table[i][j] = max_score(table[i][j], table[i + 1][j - 1] + match(seq[i], seq[j]));
        else
          table[i][j] = max_score(table[i][j], table[i + 1][j - 1]);
      }
      for (k = i + 1; k < j; k++)
        table[i][j] = max_score(table[i][j], table[i][k] + table[k + 1][j]);
    }
  }
#pragma endscop
}

int main(void)
{
  char seq[N];
  static int table[N][N];
  int i, j;

  for (i = 0; i < N; i++)
    seq[i] = (char)((i * 7 + 1) % 4);
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      table[i][j] = 0;
  kernel_nussinov(N, seq, table);
  for (i = 0; i < N; i++) {
    for (j = i; j < N; j++)
      printf("%d ", table[i][j]);
    printf("\n");
  }
  return 0;
}
