// A file that starts with a UTF-8 byte-order mark keeps it first: weft's
// preamble goes after it, so gcc still reads the output.
// RUN: printf '\357\273\277' > %t.c && cat %s >> %t.c
// RUN: gcc %t.c -o %t.ref && %t.ref > %t.ref.out
// RUN: weft compile --target=seq %t.c -o %t.seq.c
// RUN: head -c 3 %t.seq.c | od -An -tx1 | FileCheck %s
// RUN: gcc %t.seq.c -o %t.seq -lm && %t.seq > %t.seq.out
// RUN: cmp %t.ref.out %t.seq.out
// RUN: weft compile --target=mpi %t.c -o %t.mpi.c
// RUN: head -c 3 %t.mpi.c | od -An -tx1 | FileCheck %s
// CHECK: ef bb bf
#include <stdio.h>
double A[10];
int main(void) {
  int i;
#pragma scop
  for (i = 0; i < 10; i++)
    A[i] = i * 2.0;
#pragma endscop
  printf("%g\n", A[9]);
  return 0;
}
