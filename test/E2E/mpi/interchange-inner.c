// REQUIRES: mpicc, mpirun
// RUN: bash %S/../run-mpi.sh %s %t 1 2 3 4
// RUN: env WEFT_DEFINES="-DNI=13 -DNJ=7 -DNK=5" bash %S/../run-mpi.sh %s %t.odd 1 3
// RUN: weft compile --report %s -o %t.c 2>&1 | FileCheck %s
// RUN: weft compile --report %s -o %t.c 2>&1 | FileCheck %s --check-prefix=KEPT
// RUN: grep -v '^// OUT' %t.c | FileCheck %s --check-prefix=OUT
// Innermost loops that add up a chain along k while walking columns
// (dist-interchange-inner): a product, its sums in a matrix the region
// zeroes first; a covariance, its loop over j starting at i and a store
// after the sum. Each is distributed around the loop over k and swapped
// with it, in the distributed form and in the one-rank form alike, and
// every rank count prints, bit for bit, what gcc's program prints (each
// sum is still added up in the order of k). The pins distribute the
// outer loops at these small sizes; the loops they pin stay where they are.
// A unit's own pair of loops (mvt's transposed product; a scaling of
// columns over a 2-D grid) is swapped after the partitioner, in each
// rank's block (dist-interchange-local).
#include <stdio.h>

#ifndef NI
#define NI 40
#endif
#ifndef NJ
#define NJ 33
#endif
#ifndef NK
#define NK 21
#endif

double A[NI][NK], B[NK][NJ], T[NI][NJ];
double D[NK][NI], C[NI][NI];
double X[NI], Y[NK], E[NK][NI];
double F[NI][NJ];
double G[NI][NJ], Q[NI][NJ], R[NJ][NJ], U[NI][NI];

// CHECK: interchange-inner.c:[[#@LINE+13]]:7: remark: interchanged with the loop at line [[#@LINE+11]] around it (distributed around it first): the innermost loop walks consecutive elements in 2 of its distinct accesses, not 1, and carries no dependence
// OUT: static WEFT_RT_REGION void {{weft_}}product_scop0_distributed(
// OUT: for (int64_t j = 0; j < {{.+}}; j++) {
// OUT-NEXT: T[i][j] = 0.0;
// OUT: for (int64_t k = 0; k < {{.+}}; k++) {
// OUT-NEXT: for (int64_t j = 0; j < {{.+}}; j++) {
// OUT-NEXT: T[i][j] += A[i][k] * B[k][j];
static void product(void) {
#pragma scop
#pragma weft distribute(i: block)
  for (int i = 0; i < NI; i++)
    for (int j = 0; j < NJ; j++) {
      T[i][j] = 0.0;
      for (int k = 0; k < NK; k++)
        T[i][j] += A[i][k] * B[k][j];
    }
#pragma endscop
}

// CHECK: interchange-inner.c:[[#@LINE+7]]:7: remark: interchanged with the loop at line [[#@LINE+5]] around it (distributed around it first)
static void covariance(void) {
#pragma scop
#pragma weft distribute(i: block)
  for (int i = 0; i < NI; i++)
    for (int j = i; j < NI; j++) {
      C[i][j] = 0.0;
      for (int k = 0; k < NK; k++)
        C[i][j] += D[k][i] * D[k][j];
      C[i][j] /= (NK - 1.0);
      C[j][i] = C[i][j];
    }
#pragma endscop
}

// CHECK: interchange-inner.c:[[#@LINE+14]]:5: remark: interchanged with the loop at line [[#@LINE+13]] around it, in each rank's part: the innermost loop walks consecutive elements in 2 of its distinct accesses, not 1, and carries no dependence
// OUT: void {{weft_}}transposed_product_scop0_sequential(
// OUT-NEXT: for (int k = 0; k < {{.+}}; k++) {
// OUT-NEXT: for (int i = 0; i < {{.+}}; i++) {
// OUT-NEXT: X[i] += D[k][i] * Y[k];
// OUT: static WEFT_RT_REGION void {{weft_}}transposed_product_scop0_distributed(
// OUT: for (int64_t k = 0; k < {{.+}}; k++) {
// OUT-NEXT: for (int64_t i_run = i_lo; i_run < i_runs_end; i_run += 16) {
// OUT-NEXT: for (int64_t i = i_run; i < i_run + 16; i++) {
// OUT-NEXT: X[i] += D[k][i] * Y[k];
static void transposed_product(void) {
#pragma scop
#pragma weft distribute(i: block)
  for (int i = 0; i < NI; i++)
    for (int k = 0; k < NK; k++)
      X[i] += D[k][i] * Y[k];
#pragma endscop
}

