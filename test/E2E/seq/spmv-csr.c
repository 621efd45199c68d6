// RUN: bash %S/../run-seq.sh %s %t
// RUN: WEFT_TARGET=cuda bash %S/../run-seq.sh %s %t.cuda
// RUN: bash %S/../run-mpi.sh %s %t
// Sparse matrix-vector product in CSR form: inner loop bounds read an array
// (not affine: imported as scf.for, valid because the body never writes ptr).
#include <stdio.h>
int main(void) {
  int ptr[6] = {0, 2, 3, 3, 6, 7}, col[7] = {0, 3, 1, 0, 2, 4, 4};
  double val[7] = {1, 2, 3, 4, 5, 6, 7}, x[5] = {1, 2, 3, 4, 5}, y[5];
  int i, j, k = 3;
#pragma scop
  for (i = 0; i < 5; i++) {
    y[i] = 0;
    for (j = ptr[i]; j < ptr[i + 1]; j++)
      y[i] += val[j] * x[col[j]];
  }
  for (i = 0; i < k; i++)
    y[i] *= 2;
#pragma endscop
  for (i = 0; i < 5; i++) printf("%g\n", y[i]);
  return 0;
}
