// REQUIRES: mpicc, mpirun
// RUN: bash %S/../run-mpi.sh %s %t 1 2 3 4
// RUN: env WEFT_DEFINES="-DN=7" bash %S/../run-mpi.sh %s %t.small 1 3
// RUN: weft compile --report %s -o %t.c 2>&1 | FileCheck %s
// RUN: grep -v '^// OUT' %t.c | FileCheck %s --check-prefix=OUT
// RUN: weft compile --report --live-out=all %s -o %t.all.c 2>&1 | FileCheck %s --check-prefix=ALL
// A region nothing distributed (a running sum, whose loop carries it) runs
// on rank 0 alone (dist-run-on-root); the other ranks' copies of x go
// stale, and the distributed region after it fetches x from rank 0 before
// reading it. A region that sets a scalar the program reads afterwards (and
// decides on) runs on rank 0 too, which then sends the scalar to the other
// ranks (their copies of y, which it reads, are stale). Every rank count
// prints what gcc's program prints.
// ALL-NOT: runs on rank 0 alone
#include <stdio.h>

#ifndef N
#define N 41
#endif

double a[N], x[N], y[N];

// CHECK: root-only-region.c:[[#@LINE+8]]:1: remark: runs on rank 0 alone, nothing in it being distributed
// OUT: static void {{weft_}}running_sum_scop0(int32_t n, double *restrict x, double *restrict a) {
// OUT-NEXT: int64_t self = {{weft_}}rt_self();
// OUT-NEXT: if (self == 0) {
// OUT-NEXT: {{weft_}}running_sum_scop0_rank0(n, x, a);
// OUT-NEXT: }
// OUT-NEXT: {{weft_}}rt_set_replicas_stale();
static void running_sum(int n) {
#pragma scop
  for (int i = 1; i < n; i++)
    x[i] = x[i - 1] + a[i];
#pragma endscop
}

static void scale(int n) {
#pragma scop
#pragma weft distribute(i: block)
  for (int i = 0; i < n; i++)
    y[i] = 2.0 * x[i] + a[i];
#pragma endscop
}

static double last;

// CHECK: root-only-region.c:[[#@LINE+8]]:1: remark: runs on rank 0 alone, nothing in it being distributed: then rank 0 sends last to the other ranks;
// OUT: static void {{weft_}}last_term_scop0(int32_t n, double *restrict last, double *restrict y) {
// OUT: if (self == 0) {
// OUT-NEXT: {{weft_}}last_term_scop0_rank0(n, last, y);
// OUT: last_on_rank0[0] = last[0];
// OUT: {{weft_}}rt_bcast_elements(scalar_message, last_on_rank0, 8, 0, values);
// OUT-NEXT: last[0] = last_on_rank0[0];
static void last_term(int n) {
#pragma scop
  for (int i = 1; i < n; i++)
    last = last * 0.5 + y[i];
#pragma endscop
}

int main(void) {
  for (int i = 0; i < N; i++) {
    a[i] = (double)((i * 7) % 11) / 4.0;
    x[i] = 0.0;
  }
  x[0] = 1.0;
  running_sum(N);
  scale(N);
  last_term(N);
  // Control flow on the scalar: the same on every rank.
  if (last > 1.0)
    scale(N);
  for (int i = 0; i < N; i++)
    printf("%.17g %.17g\n", x[i], y[i]);
  printf("%.17g\n", last);
  return 0;
}
