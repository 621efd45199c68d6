// RUN: weft compile --target=cuda --report %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=NOMINAL
// RUN: weft compile --target=cuda --report --size=ni=64,nj=64 --size=nk=64 %s -o %t.small.cu 2>&1 | FileCheck %s --check-prefix=SMALL
// RUN: weft compile --target=mpi --report --size=ni=1000,nj=1100,nk=1200 %s -o %t.c 2>&1 | FileCheck %s --check-prefix=MPI
// RUN: weft compile --target=mpi-cuda --report --size=ni=1000,nj=1100,nk=1200 %s -o %t.mpi.cu 2>&1 | FileCheck %s --check-prefix=MPICUDA
// RUN: weft compile --target=mpi-cuda --report --gpu-register-tile=1 %s -o %t.rt1.cu 2>&1 | FileCheck %s --check-prefix=ONE
// RUN: not weft compile --target=cuda --size=nl=64 %s -o %t.bad.cu 2>&1 | FileCheck %s --check-prefix=TYPO
// RUN: not weft compile --target=cuda --size=ni %s -o %t.bad.cu 2>&1 | FileCheck %s --check-prefix=FORM
// RUN: not weft compile --target=mpi --size=ni=0 %s -o %t.bad.cu 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: not weft compile --target=mpi-cuda --size=ni=5,ni=6 %s -o %t.bad.cu 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: test ! -e %t.bad.cu

// `--size=NAME=VALUE` gives the cost estimates the value of a size the
// compiler cannot know (PolyBench's ni, nj, nk are arguments): the device
// choice, the kernels' shapes and the partitioner's predictions take it,
// and --report says which sizes came from where. Without it every such
// size takes --nominal-size (4096). A name no region uses, a malformed
// entry or a value below 1 is an error before any output.

void kernel(int ni, int nj, int nk, double alpha, double C[ni][nj],
            double A[ni][nk], double B[nk][nj]) {
  int i, j, k;
#pragma scop
  for (i = 0; i < ni; i++)
    for (j = 0; j < nj; j++)
      for (k = 0; k < nk; k++)
        C[i][j] += alpha * A[i][k] * B[k][j];
#pragma endscop
}

// At 4096^3 the product gets 4 x 4 register tiles; at 64^3 its grid is too
// small for them.
// NOMINAL: remark: runs on the device: {{.*}} against 52.8 s on the CPU (ni, nj, nk, unknown at compile time, taken as 4096); blocks of 32 x 8 threads, each computing 4 x 4 elements,
// SMALL: remark: runs on the device: {{.*}} against 201 us on the CPU (ni=64, nj=64, nk=64 from --size); blocks of 32 x 16 threads, the loop at line {{[0-9]+}} in shared-memory tiles of 32

// MPI: remark: partition chosen by the dynamic program over 1 units (1 candidates, {{[0-9]+}} states): predicted region time at 4 ranks {{[0-9.e+-]+}} s; predicted times with ni=1000, nk=1200, nj=1100 from --size{{$}}

// Under mpi-cuda the prediction is the first rank's block of rows, at the
// sizes given (the names come through the nest's outlining), and
// --gpu-register-tile reaches the kernels of each rank.
// MPICUDA: remark: runs on the device: {{.*}} against 253 ms on the CPU (ni=1000, nj=1100, nk=1200 from --size; the first rank's block at 4 ranks)
// ONE: remark: runs on the device: {{.*}} (ni, nj, nk, unknown at compile time, taken as 4096; the first rank's block at 4 ranks); blocks of {{[0-9]+ x [0-9]+}} threads, the loop at line {{[0-9]+}} in shared-memory tiles

// TYPO: weft compile: error: --size=nl=64: no #pragma scop region of {{.*}}size-option.c uses a size named 'nl'
// FORM: weft compile: error: --size: 'ni' is not NAME=VALUE with NAME a scalar of the C source
// ZERO: weft compile: error: --size: 'ni=0': the value of ni must be an integer of at least 1
// TWICE: weft compile: error: --size: 'ni=6': ni was given as 5 before
