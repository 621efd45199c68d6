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
// CYCLIC: dist-directive-illegal.c:[[@LINE+2]]:3: error: '#pragma weft distribute' can only ask for 'block' on the outermost loop of a nest (or '*') for now
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
