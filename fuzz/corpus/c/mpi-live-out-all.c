// REQUIRES: mpicc, mpirun
// RUN: weft compile --live-out=all %s -o %t.all.c
// RUN: mpicc -O2 -Wall -Werror %t.all.c -o %t.all -lm
// RUN: env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none mpirun --oversubscribe -np 3 %t.all | FileCheck %s
// RUN: weft compile %s -o %t.root.c
// RUN: mpicc -O2 -Wall -Werror %t.root.c -o %t.root -lm
// RUN: env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none not mpirun --oversubscribe -np 3 %t.root
// RUN: not weft compile --live-out=some %s -o %t.bad.c 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: test ! -e %t.bad.c

// Every rank checks the region's result outside the region (and exits 1 on
// a mismatch). With --live-out=all every rank gets the values; by default
// only rank 0 does, so the other ranks fail the check.
// CHECK: ok
// BAD: error: --live-out must be 'root' or 'all', got 'some'
#include <stdio.h>

#define N 41
double A[N], B[N];

int main(void) {
  int i;
  for (i = 0; i < N; i++)
    A[i] = i % 7;
#pragma scop
#pragma weft distribute(i: block)
  for (i = 1; i < N - 1; i++)
    B[i] = A[i - 1] + A[i] + A[i + 1];
#pragma endscop
  for (i = 1; i < N - 1; i++)
    if (B[i] != A[i - 1] + A[i] + A[i + 1])
      return 1;
  printf("ok\n");
  return 0;
}
