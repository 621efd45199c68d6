// --target=mpi-cuda: a matrix product whose rows are distributed, each
// rank's block computed by two 2-D grids of GPU threads (gpu-expose-bands:
// the scaling, then the product with the k loop inside each thread, in
// shared-memory tiles), gathered to rank 0; the same output as the
// sequential program on 1, 2 and 3 ranks (CPU emulation of CUDA).
// REQUIRES: mpicc, mpirun, g++
// RUN: WEFT_TARGET=mpi-cuda bash %S/../run-mpi.sh %S/../seq/gemm.c %t 1 2 3
