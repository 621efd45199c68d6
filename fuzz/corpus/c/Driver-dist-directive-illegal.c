// RUN: rm -f %t.c && not weft compile %s -o %t.c 2>&1 | FileCheck %s
// RUN: test ! -e %t.c
// RUN: rm -f %t2.c && not weft compile -DCYCLIC %s -o %t2.c 2>&1 | FileCheck %s --check-prefix=CYCLIC
// RUN: test ! -e %t2.c
// RUN: weft compile --target=seq %s -o %t3.c

// A pinned distribution that would be wrong is a located error, never
// wrong code (--target=seq ignores the partitioner).

#define N 64
double A[N];

void recurrence(void) {
  int i;
#pragma scop
#ifdef CYCLIC
// CYCLIC: dist-directive-illegal.c:[[@LINE+2]]:3: error: '#pragma weft distribute' can only ask for 'block' on the outermost loop of a nest, or on its two outermost loops (over the two axes of a 2-D grid, in order), or '*', for now
#pragma weft distribute(i: cyclic)
  for (i = 0; i < N; i++)
    A[i] = 0.5 * A[i];
#else
// CHECK: dist-directive-illegal.c:[[@LINE+2]]:3: error: cannot distribute this loop: the loop carries a flow dependence
#pragma weft distribute(i: block)
  for (i = 1; i < N; i++)
    A[i] = A[i - 1] + 1.0;
#endif
#pragma endscop
}

int idx[N];

void indirect(void) {
  int i;
#pragma scop
#ifndef CYCLIC
// CHECK: dist-directive-illegal.c:[[@LINE+2]]:3: error: cannot distribute this loop: not a static control part
#pragma weft distribute(i: block)
  for (i = 0; i < N; i++)
    A[idx[i]] = 1.0;
#endif
#pragma endscop
}

double G[N][N];

// Over a 2-D grid, the inner loop must be split too: one that carries a
// flow dependence cannot be, and the grid's axes go to the loops in order.
void grid(void) {
  int i, j;
#pragma scop
#ifdef CYCLIC
// CYCLIC: dist-directive-illegal.c:[[@LINE+2]]:3: error: '#pragma weft distribute' can only ask for 'block' on the outermost loop of a nest, or on its two outermost loops (over the two axes of a 2-D grid, in order), or '*', for now
#pragma weft distribute(i: block@1, j: block@0)
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      G[i][j] = 2.0 * G[i][j];
#else
// CHECK: dist-directive-illegal.c:[[@LINE+2]]:3: error: cannot distribute this loop and the loop inside it over a 2-D grid: its body must be one loop that holds every access, carries no flow dependence, has step 1 and bounds that do not change during the region
#pragma weft distribute(i: block, j: block)
  for (i = 0; i < N; i++)
    for (j = 1; j < N; j++)
      G[i][j] = G[i][j - 1] + 1.0;
#endif
#pragma endscop
}

// A pinned inner loop is a unit of its own (the loop around it runs on
// every rank), so the reason is its own dependence.
void inner(void) {
  int i, j;
#pragma scop
#ifndef CYCLIC
  for (i = 0; i < N; i++) {
// CHECK: dist-directive-illegal.c:[[@LINE+2]]:5: error: cannot distribute this loop: the loop carries a flow dependence
#pragma weft distribute(j: block)
    for (j = 1; j < N; j++)
      G[i][j] = G[i][j - 1] * 0.5;
  }
#endif
#pragma endscop
}
