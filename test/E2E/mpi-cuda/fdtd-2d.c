// --target=mpi-cuda: a stencil over three arrays with a boundary row update
// per step (four device nests in a time loop, halos in both directions);
// the same output as the sequential program on 1, 2 and 3 ranks (CPU
// emulation of CUDA).
// REQUIRES: mpicc, mpirun, g++
// RUN: WEFT_TARGET=mpi-cuda bash %S/../run-mpi.sh %S/../seq/fdtd-2d.c %t 1 2 3
