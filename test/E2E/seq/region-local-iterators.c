// RUN: bash %S/../run-seq.sh %s %t
// RUN: WEFT_TARGET=cuda bash %S/../run-seq.sh %s %t.cuda
// RUN: bash %S/../run-mpi.sh %s %t
// Iterators declared inside the region, in a nested block.
#include <stdio.h>
int main(void) {
  double A[10];
#pragma scop
  {
    int i, j = 3;
    for (i = 0; i < 10; i++)
      A[i] = i * 0.5;
    for (i = 9; i > 0; i--)
      for (j = 0; j < i; j++)
        A[j] += A[i];
  }
#pragma endscop
  for (int k = 0; k < 10; k++) printf("%g ", A[k]);
  printf("\n");
  return 0;
}
