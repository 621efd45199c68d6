// REQUIRES: mpicc, mpirun
// RUN: bash %S/../run-mpi.sh %s %t 1 2 3 4 6
// RUN: weft compile --report %s -o %t.c 2>&1 | FileCheck %s
// Array shapes and element types in distributed loops (as '#pragma weft'
// asks): 3-D and 4-D global arrays; VLA parameters with runtime extents
// read through transposed subscripts; pointer-to-VLA parameters on heap
// arrays (2-D and 3-D); matrix products of shapes 1xN, Nx1, Nx1xN, 1x1;
// arrays of char, signed char, short, unsigned short, int, unsigned, long,
// int64_t, uint64_t, size_t, float, bool and a typedef'd double written by
// a distributed loop and read everywhere by a replicated one; and, in a
// region that runs replicated (B[i/2] is not affine for weft), strided and
// divided subscripts (A[2*i+1], B[i/2], B[(i+1)/3], C[n-1-i]).
// CHECK-COUNT-10: remark: distributed: blocks of its iterations on each rank
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define N 7
#define M 5
double G3[N][M][M], H3[N][M][M];
double G4[N][3][M][2];

static void arrays34(int n, int m) {
  int i, j, k, l;
#pragma scop
#pragma weft distribute(i: block)
  for (i = 1; i < n - 1; i++)
    for (j = 1; j < m - 1; j++)
      for (k = 1; k < m - 1; k++)
        H3[i][j][k] = G3[i - 1][j][k] + G3[i + 1][j][k] + G3[i][j - 1][k] +
                      G3[i][j][k + 1];
#pragma weft distribute(i: block)
  for (i = 0; i < n; i++)
    for (j = 0; j < 3; j++)
      for (k = 0; k < m; k++)
        for (l = 0; l < 2; l++)
          G4[i][j][k][l] = H3[n - 1 - i][k][j + l] * (l + 1) + G4[i][j][k][l];
  for (i = 1; i < n; i++)
    for (j = 0; j < 3; j++)
      for (k = 0; k < m; k++)
        G4[i][j][k][1] = G4[i - 1][j][k][0] + G4[i][j][k][1];
#pragma endscop
}

static void transposed(int n, int m, double A[n][m], double B[m][n],
                       double C[n][n]) {
  int i, j, k;
#pragma scop
#pragma weft distribute(i: block)
  for (i = 0; i < m; i++)
    for (j = 0; j < n; j++)
      B[i][j] = A[j][i] * 2.0;
#pragma weft distribute(i: block)
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) {
      C[i][j] = 0.0;
      for (k = 0; k < m; k++)
        C[i][j] += A[i][k] * B[k][j];
    }
#pragma weft distribute(j: block)
  for (j = 0; j < n; j++)
    for (i = 0; i < m; i++)
      A[j][i] = C[n - 1 - j][j] - B[i][j];
#pragma endscop
}

static void heap(int n, int m, double (*A)[m], double (*B)[m],
                 double (*C)[n][m]) {
  int i, j, k;
#pragma scop
#pragma weft distribute(i: block)
  for (i = 1; i < n - 1; i++)
    for (j = 0; j < m; j++)
      B[i][j] = A[i - 1][j] + A[i + 1][j] - A[i][m - 1 - j];
#pragma weft distribute(k: block)
  for (k = 0; k < 3; k++)
    for (i = 0; i < n; i++)
      for (j = 0; j < m; j++)
        C[k][i][j] = B[i][j] * (k + 1) + A[n - 1 - i][j];
#pragma endscop
}

static void mm(int ni, int nj, int nk, double C[ni][nj], double A[ni][nk],
               double B[nk][nj]) {
  int i, j, k;
#pragma scop
#pragma weft distribute(i: block)
  for (i = 0; i < ni; i++)
    for (j = 0; j < nj; j++) {
      C[i][j] = 0.0;
      for (k = 0; k < nk; k++)
        C[i][j] += A[i][k] * B[k][j];
    }
#pragma endscop
}

static void run_mm(int ni, int nj, int nk) {
  double A[ni][nk], B[nk][nj], C[ni][nj];
  int i, j;
  for (i = 0; i < ni; i++)
    for (j = 0; j < nk; j++)
      A[i][j] = (i + 2 * j) % 5 - 1;
  for (i = 0; i < nk; i++)
    for (j = 0; j < nj; j++)
      B[i][j] = (3 * i + j) % 4 + 0.5;
  mm(ni, nj, nk, C, A, B);
  printf("mm %dx%dx%d:", ni, nj, nk);
  for (i = 0; i < ni; i++)
    for (j = 0; j < nj; j++)
      printf(" %g", C[i][j]);
  printf("\n");
}

typedef double real;
#define T 31
real V[T];
char Cc[T];
signed char SC[T];
short S[T];
unsigned short US[T];
int I[T];
unsigned U[T];
long L[T];
int64_t S64[T];
uint64_t U64[T];
size_t Sz[T];
float F[T];
bool Bo[T];

