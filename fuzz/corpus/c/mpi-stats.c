// REQUIRES: mpicc, mpirun
// RUN: weft compile %s -o %t.c
// RUN: mpicc -O2 -Wall -Werror %t.c -o %t.exe -lm
// RUN: env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none WEFT_STATS=1 mpirun --oversubscribe -np 2 %t.exe 2>&1 >/dev/null | FileCheck %s
// RUN: env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none WEFT_STATS=1 mpirun --oversubscribe -np 3 %t.exe 2>&1 >/dev/null | FileCheck %s --check-prefix=THREE

// WEFT_STATS=1 makes the runtime count what it hands to MPI. One sweep
// over 37 elements, distributed as the directive asks (the cost model alone
// would keep so small a loop on every rank), then the live-out gather to rank 0:
// on 2 ranks rank 1 owns [19, 37) and sends those 18 doubles once; on 3
// ranks ranks 1 and 2 own [13, 25) and [25, 37) and send 12 doubles each.
// CHECK: weft: 2 ranks sent 144 bytes in 1 messages (at most 144 bytes from one rank)
// CHECK-NEXT: weft: peak memory per rank {{[1-9][0-9]*}} to {{[1-9][0-9]*}} bytes
// THREE: weft: 3 ranks sent 192 bytes in 2 messages (at most 96 bytes from one rank)
#include <stdio.h>

#define N 37
double A[N], B[N];

int main(void) {
  int i;
  for (i = 0; i < N; i++)
    A[i] = i * 0.5;
#pragma scop
#pragma weft distribute(i: block)
  for (i = 0; i < N; i++)
    B[i] = 2.0 * A[i] + 1.0;
#pragma endscop
  for (i = 0; i < N; i++)
    printf("%g\n", B[i]);
  return 0;
}
