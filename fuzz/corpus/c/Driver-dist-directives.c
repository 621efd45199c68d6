// RUN: weft compile --report %s -o %t.c 2>&1 | FileCheck %s
// RUN: grep -q weft_rt_block_lo %t.c

// '#pragma weft' directives steer the partitioner: a pinned choice wins
// over the cost model, and '#pragma weft nodist' keeps a region replicated.

#define N 64
double A[N], B[N], C[N];

void pinned(void) {
  int i;
#pragma scop
// CHECK: dist-directives.c:[[@LINE+2]]:3: remark: runs on every rank: as '#pragma weft' asks
#pragma weft distribute(i: *)
  for (i = 0; i < N; i++)
    B[i] = 2.0 * A[i];
// CHECK: dist-directives.c:[[@LINE+2]]:3: remark: distributed: blocks of its iterations on each rank as '#pragma weft' asks
#pragma weft distribute(i: block)
  for (i = 1; i < N - 1; i++)
    C[i] = B[i - 1] + B[i + 1];
#pragma endscop
}

void whole(void) {
  int i;
#pragma weft nodist
#pragma scop
// CHECK: dist-directives.c:[[@LINE+1]]:3: remark: runs on every rank: as '#pragma weft' asks
  for (i = 0; i < N; i++)
    A[i] = A[i] + 1.0;
#pragma endscop
}
