// --target=mpi-cuda: the matrix products of ../seq/matmul-tiles.c
// (37 x 23 x 41), each rank's block of rows computed by kernels whose k
// loop is staged in shared-memory tiles (gpu-stage-tiles); the same output
// as the sequential program on 2 and 3 ranks (CPU emulation of CUDA). One
// build, kept to two rank counts: the emulation's builds are the cost.
// REQUIRES: mpicc, mpirun, g++
// RUN: WEFT_TARGET=mpi-cuda bash %S/../run-mpi.sh %S/../seq/matmul-tiles.c %t 2 3
