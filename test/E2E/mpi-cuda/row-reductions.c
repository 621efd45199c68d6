// --target=mpi-cuda: the row reductions of ../seq/row-reductions.c, each
// rank's block of rows on its device with a row of threads per row (CPU
// emulation of CUDA); the same output as the sequential program on 1, 2
// and 3 ranks, within rounding (the threads of a row combine in an order of
// their own), and bit for bit with the sums in program order.
// REQUIRES: mpicc, mpirun, g++
// RUN: WEFT_TARGET=mpi-cuda WEFT_RTOL=1e-12 bash %S/../run-mpi.sh %S/../seq/row-reductions.c %t 1 2 3
// RUN: WEFT_TARGET=mpi-cuda WEFT_FLAGS=--fp-reductions=ordered bash %S/../run-mpi.sh %S/../seq/row-reductions.c %t.ordered 1 3