// CHECK: interchange-inner.c:[[#@LINE+10]]:5: remark: interchanged with the loop at line [[#@LINE+9]] around it, in each rank's part
// OUT: static WEFT_RT_REGION void {{weft_}}scale_columns_scop0_distributed(
// OUT: for (int64_t k = k_lo; k < k_hi; k++) {
// OUT-NEXT: for (int64_t i_run = i_lo; i_run < i_runs_end; i_run += 16) {
// OUT-NEXT: for (int64_t i = i_run; i < i_run + 16; i++) {
// OUT-NEXT: E[k][i] = D[k][i] * Y[k];
static void scale_columns(void) {
#pragma scop
#pragma weft distribute(i: block, k: block)
  for (int i = 0; i < NI; i++)
    for (int k = 0; k < NK; k++)
      E[k][i] = D[k][i] * Y[k];
#pragma endscop
}

// A recursive filter down each column (deriche's): the scalars its chain
// runs through, set for each column first, become arrays indexed by j; the
// loop over j is distributed (the settings first), and the loop over i
// then moves outside in each rank's part.
// KEPT: interchange-inner.c:[[#@LINE+15]]:3: remark: kept ym1, ym2, xm1 in arrays, one element per iteration of the loop at line [[#@LINE+15]], which sets them first: the loop in it may move around it
// CHECK: interchange-inner.c:[[#@LINE+18]]:5: remark: interchanged with the loop at line [[#@LINE+14]] around it, in each rank's part
// OUT: void {{weft_}}column_filter_scop0_sequential(
// OUT: for (int j = 0; j < {{.+}}; j++) {
// OUT-NEXT: ym1_1[j] = 0.0;
// OUT: for (int i = 0; i < {{.+}}; i++) {
// OUT-NEXT: for (int j = 0; j < {{.+}}; j++) {
// OUT-NEXT: F[i][j] = 0.5 * T[i][j] + 0.25 * xm1_1[j] + 0.125 * ym1_1[j] - 0.0625 * ym2_1[j];
// OUT: static WEFT_RT_REGION void {{weft_}}column_filter_scop0_distributed(
// OUT: for (int64_t i = 0; i < {{.+}}; i++) {
// OUT-NEXT: for (int64_t j_run = j_lo; j_run < j_runs_end; j_run += 16) {
static void column_filter(void) {
  double ym1, ym2, xm1;
#pragma scop
#pragma weft distribute(j: block)
  for (int j = 0; j < NJ; j++) {
    ym1 = 0.0;
    ym2 = 0.0;
    xm1 = 0.0;
    for (int i = 0; i < NI; i++) {
      F[i][j] = 0.5 * T[i][j] + 0.25 * xm1 + 0.125 * ym1 - 0.0625 * ym2;
      xm1 = T[i][j];
      ym2 = ym1;
      ym1 = F[i][j];
    }
  }
#pragma endscop
}

// gramschmidt's projections: in each step k, a unit's loop over j holds
// two loops over i that walk column j; it is distributed into a loop
// zeroing R's row and one loop for each loop over i, and those move
// outside in each rank's part.
// CHECK: interchange-inner.c:[[#@LINE+12]]:7: remark: interchanged with the loop at line [[#@LINE+10]] around it, in each rank's part: the innermost loop walks consecutive elements in 2 of its distinct accesses, not 0
// CHECK: interchange-inner.c:[[#@LINE+13]]:7: remark: interchanged with the loop at line [[#@LINE+9]] around it, in each rank's part: the innermost loop walks consecutive elements in 2 of its distinct accesses, not 0
// OUT: void {{weft_}}orthogonalise_scop0_sequential(
// OUT: for (int i = 0; i < {{.+}}; i++) {
// OUT-NEXT: for (int j = k + 1; j < {{.+}}; j++) {
// OUT-NEXT: R[k][j] += Q[i][k] * G[i][j];
static void orthogonalise(void) {
#pragma scop
  for (int k = 0; k < NJ; k++)
#pragma weft distribute(j: block)
    for (int j = k + 1; j < NJ; j++) {
      R[k][j] = 0.0;
      for (int i = 0; i < NI; i++)
        R[k][j] += Q[i][k] * G[i][j];
      for (int i = 0; i < NI; i++)
        G[i][j] -= Q[i][k] * R[k][j];
    }
#pragma endscop
}

