// RUN: weft compile --report %s -o %t.c 2>&1 | FileCheck %s
// RUN: weft compile --report -DNOLOCAL %s -o %t.c 2>&1 | FileCheck %s --check-prefix=NOLOCAL
// RUN: weft compile -DIGNORED %s -o %t.c 2>&1 | FileCheck %s --check-prefix=IGNORED
// RUN: weft compile --target=seq -DIGNORED %s -o %t.c 2>&1 | count 0

// '#pragma weft local(tmp)': every rank keeps its own tmp, which weft never
// communicates, so tmp's accesses are left out of the dependence analysis
// and no message carries tmp. Without the directive, the i loop, which
// rewrites the scratch row tmp in every iteration, is still distributed: it
// carries anti and output dependences on tmp but no flow dependence, and
// each rank has its own copy. tmp is then live after the region, so the
// rank that ran the last iteration sends its row to rank 0.

#define N 64
#define M 48
double A[N][M], B[N][M], tmp[M];

void rows(void) {
  int i, j;
#pragma scop
#ifndef NOLOCAL
#pragma weft local(tmp)
#endif
#pragma weft distribute(i: block)
// CHECK: dist-local.c:[[@LINE+2]]:3: remark: distributed: blocks of its iterations on each rank as '#pragma weft' asks
// NOLOCAL: dist-local.c:[[@LINE+1]]:3: remark: distributed: blocks of its iterations on each rank as '#pragma weft' asks
  for (i = 0; i < N; i++) {
    for (j = 0; j < M; j++)
      tmp[j] = 2.0 * A[i][j];
    for (j = 1; j < M - 1; j++)
      B[i][j] = tmp[j - 1] + tmp[j] + tmp[j + 1];
  }
#pragma endscop
}
// No message carries tmp: only B goes to rank 0 after the loop.
// CHECK-NOT: (tmp)
// CHECK: remark: sent after this unit {{.*}}(double *)(B)
// CHECK-NOT: (tmp)
// Without it, the last iteration's tmp goes to rank 0 too.
// NOLOCAL: remark: sent after this unit {{.*}}(double *)(tmp): [rlo0, rhi0, slo0, shi0, rq] -> { M1[i0] : rq = 0 and slo0 <= 63 and shi0 >= 64 and 0 <= i0 <= 47

// Directives that are recorded but not acted on yet are warnings (not with
// --target=seq, which distributes nothing).
#ifdef IGNORED
double C[N], D[N];
void ignored(void) {
  int i;
#pragma scop
// IGNORED: dist-local.c:[[@LINE-1]]:1: warning: '#pragma weft grid' with 3 extents is not acted on: nests are split over all ranks or over a 2-D grid
// IGNORED: dist-local.c:[[@LINE-2]]:1: warning: '#pragma weft distribute' or 'replicate' of array 'D' is not acted on yet
#pragma weft grid(2, 1, 2)
#pragma weft replicate(D)
#pragma weft parallel
// IGNORED: dist-local.c:[[@LINE+1]]:3: warning: '#pragma weft parallel' is not acted on yet
  for (i = 0; i < N; i++)
    C[i] = i;
  for (i = 1; i < N; i++)
    D[i] = C[i - 1];
#pragma endscop
}
#endif
