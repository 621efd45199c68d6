// --target=mpi-cuda: each rank's two stencil nests run as kernels inside the
// time loop, halos travel over MPI through the host arrays; the program
// prints what the sequential program prints on 1, 2 and 3 ranks (CPU
// emulation of CUDA, runtime/cuda/hpc).
// REQUIRES: mpicc, mpirun, g++
// RUN: WEFT_TARGET=mpi-cuda bash %S/../run-mpi.sh %S/../seq/jacobi-2d.c %t 1 2 3
