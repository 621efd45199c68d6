// RUN: weft compile --report %s -o %t.c 2>&1 | FileCheck %s
// RUN: weft compile --report --fp-reductions=ordered %s -o %t.c 2>&1 | FileCheck %s --check-prefix=ORDERED
// RUN: not weft compile --fp-reductions=fast %s -o %t.c 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not weft compile --fp-reductions=ordered -DPIN %s -o %t.c 2>&1 | FileCheck %s --check-prefix=PIN

// A loop whose iterations only add into shared accumulators (y[j] over i,
// as in PolyBench's atax) is split across ranks: each rank accumulates its
// block of i, ranks whose block does not hold the first update of y start
// from 0, and an all-reduce combines the partial sums. tmp[i] is private to
// one iteration: it is an ordinary distributed write.

#define M 400
#define N 300
double A[M][N], x[N], y[N], tmp[M];
long hist[N];

void atax(void) {
  int i, j;
#pragma scop
  for (i = 0; i < N; i++)
    y[i] = 0;
#ifdef PIN
// PIN: dist-reductions.c:29:3: error: cannot distribute this loop: its floating-point reductions stay in program order (--fp-reductions=ordered)
#pragma weft distribute(i: block)
#endif
// With --fp-reductions=ordered the i loop stays in program order on every
// rank, and only the inner j loop that updates y is split.
// CHECK: dist-reductions.c:[[@LINE+1]]:3: remark: distributed: blocks of its iterations on each rank, partial results combined with MPI_Allreduce (add)
  for (i = 0; i < M; i++) {
// ORDERED: dist-reductions.c:[[@LINE+1]]:5: remark: runs on every rank: not a loop
    tmp[i] = 0.0;
// ORDERED: dist-reductions.c:[[@LINE+1]]:5: remark: runs on every rank: its floating-point reductions stay in program order (--fp-reductions=ordered)
    for (j = 0; j < N; j++)
      tmp[i] = tmp[i] + A[i][j] * x[j];
// ORDERED: dist-reductions.c:[[@LINE+1]]:5: remark: distributed: blocks of its iterations on each rank (predicted
    for (j = 0; j < N; j++)
      y[j] = y[j] + A[i][j] * tmp[i];
  }
// Integer sums do not depend on the order: split even when ordered.
// CHECK: dist-reductions.c:[[@LINE+2]]:3: remark: distributed: blocks of its iterations on each rank, partial results combined with MPI_Allreduce (add)
// ORDERED: dist-reductions.c:[[@LINE+1]]:3: remark: distributed: blocks of its iterations on each rank, partial results combined with MPI_Allreduce (add)
  for (i = 0; i < M; i++)
    for (j = 0; j < N; j++)
      hist[j] += (long)(A[i][j] * 4);
#pragma endscop
}
// CHECK: dist-reductions.c:29:3: remark: partial results combined after this unit (all-reduce): add { M0[i0] : 0 <= i0 <= 299 }, starting from the identity: [rlo1, rhi1] -> { M0[i0] : 0 <= i0 <= 299 and (rlo1 > 0 or (rlo1 <= 0 and rhi1 <= 0)) };
// BAD: weft compile: error: --fp-reductions must be 'split' or 'ordered', got 'fast'
