// RUN: bash %S/../run-mpi.sh %s %t 1 2 3 4 6 7
/* Stores under `if` conditions on iterators and parameters written with
   &&, ||, !, != and ?: (the C front end gives scf.if, not affine.if): the
   model keeps their exact constraints, so these loops are distributed and
   exchange exactly the halos they need. Boundary rows handled apart from the
   interior, a diagonal, a checkerboard-like mask with a runtime size, and a
   condition on data that stays a may-read. Downward loops, whose C
   iterator the front end computes from a normalised one, too. */
#include <stdio.h>
#define N 29
double A[N][N], B[N][N], C[N], D[N];

static void kernel(int n, int steps) {
  int i, j, t;
#pragma scop
  for (t = 0; t < steps; t++) {
#pragma weft distribute(i: block)
    for (i = 0; i < n; i++)
      for (j = 0; j < n; j++)
        if (i == 0 || i == n - 1 || !(j > 0) || j == n - 1)
          B[i][j] = A[i][j];
        else
          B[i][j] = 0.25 * (A[i - 1][j] + A[i + 1][j] + A[i][j - 1] + A[i][j + 1]);
#pragma weft distribute(i: block)
    for (i = 0; i < n; i++)
      for (j = 0; j < n; j++)
        if ((i > 2 && j != i) || (i <= 2 ? j < 3 : j == i))
          A[i][j] = B[i][j] + 0.5 * (i != j);
  }
#pragma weft distribute(i: block)
  for (i = 0; i < n; i++)
    C[i] = (i + 1 < n && A[i][i] > 0.5) ? B[i + 1][i] : A[i][n - 1 - i];
#pragma weft distribute(i: block)
  for (i = n - 1; i >= 0; i--) {
    if (i > 3 && i != n - 2)
      D[i] = A[i][1] * 3.0;
    D[i] += i == 0 ? 1.0 : C[i - 1];
  }
#pragma endscop
}

int main(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      A[i][j] = (double)((i * 5 + j * 3) % 7) / 3.0;
  kernel(N - 2, 3);
  for (int i = 0; i < N; i++) {
    for (int j = 0; j < N; j++)
      printf("%.17g ", A[i][j]);
    printf("%.17g %.17g\n", C[i], D[i]);
  }
  return 0;
}
