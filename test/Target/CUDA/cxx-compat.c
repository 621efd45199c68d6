// RUN: weft compile --target=cuda %s -o %t.cu
// RUN: grep -v '^// CHECK' %t.cu | FileCheck %s
// RUN: grep -v '^// PREAMBLE' %t.cu | FileCheck %s --check-prefix=PREAMBLE
// RUN: g++ -x c++ -O2 -Wall -Werror -fopenmp -DWEFT_CUDA_EMULATE %t.cu -o %t.emu -lm
// RUN: gcc -O2 %s -o %t.ref -lm
// RUN: %t.ref > %t.ref.out
// RUN: %t.emu > %t.emu.out
// RUN: cmp %t.ref.out %t.emu.out

// The C outside the region is rewritten where C++ differs; the program
// prints what the C program prints.
#include <stdio.h>
#include <stdlib.h>

enum colour { RED, GREEN };

// A variable-length array parameter becomes void * and a local pointer of
// the same type; one whose only variable extent is the first loses it.
// CHECK: static void scale(int n, int m, void *weft_vla_A, double v[])
// CHECK-NEXT: { double (*A)[m] = (double (*)[m])weft_vla_A;
static void scale(int n, int m, double A[n][m], double v[n])
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      A[i][j] *= v[i];
}

// So does a parameter written as a pointer to variable-length rows.
// CHECK: static void shift(int n, int m, void *weft_vla_A, const void *weft_vla_B)
// CHECK-NEXT: { const double (*B)[m] = (const double (*)[m])weft_vla_B; double (*A)[m] = (double (*)[m])weft_vla_A;
static void shift(int n, int m, double (*A)[m], const double (*restrict B)[m])
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      A[i][j] += B[i][j] / 8;
}

// A prototype loses the parameter's name too.
// CHECK: static double total(int n, int m, const void *);
static double total(int n, int m, const double [n][m]);

static void kernel(int n, int m, double A[n][m], double B[n][m])
{
  int i, j;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < m; j++)
      B[i][j] = A[i][j] * 2.0 + j;
#pragma endscop
}

// C's `register`, which C++17 removed, spelled directly or through a
// macro: the preamble silences g++'s and nvcc's -Wregister for the file.
// PREAMBLE: #pragma GCC diagnostic ignored "-Wregister"
#define REG register

static double total(int n, int m, const double A[n][m])
{
  REG double s = 0;
  for (register int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      s += A[i][j];
  return s;
}

int main(void)
{
  int n = 7, m = 5;
  // Conversions C makes implicitly get their casts.
  // CHECK: double (*A)[m] = (double (*)[m])(malloc(sizeof(double) * n * m));
  double (*A)[m] = malloc(sizeof(double) * n * m);
  // CHECK: double *B = (double *)(calloc(n * m, sizeof(double)));
  double *B = calloc(n * m, sizeof(double));
  double *v = malloc(sizeof(double) * n);
  // CHECK: char *name = (char *)("weft");
  char *name = "weft";
  // CHECK: enum colour c = (enum colour)(1);
  enum colour c = 1;
  for (int i = 0; i < n; i++) {
    v[i] = i + 1;
    for (int j = 0; j < m; j++)
      A[i][j] = i - j;
  }
  scale(n, m, A, v);
  shift(n, m, A, (const double (*)[m])A);
  kernel(n, m, A, (double (*)[m])B);
  printf("%s %d %.17g %.17g\n", name, c, total(n, m, (const double (*)[m])A),
         total(n, m, (const double (*)[m])B));
  free(A);
  free(B);
  free(v);
  return 0;
}
