// --target=mpi-cuda: the column reductions of ../seq/column-reductions.c,
// each rank's block of columns on its device with a column of threads per
// column of the block (CPU emulation of CUDA); the same output as the
// sequential program on 1, 2 and 3 ranks, within rounding (the threads of
// a column combine in an order of their own), and bit for bit with the
// sums in program order.
// REQUIRES: mpicc, mpirun, g++
// RUN: WEFT_TARGET=mpi-cuda WEFT_RTOL=1e-12 bash %S/../run-mpi.sh %S/../seq/column-reductions.c %t 1 2 3
// RUN: WEFT_TARGET=mpi-cuda WEFT_FLAGS=--fp-reductions=ordered bash %S/../run-mpi.sh %S/../seq/column-reductions.c %t.ordered 1 3