// ludcmp's rows of U: each iteration of the loop over j, inside the loop
// over i that carries the factorisation, sets w first and stores it after
// its sum; w becomes an array for each i, indexed by j - i, made and freed
// around the loop over j, and the sum over k moves outside in each rank's
// part.
// KEPT: interchange-inner.c:[[#@LINE+12]]:5: remark: kept w in arrays, one element per iteration of the loop at line [[#@LINE+12]], which sets them first
// CHECK: interchange-inner.c:[[#@LINE+13]]:7: remark: interchanged with the loop at line [[#@LINE+11]] around it, in each rank's part
// OUT: void {{weft_}}upper_rows_scop0_sequential(
// OUT: double *w_1 = weft_rt_alloc(
// OUT: for (int k = 0; k < i; k++) {
// OUT-NEXT: for (int j = i; j < {{.+}}; j++) {
// OUT-NEXT: w_1[j - i] -= U[i][k] * U[k][j];
static void upper_rows(void) {
  double w;
#pragma scop
  for (int i = 0; i < NI; i++)
#pragma weft distribute(j: block)
    for (int j = i; j < NI; j++) {
      w = U[i][j];
      for (int k = 0; k < i; k++)
        w -= U[i][k] * U[k][j];
      U[i][j] = w;
    }
#pragma endscop
}

int main(void) {
  for (int i = 0; i < NI; i++)
    for (int k = 0; k < NK; k++)
      A[i][k] = (double)((i * 7 + k * 3) % 11) / 7.0;
  for (int k = 0; k < NK; k++)
    for (int j = 0; j < NJ; j++)
      B[k][j] = (double)((k * 5 + j) % 13) / 3.0;
  for (int k = 0; k < NK; k++)
    for (int i = 0; i < NI; i++)
      D[k][i] = (double)((k * 11 + i * 2) % 17) / 9.0;
  for (int k = 0; k < NK; k++)
    Y[k] = (double)((k * 3) % 7) / 5.0;
  for (int i = 0; i < NI; i++)
    X[i] = (double)(i % 5) / 3.0;
  for (int i = 0; i < NI; i++)
    for (int j = 0; j < NJ; j++) {
      G[i][j] = (double)((i * 3 + j * 5) % 19) / 4.0;
      Q[i][j] = (double)((i + j * 7) % 13) / 26.0;
    }
  for (int i = 0; i < NI; i++)
    for (int j = 0; j < NI; j++)
      U[i][j] = (double)((i * 3 + j) % 7) / 50.0;
  product();
  covariance();
  transposed_product();
  scale_columns();
  column_filter();
  orthogonalise();
  upper_rows();
  for (int i = 0; i < NI; i++) {
    for (int j = 0; j < NJ; j++)
      printf("%.17g ", T[i][j]);
    printf("\n");
  }
  for (int i = 0; i < NI; i++) {
    for (int j = 0; j < NI; j++)
      printf("%.17g ", C[i][j]);
    printf("\n");
  }
  for (int i = 0; i < NI; i++)
    printf("%.17g ", X[i]);
  printf("\n");
  for (int k = 0; k < NK; k++) {
    for (int i = 0; i < NI; i++)
      printf("%.17g ", E[k][i]);
    printf("\n");
  }
  for (int i = 0; i < NI; i++) {
    for (int j = 0; j < NJ; j++)
      printf("%.17g ", F[i][j]);
    printf("\n");
  }
  for (int i = 0; i < NI; i++) {
    for (int j = 0; j < NJ; j++)
      printf("%.17g ", G[i][j]);
    printf("\n");
  }
  for (int k = 0; k < NJ; k++) {
    for (int j = 0; j < NJ; j++)
      printf("%.17g ", R[k][j]);
    printf("\n");
  }
  for (int i = 0; i < NI; i++) {
    for (int j = 0; j < NI; j++)
      printf("%.17g ", U[i][j]);
    printf("\n");
  }
  return 0;
}
