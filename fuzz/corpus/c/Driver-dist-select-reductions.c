// RUN: weft compile --report %s -o %t.c 2>&1 | FileCheck %s
// RUN: weft compile --report --fp-reductions=ordered %s -o %t.c 2>&1 | FileCheck %s --check-prefix=ORDERED

// Maxima and minima written with C's `?:` (an scf.if whose branches compute
// one of the compared values again) are reductions, like fmax/fmin: the
// loop is split across ranks and the partial results are combined. Unsigned
// comparisons are not (the identity would be the signed extreme), nor is a
// `?:` that yields something else than one of the compared values.

#define N 2000000
double A[N], m, lo;
int K[N], kmax;
unsigned U[N], umin;

void extremes(void) {
  int i;
#pragma scop
  m = A[0];
  lo = A[0];
// CHECK: dist-select-reductions.c:[[@LINE+2]]:3: remark: distributed: blocks of its iterations on each rank, partial results combined with MPI_Allreduce (max, min)
// ORDERED: dist-select-reductions.c:[[@LINE+1]]:3: remark: runs on every rank: its floating-point reductions stay in program order
  for (i = 1; i < N; i++) {
    m = A[i] > m ? A[i] : m;
    lo = lo <= A[i] * 2.0 ? lo : A[i] * 2.0;
  }
  kmax = 0;
// CHECK: dist-select-reductions.c:[[@LINE+2]]:3: remark: distributed: blocks of its iterations on each rank, partial results combined with MPI_Allreduce (max)
// ORDERED: dist-select-reductions.c:[[@LINE+1]]:3: remark: distributed: blocks of its iterations on each rank, partial results combined with MPI_Allreduce (max)
  for (i = 0; i < N; i++)
    kmax = kmax < K[i] - i ? K[i] - i : kmax;
  umin = 4000000000u;
// CHECK: dist-select-reductions.c:[[@LINE+1]]:3: remark: runs on every rank: the loop carries a flow dependence
  for (i = 0; i < N; i++)
    umin = U[i] < umin ? U[i] : umin;
// CHECK: dist-select-reductions.c:[[@LINE+1]]:3: remark: runs on every rank: the loop carries a flow dependence
  for (i = 0; i < N; i++)
    m = A[i] > m ? A[i] : m + 1.0;
#pragma endscop
}
