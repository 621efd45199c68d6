// --target=mpi-cuda: the loops of ../seq/carried-interchange.c (atax's form,
// a pointwise and a stencil time loop), each rank's nests with parallel
// loops moved out of the loops that carry them where gpu-expose-bands
// can; the same output as the sequential program on 2 and 3 ranks (CPU
// emulation of CUDA), within rounding (the threads of a row combine
// tmp[i]'s sum).
// REQUIRES: mpicc, mpirun, g++
// RUN: WEFT_TARGET=mpi-cuda WEFT_RTOL=1e-12 bash %S/../run-mpi.sh %S/../seq/carried-interchange.c %t 2 3
