// At one rank the MPI program runs the region as written: the dispatcher
// calls the sequential form, whose loops hold no runtime calls and take
// restrict pointers, and gcc -O2 vectorises as many loops in it as in the
// input (both sweeps; main's loops are not vectorisable). The distributed
// form's sweeps are runs of 16 iterations and a remainder
// (dist-vector-runs), which gcc -O2 vectorises too: four loops in all.
// REQUIRES: gcc, mpicc, mpirun
// RUN: weft compile %s -o %t.c
// RUN: grep -v '^// ' %t.c | FileCheck %s
// RUN: gcc -O2 -std=gnu99 -fopt-info-vec-optimized -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=VEC
// RUN: sed '/^#line/d' %t.c > %t.nl.c
// RUN: mpicc -O2 -std=gnu99 -Wall -Werror -fopt-info-vec-optimized -c %t.nl.c -o /dev/null 2>&1 | FileCheck %s --check-prefix=VECMPI
// RUN: weft compile --target=seq %s -o %t.seq.c
// RUN: gcc -O2 -std=gnu99 -fopt-info-vec-optimized -c %t.seq.c -o /dev/null 2>&1 | FileCheck %s --check-prefix=VEC
// RUN: bash %S/../run-mpi.sh %s %t 1 2 3

// CHECK-LABEL: static WEFT_RT_AS_WRITTEN void weft_sweep_scop0_sequential(int32_t tsteps, int32_t n, double (*restrict B)[200], double (*restrict A)[200]) {
// CHECK-NOT:   weft_rt_
// CHECK-LABEL: static WEFT_RT_REGION void weft_sweep_scop0_distributed(int32_t tsteps, int32_t n, double (*restrict B)[200], double (*restrict A)[200]) {
// The distributed form opens with its message sets' tables (each after a
// comment with its set), then a line per distributed nest.
// CHECK-NEXT:  // message elements:
// CHECK:       static const int64_t B_message[{{[0-9]+}}] = {
// CHECK:       // weft: the nest at line {{[0-9]+}} runs blocks of its iterations and of its inner loop's over a 2-D grid of ranks; then sends the parts of B that other ranks read later or keep
// CHECK-NEXT:  // weft: the nest at line {{[0-9]+}} runs blocks of its iterations and of its inner loop's over a 2-D grid of ranks; then sends the parts of A that other ranks read later or keep
// CHECK-NEXT:  // weft: reads B, A from rank 0 first where other ranks' copies are outdated
// CHECK:       weft_rt_block_lo
// CHECK:       int64_t j_runs_end = j_hi - (j_hi - j_lo) % 16;
// CHECK:       for (int64_t j_run = j_lo; j_run < j_runs_end; j_run += 16) {
// CHECK-NEXT:    for (int64_t j = j_run; j < j_run + 16; j++) {
// CHECK-NEXT:      B[i][j] = 0.2 * (A[i][j] + A[i][j - 1] + A[i][j + 1] + A[i + 1][j] + A[i - 1][j]);
// CHECK:       for (int64_t j = j_runs_end; j < j_hi; j++) {
// CHECK-NEXT:    B[i][j] = 0.2 * (A[i][j] + A[i][j - 1] + A[i][j + 1] + A[i + 1][j] + A[i - 1][j]);
// CHECK-LABEL: static void weft_sweep_scop0(int32_t tsteps, int32_t n, double (*restrict B)[200], double (*restrict A)[200]) {
// CHECK-NEXT:  int64_t nranks = weft_rt_nranks();
// CHECK-NEXT:  if (nranks == 1) {
// CHECK-NEXT:    weft_sweep_scop0_sequential(tsteps, n, B, A);
// CHECK-NEXT:  } else {
// CHECK-NEXT:    weft_sweep_scop0_distributed(tsteps, n, B, A);
// CHECK-NEXT:  }

// VEC-COUNT-2: optimized: loop vectorized
// VEC-NOT:     optimized: loop vectorized
// VECMPI-COUNT-4: optimized: loop vectorized
// VECMPI-NOT:     optimized: loop vectorized

#include <stdio.h>
#define N 200
static double A[N][N], B[N][N];

static void sweep(int tsteps, int n) {
#pragma scop
  for (int t = 0; t < tsteps; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        B[i][j] = 0.2 * (A[i][j] + A[i][j - 1] + A[i][j + 1] + A[i + 1][j] +
                         A[i - 1][j]);
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        A[i][j] = 0.2 * (B[i][j] + B[i][j - 1] + B[i][j + 1] + B[i + 1][j] +
                         B[i - 1][j]);
  }
#pragma endscop
}

int main(void) {
  unsigned s = 1;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      s = s * 1103515245u + 12345u;
      A[i][j] = (double)(s >> 16) / 65536.0;
      B[i][j] = A[i][j] / 2;
    }
  sweep(10, N);
  double sum = 0;
  for (int i = 0; i < N; i++)
    sum += A[i][i];
  printf("%.12f\n", sum);
  return 0;
}
