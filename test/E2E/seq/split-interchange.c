// RUN: WEFT_TARGET=cuda WEFT_FLAGS=--fp-reductions=ordered bash %S/../run-seq.sh %s %t
// RUN: WEFT_TARGET=cuda WEFT_FLAGS=--fp-reductions=ordered bash %S/../run-seq.sh %s %t.odd -DM=13 -DN=70
// RUN: WEFT_TARGET=cuda WEFT_RTOL=1e-12 bash %S/../run-seq.sh %s %t.rows -DM=13 -DN=70
// RUN: WEFT_TARGET=cuda WEFT_RTOL=1e-12 WEFT_GPU_CHOICE=cost bash %S/../run-seq.sh %s %t.cost -DM=5 -DN=6
// RUN: weft compile --target=cuda --gpu-choice=always --report %s -o %t.cu 2>&1 | FileCheck %s
// RUN: grep -v '^// KERNELS' %t.cu | FileCheck %s --check-prefix=KERNELS
/* An inner loop that carries a dependence (a sum into q[i] along j) and
   holds statements that do not (updates of s[j] and u[j]), inside a loop
   that carries theirs (gpu-expose-bands, docs/cuda.md): the inner loop is
   distributed over its statements, then the outer one over its parts, and
   the parts of s and u interchanged with it: one launch each over j,
   instead of one per iteration of i. In the second nest the sum feeds the
   update in the same iteration and back (an anti-dependence from the later
   statement to the earlier one in the next iteration of j): nothing is
   split. Every output prints what the sequential program prints, bit for
   bit where each element's sum keeps its order (--fp-reductions=ordered),
   within rounding where the threads of a row combine q[i]'s and those of
   a column s[j]'s (a column reduction once interchanged). */
#include <stdio.h>

#ifndef M
#define M 38
#endif
#ifndef N
#define N 41
#endif

static double A[M][N], p[N], r[M], s[N], q[M], u[N], c[M], d[N];

// CHECK: split-interchange.c:[[@LINE+20]]:5: remark: distributed into 3 loops over the parts of its body, so that the statements at line [[@LINE+21]], line [[@LINE+23]] can each be interchanged with the loop at line [[@LINE+18]]
// CHECK: split-interchange.c:[[@LINE+17]]:3: remark: distributed into 4 loops over the parts of its body, so that the loops at line [[@LINE+19]] (statement at line [[@LINE+20]]), line [[@LINE+19]] (statement at line [[@LINE+22]]) can each be interchanged with it
// CHECK: split-interchange.c:[[@LINE+16]]:3: remark: interchanged with the loop at line [[@LINE+18]], which carries no dependence
// CHECK: split-interchange.c:[[@LINE+15]]:3: remark: interchanged with the loop at line [[@LINE+17]], which carries no dependence
// CHECK-NOT: distributed into
// CHECK-NOT: interchanged with
// KERNELS:      {{^}}static __global__ void {{.*}}(int64_t n, int64_t i_blocks, double *restrict r, double *restrict A, int64_t m, double *restrict s) {
// KERNELS:        for (int64_t i = (int64_t)blockIdx.y * 8 + (int64_t)threadIdx.y; i < m; i += i_blocks * 8) {
// KERNELS:          s_partial += r[i] * A[i * {{[0-9]+}} + j];
// KERNELS:      {{^}}static __global__ void {{.*}}(int64_t n, double *restrict u, double *restrict A, int64_t m) {
// KERNELS:        for (int64_t i = 0; i < m; i++) {
// KERNELS-NEXT:     u[j] = u[j] * 0.5 + A[i * {{[0-9]+}} + j];
static void kernels(int m, int n)
{
  int i, j;
#pragma scop
  for (j = 0; j < n; j++)
    s[j] = 0.0;
  for (i = 0; i < m; i++) {
    q[i] = 0.0;
    for (j = 0; j < n; j++) {
      s[j] = s[j] + r[i] * A[i][j];
      q[i] = q[i] + A[i][j] * p[j];
      u[j] = u[j] * 0.5 + A[i][j];
    }
  }
  for (i = 0; i < m; i++)
    for (j = 0; j < n; j++) {
      c[i] = c[i] + A[i][j] * d[j];
      d[j] = d[j] + 0.25 * c[i];
    }
#pragma endscop
}

int main(void)
{
  int i, j;
  for (i = 0; i < M; i++) {
    for (j = 0; j < N; j++)
      A[i][j] = (double)((i * 5 + j * 3) % 13) / 13 - 0.25;
    r[i] = (double)(i % 5) / 5 + 0.5;
    c[i] = (double)(i % 3);
  }
  for (j = 0; j < N; j++) {
    p[j] = (double)(j % 7) / 7 + 0.5;
    u[j] = (double)(j % 4);
    d[j] = (double)(j % 9) / 9;
  }
  kernels(M, N);
  for (j = 0; j < N; j++)
    printf("%.17g %.17g %.17g\n", s[j], u[j], d[j]);
  for (i = 0; i < M; i++)
    printf("%.17g %.17g\n", q[i], c[i]);
  return 0;
}
