// RUN: weft compile --target=cuda --report %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REPORT
// RUN: FileCheck %s < %t.cu

// gpu-expose-bands makes gemm's `for k for j` a 2-D band by interchanging
// k with j (k then runs in each thread). At N = 8 the cost model keeps both
// parts on the host, where the interchange is undone: the host runs the
// source's order, j innermost (unit stride, what the C compiler
// vectorises), not the product's k, which carries C[i][j]'s sum.

#define N 8
double A[N][N], B[N][N], C[N][N];

void gemm(double alpha, double beta) {
  int i, j, k;
#pragma scop
  for (i = 0; i < N; i++) {
    for (j = 0; j < N; j++)
      C[i][j] *= beta;
// REPORT: cuda-host-swap-back.c:[[@LINE+1]]:5: remark: interchanged with the loop at line [[@LINE+2]], which carries no dependence and becomes the second grid dimension; this loop runs in each thread (swapped back if the nest stays on the host)
    for (k = 0; k < N; k++)
      for (j = 0; j < N; j++)
        C[i][j] += alpha * A[i][k] * B[k][j];
  }
#pragma endscop
}
// REPORT: remark: stays on the host
// REPORT: remark: stays on the host
// REPORT: cuda-host-swap-back.c:20:5: remark: swapped back with the loop at line 21: the nest stays on the host

// CHECK:      for (int i = 0; i < 8; i++) {
// CHECK-NEXT:   for (int j = 0; j < 8; j++) {
// CHECK-NEXT:     C[i * 8 + j] *= beta;
// CHECK:      for (int i = 0; i < 8; i++) {
// CHECK-NEXT:   for (int k = 0; k < 8; k++) {
// CHECK-NEXT:     for (int j = 0; j < 8; j++) {
// CHECK-NEXT:       C[i * 8 + j] += alpha * A[i * 8 + k] * B[k * 8 + j];