static void types(int n) {
  int i;
#pragma scop
#pragma weft distribute(i: block)
  for (i = 0; i < n; i++) {
    V[i] = i * 0.5;
    Cc[i] = (char)('a' + i % 26);
    SC[i] = (signed char)(-i * 5);
    S[i] = (short)(i * 1000);
    US[i] = (unsigned short)(i * 4099);
    I[i] = i * i - 7;
    U[i] = (unsigned)i * 4000000000u;
    L[i] = (long)i * 100000000L;
    S64[i] = -(int64_t)i * 1000000007LL;
    U64[i] = (uint64_t)i * 0x9E3779B97F4A7C15ull;
    Sz[i] = (size_t)i * 3u;
    F[i] = (float)i / 3.0f;
    Bo[i] = i % 3 == 0;
  }
  for (i = 1; i < n - 1; i++) {
    V[i] = V[i + 1] + (Bo[i - 1] ? 1.0 : 0.0) + Cc[i + 1] + SC[i - 1];
    I[i] = I[i + 1] % 5 + S[i - 1] + US[i + 1] % 7;
    L[i] = L[i - 1] / 3 + (long)(U[i + 1] % 1000u);
    S64[i] = S64[i + 1] / 7 + S64[i - 1] % 7;
    U64[i] = (U64[i - 1] >> 3) + Sz[i + 1];
    F[i] = F[i + 1] * 2.0f + (float)Cc[i];
  }
#pragma endscop
}

#define D 25
double SA[2 * D + 2], SB[D], SCc[D];
static void strided(int n) {
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    SB[i] = SA[2 * i + 1] + SA[2 * i];
  for (i = 0; i < n; i++)
    SCc[i] = SB[i / 2] + SB[(i + 1) / 3] * (i % 4);
  for (i = 0; i < n; i++)
    SA[2 * i + 1] = SCc[n - 1 - i] + SB[i % 5];
#pragma endscop
}

int main(int argc, char **argv) {
  int i, j, k, l;
  (void)argv;
  for (i = 0; i < N; i++)
    for (j = 0; j < M; j++)
      for (k = 0; k < M; k++)
        G3[i][j][k] = (i + j * k) % 5;
  for (i = 0; i < N; i++)
    for (j = 0; j < 3; j++)
      for (k = 0; k < M; k++)
        for (l = 0; l < 2; l++)
          G4[i][j][k][l] = i - j + k * l;
  arrays34(N, M);
  for (i = 0; i < N; i++)
    for (j = 0; j < M; j++)
      for (k = 0; k < M; k++)
        printf("%g ", H3[i][j][k]);
  printf("\n");
  for (i = 0; i < N; i++)
    for (j = 0; j < 3; j++)
      for (k = 0; k < M; k++)
        for (l = 0; l < 2; l++)
          printf("%g ", G4[i][j][k][l]);
  printf("\n");
  {
    int n = 10 + argc, m = 6 + argc;
    double A[n][m], B[m][n], C[n][n];
    for (i = 0; i < n; i++)
      for (j = 0; j < m; j++)
        A[i][j] = (i * 3 + j) % 7 * 0.5;
    transposed(n, m, A, B, C);
    for (i = 0; i < n; i++) {
      for (j = 0; j < m; j++)
        printf("%g ", A[i][j]);
      for (j = 0; j < n; j++)
        printf("%g ", C[i][j]);
      printf("\n");
    }
  }
  {
    int n = 12 + argc, m = 4 + argc;
    double(*A)[m] = malloc(sizeof(double) * n * m);
    double(*B)[m] = calloc((size_t)n * m, sizeof(double));
    double(*C)[n][m] = malloc(sizeof(double) * 3 * n * m);
    for (i = 0; i < n; i++)
      for (j = 0; j < m; j++)
        A[i][j] = (i * 3 + j * 7) % 10;
    heap(n, m, A, B, C);
    for (k = 0; k < 3; k++)
      for (i = 0; i < n; i++) {
        for (j = 0; j < m; j++)
          printf("%g ", C[k][i][j]);
        printf("\n");
      }
    free(A);
    free(B);
    free(C);
  }
  run_mm(1, 9, 5);
  run_mm(9, 1, 5);
  run_mm(7, 7, 1);
  run_mm(1, 1, 11);
  run_mm(5, 8, 3);
  types(T);
  for (i = 0; i < T; i++)
    printf("%d %g %c %d %d %u %d %u %ld %lld %llu %zu %.9g %d\n", i, V[i],
           Cc[i], SC[i], S[i], US[i], I[i], U[i], L[i], (long long)S64[i],
           (unsigned long long)U64[i], Sz[i], F[i], Bo[i]);
  for (i = 0; i < 2 * D + 2; i++)
    SA[i] = (i * 7) % 13;
  strided(D);
  for (i = 0; i < D; i++)
    printf("%g %g %g %g\n", SA[2 * i], SA[2 * i + 1], SB[i], SCc[i]);
  return 0;
}
